// The staff dashboard end to end, one investment from the startup's creation to the investor's
// portfolio, in a real browser (Turkish UI):
//
//   1. an admin creates a startup in /dashboard/startups/new: a required field left empty is
//      refused (422, "Bu alan zorunludur", the typed values kept), the Preview button renders
//      both languages' Markdown without saving, then the startup is saved, unpublished (no
//      "published" box until the investment committee approved a campaign; a forged one is
//      refused); the admin writes its campaign in the staff draft, records the issuer's facts
//      and passes it to the committee, where two of the three members approve it: that
//      publishes it; its page shows the Turkish analysis, and with ?lang=en the English one,
//      to an investor;
//   2. a new investor completes the MKK form; the amount page waits until the data is verified,
//      which the superadmin does on /dashboard/users (the row's "MKK bilgisini doğrula"); then
//      the investor opens the round's information form and requests 100.000 TL with the amount
//      island;
//   3. the superadmin approves it on /dashboard/investments (the table island's action form),
//      and the request's history page lists the approval;
//   4. the investor pays the fee with the sandbox card (3-D Secure), gives the payer's details
//      (the name is the verified one; the IBAN declared their own) and gets the escrow transfer
//      instructions on /paymentSuccess;
//   5. the superadmin sees the transfer waiting on /dashboard/takasbank, then imports the
//      clearing bank's statement (camt.053) with it on /dashboard/takasbank/statements: the line
//      with the reference, the exact amount and the investor as payer makes the request funded
//      (there is no "paid" or "received" button: the state follows the bank's record of the
//      money), and the same file twice is refused; escrow holding the goal, the superadmin
//      schedules the round's early close on /dashboard/rounds/{id}/close (the name typed to
//      confirm); it waits for the request's cancellation window, so the server's clock is moved
//      past it (ORTAK_CLOCK_FILE, as the server's tests do), and the close job allocates it;
//   6. the allocated investment is listed on the investor's /userInvestments;
//   7. /dashboard/audit shows each step: startup.create, the campaign (submitted, the issuer
//      checked, passed to the committee, decided), mkk.review, request.status (approved),
//      statement.import and transfer.received, round.close.scheduled, in order;
//   8. the staff-table island on /dashboard/users, without page loads: sorting by a column
//      (aria-sort, both directions), searching by Turkish case rules, a filter select, and the
//      CSV export of the rows shown; and the server's table (and search form) without JavaScript.
//
// One server for the file (fresh data folder, demo content, a superadmin and admins created with
// `ortak create-admin` before it starts, three of them seated on the investment committee in the
// database instead of the demo's members, mail to a local SMTP sink, its clock read from a file
// the test writes, its jobs run every second). The tests run in order and build on each other
// (one startup, one request). Nothing may leave 127.0.0.1.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  assertOnlyLoopback,
  clickAndNavigate,
  openRowMenu,
  launchBrowser,
  newContext,
  startServer,
  uniqueEmail,
  waitForIsland,
} from './helpers.mjs';
import {
  campaignFields,
  camt053,
  fillById,
  fillCampaign,
  fillPayer,
  join,
  MKK,
  openInformationForm,
  pathOf,
  PAYER,
  PERSON,
  seatCommittee,
  signIn,
  sqliteValue,
  texts,
} from './journeys.mjs';
import { startSmtpSink } from './smtp.mjs';

const SUPER = { email: 'super@example.com', password: 'parola-1234' };
/** An ordinary admin: creating startups and reviewing their campaigns is every admin's work. */
const ADMIN = { email: 'admin@example.com', password: 'parola-5678' };
/** The investment committee: the superadmin and two admins; two of the three approve. */
const MEMBER = { email: 'komite-a@example.com', password: 'parola-9012' };
const OTHER_MEMBER = { email: 'komite-b@example.com', password: 'parola-3456' };
const COMMITTEE = [SUPER.email, MEMBER.email, OTHER_MEMBER.email];

const TR = {
  required: 'Bu alan zorunludur',
  formErrors: 'Lütfen işaretli alanları düzeltin.',
  saved: 'Kaydedildi.',
  mkkVerifying: 'MKK bilgileriniz ekibimiz tarafından doğrulanıyor.',
  mkkWaiting: 'İnceleme bekliyor',
  mkkVerified: 'Doğrulandı',
  mkkVerify: 'MKK bilgisini doğrula',
  statementsTitle: 'Banka ekstreleri',
  statementImport: 'Ekstreyi yükle',
  statementMatched: 'Ekstre yüklendi; her satır talebiyle eşleşti.',
  statementAgain: 'Bu dosya daha önce yüklendi; yeniden yüklenmedi.',
  lineMatched: 'Alındı: talep fonlandı',
  moved: 'Talep güncellendi.',
  published: 'Yayında',
  draft: 'Taslak',
  publishNote: 'Bir kampanya, yatırım komitesi bir sürümünü onayladığında yayımlanır.',
  campaignSubmitted: 'Gönderildi: ekibimiz inceleyecek, ardından yatırım komitesi karar verecek.',
  issuerPasses: 'İhraççı tüm kontrolleri geçiyor.',
  inCommittee: 'yatırım komitesinde',
  campaignApproved: 'onaylandı ve yayında',
  voted: 'Bu sürüm için oy verdiniz.',
  closeScheduled: 'Erken kapanış planlandı; yatırımcılara bildirildi.',
  investmentPeriod: 'Yatırım dönemi',
  submitted: 'Gönderildi',
  approved: 'Onaylandı, hizmet bedeli bekleniyor',
  feePaid: 'Hizmet bedeli ödendi, havale bekleniyor',
  funded: 'Havale alındı',
  allocated: 'Paylar tahsis edildi',
  waiting: 'Bekleniyor',
  received: 'Alındı',
  bankTitle: 'Yatırım tutarını emanet hesabına aktarın',
  successTitle: 'Yatırım tutarını havale edin',
  empty: 'Kayıt yok.',
  all: 'Tümü',
  investor: 'Yatırımcı',
  superadmin: 'Süper yönetici',
  admin: 'Yönetici',
  shown: (shown, total) => `${total} satırdan ${shown} tanesi`,
  usersColumns: ['E-posta', 'Ad', 'Rol', 'MKK', 'Durum', 'Tarih'],
  executiveSummary: 'Yönetici özeti',
};

const EN = { executiveSummary: 'Executive summary' };

/** What the superadmin types into the startup editor (every required field, and more). */
const STARTUP = {
  name: 'Şafak Üretim Robotları',
  slug: 'safak-uretim-robotlari',
  sector: 'mobility',
  stage: 'seed',
  city: 'İzmir',
  // One 100.000 TL investment reaches the goal, so the round succeeds when closed.
  goal: '100.000',
  text: {
    description_tr: 'Sanayi için işbirlikçi robotlar üreten İzmirli girişim.',
    description_en: 'An İzmir startup building collaborative robots for industry.',
    subcategory: 'Endüstriyel robotik',
    team_size: '12',
    founders: 'Ayşe Kaya | CEO\nMehmet Demir | CTO | https://www.linkedin.com/in/mehmet-demir',
    's_executive-summary_tr': '**Güçlü büyüme**: üretim hatları için robot kollar.\n\n- İlk müşteri: Bursa\n- Aylık gelir: 120.000 TL',
    's_executive-summary_en': '**Strong growth**: robot arms for production lines.\n\n- First customer: Bursa\n- Monthly revenue: 120,000 TL',
    s_risks_tr: 'Tedarik zincirinde *gecikmeler* olabilir.',
    s_risks_en: 'Supply chain *delays* may happen.',
  },
};

/**
 * The startup's campaign as the admin drafts it, from `startsOn` to `endsOn`: the editor's
 * descriptions and analysis, a 100.000 TL target (between 80.000 and 120.000 TL) split over two
 * lines, the offer, figures and a pitch video.
 */
const campaignOf = (startsOn, endsOn) =>
  campaignFields({
    goal: 100_000,
    startsOn,
    endsOn,
    text: Object.fromEntries(Object.entries(STARTUP.text).filter(([name]) => name.startsWith('description_') || name.startsWith('s_'))),
  });

/** The two extra investors of the users table test. */
const ISIL = { ...PERSON, first_name: 'Işıl', last_name: 'Çelik' };
const ISMAIL = { ...PERSON, first_name: 'İsmail', last_name: 'Öztürk' };

const ISLAND = '[data-island="staff-table"]';
const INVEST = '[data-island="investment"]';
const CARD = '[data-island="card-payment"]';

/** Records the page's requests: POSTs by path, and document (page) loads. */
function watch(page) {
  const seen = { posts: [], documents: 0 };
  page.on('request', (req) => {
    if (req.method() === 'POST') seen.posts.push(new URL(req.url()).pathname);
    if (req.isNavigationRequest() && req.frame() === page.mainFrame()) seen.documents += 1;
  });
  return seen;
}

/** Marks the current document, to tell later whether it was replaced. */
const markDocument = (page) => page.evaluate(() => (window.__sameDocument = true));
const sameDocument = (page) => page.evaluate(() => window.__sameDocument === true);

/** The rows the staff-table island shows: id and cell texts (without the actions cell). */
const islandRows = (page) =>
  page.$$eval(`${ISLAND} table tbody tr[data-row]`, (rows) =>
    rows.map((tr) => ({ id: tr.dataset.row, cells: [...tr.cells].slice(0, -1).map((td) => td.textContent.trim()) })),
  );

/** `id` as a CSS identifier (the section fields' ids are plain, but say so once). */
const CSS_ESCAPE = (id) => id.replace(/[^\w-]/g, (c) => `\\${c}`);

/** The error message of the field whose control is `#id` (found by its .field wrapper). */
const fieldError = (page, id) => page.locator('.field', { has: page.locator(`#${CSS_ESCAPE(id)}`) }).locator('.field__error');

/** Splits the island's CSV (every cell quoted, CRLF line ends) into rows of cells. */
function parseCsv(text) {
  return text
    .split('\r\n')
    .filter((line) => line !== '')
    .map((line) => [...line.matchAll(/"((?:[^"]|"")*)"(?:,|$)/g)].map((m) => m[1].replace(/""/g, '"')));
}

/** Whole days from the ISO date `a` to the ISO date `b`. */
const daysBetween = (a, b) => (Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000;

describe('staff dashboard', () => {
  let server;
  let sink;
  let browser;
  /** The superadmin, signed in for the whole file (Turkish UI). */
  let staffContext;
  let staff;
  /** The investor of the journey, signed in from test 2 on. */
  let investorContext;
  let investor;
  let investorEmail;
  const errors = [];
  /** Filled as the journey goes. */
  const journey = {
    startupId: null,
    endsOn: null,
    versionId: null,
    requestId: null,
    investorId: null,
    today: null,
    reference: null,
    statementSha: null,
    lineId: null,
  };
  /** The file whose number of seconds shifts the server's clock. */
  let clockDir;
  let clockFile;

  before(async () => {
    sink = await startSmtpSink();
    clockDir = await mkdtemp(path.join(os.tmpdir(), 'ortak-clock-'));
    clockFile = path.join(clockDir, 'offset');
    await writeFile(clockFile, '0');
    server = await startServer({
      env: { ORTAK_SMTP_URL: sink.url, ORTAK_CLOCK_FILE: clockFile, ORTAK_JOBS_INTERVAL_SECONDS: '1' },
      beforeStart: async ({ run }) => {
        await run(['create-admin', '--create', '--email', SUPER.email, '--password', SUPER.password, '--super']);
        for (const admin of [ADMIN, MEMBER, OTHER_MEMBER]) await run(['create-admin', '--create', '--email', admin.email, '--password', admin.password]);
      },
    });
    seatCommittee(server, COMMITTEE);
    browser = await launchBrowser();
    staffContext = await newContext(browser, { locale: 'tr-TR' });
    staff = await staffContext.newPage();
    staff.on('pageerror', (err) => errors.push(`staff: ${err}`));
    const signedIn = await signIn(staff, server, SUPER.email, SUPER.password);
    assert.equal(signedIn.status(), 200, `superadmin sign-in: ${signedIn.status()} at ${staff.url()}`);
  });

  after(async () => {
    await investorContext?.close();
    await staffContext?.close();
    await browser?.close();
    await server?.stop();
    await sink?.close();
    if (clockDir) await rm(clockDir, { recursive: true, force: true });
  });

  /** Opens a staff list page and waits until the island shows the rows it fetched. */
  async function openTable(page, path) {
    const response = await page.goto(server.url(path));
    assert.equal(response.status(), 200, `${path}: ${response.status()}`);
    await waitForIsland(page, 'staff-table');
    await page.waitForSelector(`${ISLAND} .staff-table__count`);
  }

  /** The island row of the journey's request on /dashboard/investments (opened already). */
  async function requestRow() {
    const rows = (await islandRows(staff)).filter((r) => r.id === String(journey.requestId));
    assert.equal(rows.length, 1, `request ${journey.requestId} is listed`);
    return rows[0].cells;
  }

  /** Moves the journey's request with its row's button on /dashboard/investments. */
  async function moveRequest(to, status) {
    await openTable(staff, '/dashboard/investments');
    const button = `${ISLAND} tr[data-row="${journey.requestId}"] button[name="to"][value="${to}"]`;
    await openRowMenu(staff, `${ISLAND} tr[data-row="${journey.requestId}"]`);
    const response = await clickAndNavigate(staff, button);
    assert.equal(response.status(), 200);
    assert.equal(pathOf(staff), '/dashboard/investments', 'back to the list');
    assert.equal((await staff.textContent('.flash--success')).trim(), TR.moved);
    await waitForIsland(staff, 'staff-table');
    await staff.waitForSelector(`${ISLAND} .staff-table__count`);
    assert.equal((await requestRow())[4], status, `the status column says ${status}`);
    assert.equal(await staff.locator(button).count(), 0, `no second "${to}" move`);
  }

  /** The history table of /dashboard/investments/{id}: [date, status, note, by] per row. */
  async function requestHistory() {
    const response = await staff.goto(server.url(`/dashboard/investments/${journey.requestId}`));
    assert.equal(response.status(), 200);
    return staff.$$eval('table.table:not(.actions-only) tbody tr', (rows) =>
      rows.map((tr) => [...tr.cells].map((td) => td.textContent.trim())),
    );
  }

  it('an admin creates a startup in both languages: a required field, the preview, the save (unpublished)', async () => {
    const adminContext = await newContext(browser, { locale: 'tr-TR' });
    const staff = await adminContext.newPage();
    staff.on('pageerror', (err) => errors.push(`admin: ${err}`));
    const signedIn = await signIn(staff, server, ADMIN.email, ADMIN.password);
    assert.equal(signedIn.status(), 200, `admin sign-in: ${signedIn.status()}`);
    const response = await staff.goto(server.url('/dashboard/startups/new'));
    assert.equal(response.status(), 200);
    // Prefilled: Türkiye, an investment period from today for 30 days.
    assert.equal(await staff.inputValue('#country'), 'Türkiye');
    assert.equal(await staff.inputValue('#period_kind'), 'investment');
    const startsOn = await staff.inputValue('#starts_on');
    const endsOn = await staff.inputValue('#ends_on');
    assert.match(startsOn, /^\d{4}-\d{2}-\d{2}$/);
    assert.equal(daysBetween(startsOn, endsOn), 30, `${startsOn}..${endsOn}`);
    journey.today = startsOn;

    const fund = await staff.$eval('#fund option:nth-child(2)', (o) => ({ value: o.value, label: o.textContent.trim() }));
    assert.ok(fund.value, 'the demo funds are offered');
    await staff.fill('#name', STARTUP.name);
    await staff.selectOption('#sector', STARTUP.sector);
    await staff.selectOption('#fund', fund.value);
    await staff.selectOption('#stage', STARTUP.stage);
    await staff.fill('#goal', STARTUP.goal);
    await staff.selectOption('#period_kind', 'investment');
    for (const [id, value] of Object.entries(STARTUP.text)) await staff.fill(`#${CSS_ESCAPE(id)}`, value);
    // The city is left empty.

    const kept = async (what) => {
      assert.equal(await staff.inputValue('#name'), STARTUP.name, `${what}: name`);
      assert.equal(await staff.inputValue('#sector'), STARTUP.sector, `${what}: sector`);
      assert.equal(await staff.inputValue('#fund'), fund.value, `${what}: fund`);
      assert.equal(await staff.inputValue('#stage'), STARTUP.stage, `${what}: stage`);
      assert.equal(await staff.inputValue('#goal'), STARTUP.goal, `${what}: goal`);
      assert.equal(await staff.inputValue('#period_kind'), 'investment', `${what}: period`);
      assert.equal(await staff.inputValue('#starts_on'), startsOn, `${what}: starts on`);
      assert.equal(await staff.inputValue('#ends_on'), endsOn, `${what}: ends on`);
      for (const [id, value] of Object.entries(STARTUP.text)) {
        assert.equal(await staff.inputValue(`#${CSS_ESCAPE(id)}`), value, `${what}: ${id}`);
      }
    };

    // Saved with the city empty: refused, said where, everything typed is still there.
    const refused = await clickAndNavigate(staff, 'button[name="intent"][value="save"]');
    assert.equal(refused.status(), 422);
    assert.equal(pathOf(staff), '/dashboard/startups/new');
    assert.equal((await staff.textContent('.flash--error[role="alert"]')).trim(), TR.formErrors);
    assert.deepEqual(await texts(staff, 'form.editor .field__error'), [TR.required], 'only the city is wrong');
    assert.equal((await fieldError(staff, 'city').textContent()).trim(), TR.required);
    assert.equal(await staff.getAttribute('#city', 'aria-invalid'), 'true');
    assert.equal(await staff.getAttribute('#city', 'aria-describedby'), 'city-error');
    await kept('after the 422');
    // No "published" box: the committee publishes.
    assert.equal(await staff.locator('input#published').count(), 0, 'no "published" box before an approved campaign');
    assert.ok((await texts(staff, 'form.editor p.muted')).includes(TR.publishNote), 'the note says who publishes');

    // Preview: both languages rendered from Markdown, nothing saved, the form as typed.
    await staff.fill('#city', STARTUP.city);
    const previewed = await clickAndNavigate(staff, 'button[name="intent"][value="preview"]');
    assert.equal(previewed.status(), 200);
    assert.equal(pathOf(staff), '/dashboard/startups/new');
    assert.equal(await staff.locator('.field__error').count(), 0);
    const summary = 'fieldset:has(#s_executive-summary_tr) .editor-preview';
    assert.equal((await staff.textContent(`${summary} .prose[lang="tr"] strong`)).trim(), 'Güçlü büyüme');
    assert.deepEqual(await texts(staff, `${summary} .prose[lang="tr"] li`), ['İlk müşteri: Bursa', 'Aylık gelir: 120.000 TL']);
    assert.equal((await staff.textContent(`${summary} .prose[lang="en"] strong`)).trim(), 'Strong growth');
    assert.deepEqual(await texts(staff, `${summary} .prose[lang="en"] li`), ['First customer: Bursa', 'Monthly revenue: 120,000 TL']);
    const risks = 'fieldset:has(#s_risks_tr) .editor-preview';
    assert.equal((await staff.textContent(`${risks} .prose[lang="tr"] em`)).trim(), 'gecikmeler');
    assert.equal((await staff.textContent(`${risks} .prose[lang="en"] em`)).trim(), 'delays');
    assert.equal(await staff.inputValue('#city'), STARTUP.city);
    await kept('after the preview');
    const listed = await (await adminContext.request.get(server.url('/dashboard/startups.json'))).json();
    assert.ok(!listed.rows.some((r) => r.cells[0] === STARTUP.name), 'the preview saved nothing');

    // A forged "published" box is refused: nothing is published before the committee approves.
    await staff.$eval('form.editor', (form) => form.insertAdjacentHTML('beforeend', '<input type="hidden" name="published" value="on">'));
    const forged = await clickAndNavigate(staff, 'button[name="intent"][value="save"]');
    assert.equal(forged.status(), 422);
    assert.equal((await staff.textContent('.flash--error[role="alert"]')).trim(), TR.formErrors);
    await kept('after the forged box');
    const none = await (await adminContext.request.get(server.url('/dashboard/startups.json'))).json();
    assert.ok(!none.rows.some((r) => r.cells[0] === STARTUP.name), 'the refused save stored nothing');

    // Saved: the editor of the new startup, with its address, unpublished.
    const saved = await clickAndNavigate(staff, 'button[name="intent"][value="save"]');
    assert.equal(saved.status(), 200, `saving the new startup: ${saved.status()} at ${staff.url()}`);
    const [, id] = /^\/dashboard\/startups\/(\d+)$/.exec(pathOf(staff)) ?? [];
    assert.ok(id, `the editor of the saved startup: ${staff.url()}`);
    journey.startupId = Number(id);
    assert.equal((await staff.textContent('.flash--success')).trim(), TR.saved);
    assert.equal((await staff.textContent('h1')).trim(), STARTUP.name);
    assert.equal(await staff.inputValue('#slug'), STARTUP.slug, 'the address is the name without marks');
    assert.equal(await staff.locator(`a[href="/startups/${STARTUP.slug}"]`).count(), 1, 'a link to its page');
    assert.equal(await staff.locator('input#published').count(), 0, 'still no box: no approved campaign');
    assert.equal(await staff.locator(`a[href="/dashboard/startups/${id}/campaign"]`).count(), 1, 'a link to its campaign');
    assert.equal(await staff.inputValue('#s_executive-summary_tr'), STARTUP.text['s_executive-summary_tr']);
    assert.equal(await staff.inputValue('#founders'), STARTUP.text.founders);
    assert.equal(await staff.inputValue('#goal'), '100000');

    // The staff list shows it unpublished, in its fund, in an investment period.
    await openTable(staff, '/dashboard/startups');
    const row = (await islandRows(staff)).find((r) => r.id === id);
    assert.ok(row, 'listed on /dashboard/startups');
    // The end date as Turkish pages write dates (DD.MM.YYYY), not as the date field stores it.
    const endsOnTr = endsOn.split('-').reverse().join('.');
    assert.deepEqual(row.cells, [STARTUP.name, fund.label, 'Mobilite', TR.investmentPeriod, endsOnTr, TR.draft]);
    journey.endsOn = endsOn;

    // The campaign, in the staff draft: the editor's story, the offer, from today for 30 days.
    const draft = `/dashboard/startups/${id}/campaign/draft`;
    await staff.goto(server.url(draft));
    await fillCampaign(staff, campaignOf(startsOn, endsOn));
    const sent = await clickAndNavigate(staff, 'button[name="intent"][value="submit"]');
    assert.equal(sent.status(), 200, `submitting the campaign: ${sent.status()} ${await texts(staff, '.field__error')}`);
    assert.equal(pathOf(staff), draft);
    assert.equal((await staff.textContent('.flash--success')).trim(), TR.campaignSubmitted);

    // The review: the issuer's facts recorded (the committee cannot approve without them), then
    // on to the committee.
    const review = `/dashboard/startups/${id}/campaign`;
    await staff.goto(server.url(review));
    await staff.selectOption('#legal_form', 'anonim');
    await fillById(staff, { registry_number: 'İzmir 98765', assets: '2.000.000', revenue: '1.440.000', raised_12m: '0' });
    await clickAndNavigate(staff, `form[action="/dashboard/startups/${id}/issuer"] button[type=submit]`);
    assert.ok((await texts(staff, 'main .flash--success')).includes(TR.issuerPasses), 'the issuer passes every check');
    await clickAndNavigate(staff, 'button[name="intent"][value="committee"]');
    assert.equal(pathOf(staff), review);
    assert.ok((await staff.textContent('.campaign-status')).includes(TR.inCommittee));
    assertOnlyLoopback(adminContext);
    await adminContext.close();
  });

  it('two of the three committee members approve the campaign: the startup is published', async () => {
    assert.ok(journey.startupId, 'needs the startup of the first test');
    const memberContext = await newContext(browser, { locale: 'tr-TR' });
    const member = await memberContext.newPage();
    member.on('pageerror', (err) => errors.push(`committee: ${err}`));
    const signedIn = await signIn(member, server, MEMBER.email, MEMBER.password);
    assert.equal(signedIn.status(), 200, `committee member sign-in: ${signedIn.status()}`);
    // Each votes from the committee's list: the superadmin, then the member, whose approval is
    // the second of three.
    for (const page of [staff, member]) {
      await page.goto(server.url('/dashboard/committee'));
      const response = await clickAndNavigate(page, `main table.table tbody tr:has-text("${STARTUP.name}") a`);
      assert.equal(response.status(), 200);
      journey.versionId = /^\/dashboard\/committee\/(\d+)$/.exec(pathOf(page))?.[1];
      assert.ok(journey.versionId, `the version's page: ${page.url()}`);
      await page.fill('#note', 'Uygun.');
      const voted = await clickAndNavigate(page, 'button[name="vote"][value="approve"]');
      assert.equal(voted.status(), 200);
      assert.equal((await page.textContent('main p.muted')).trim(), TR.voted);
      await openTable(staff, '/dashboard/startups');
      const status = (await islandRows(staff)).find((r) => r.id === String(journey.startupId)).cells[5];
      assert.equal(status, page === staff ? TR.draft : TR.published, 'published with the second approval, not before');
    }
    await staff.goto(server.url(`/dashboard/startups/${journey.startupId}/campaign`));
    assert.ok((await staff.textContent('.campaign-status')).includes(TR.campaignApproved));
    // The editor now offers the box, ticked.
    await staff.goto(server.url(`/dashboard/startups/${journey.startupId}`));
    assert.equal(await staff.isChecked('#published'), true);
    assertOnlyLoopback(memberContext);
    await memberContext.close();
  });

  it('a new investor sees the startup in both languages, is MKK-verified by the superadmin, requests 100.000 TL', async () => {
    assert.ok(journey.startupId, 'needs the startup of the first test');
    investorContext = await newContext(browser, { locale: 'tr-TR' });
    investor = await investorContext.newPage();
    investor.on('pageerror', (err) => errors.push(`investor: ${err}`));
    investorEmail = uniqueEmail('investor');
    await join(investor, { server, sink }, investorEmail);

    // Investors see published startups only: this one is.
    let response = await investor.goto(server.url(`/startups/${STARTUP.slug}`));
    assert.equal(response.status(), 200);
    assert.equal((await investor.textContent('h1')).trim(), STARTUP.name);
    assert.equal((await investor.textContent('p.lead')).trim(), STARTUP.text.description_tr);
    assert.equal((await investor.textContent('#executive-summary-title')).trim(), TR.executiveSummary);
    assert.equal((await investor.textContent('#executive-summary .prose strong')).trim(), 'Güçlü büyüme');
    assert.deepEqual(await texts(investor, '#executive-summary .prose li'), ['İlk müşteri: Bursa', 'Aylık gelir: 120.000 TL']);
    assert.equal((await investor.textContent('#risks .prose em')).trim(), 'gecikmeler');
    assert.ok(!(await investor.textContent('main')).includes('Strong growth'), 'no English on the Turkish page');
    assert.deepEqual(await texts(investor, '#founders-title + ul li strong'), ['Ayşe Kaya', 'Mehmet Demir']);
    assert.equal(await investor.locator(`a[href="/investmentFlow?startup=${STARTUP.slug}"]`).count(), 1, 'open for investment');

    response = await investor.goto(server.url(`/startups/${STARTUP.slug}?lang=en`));
    assert.equal(response.status(), 200);
    assert.equal((await investor.textContent('p.lead')).trim(), STARTUP.text.description_en);
    assert.equal((await investor.textContent('#executive-summary-title')).trim(), EN.executiveSummary);
    assert.equal((await investor.textContent('#executive-summary .prose strong')).trim(), 'Strong growth');
    assert.deepEqual(await texts(investor, '#executive-summary .prose li'), ['First customer: Bursa', 'Monthly revenue: 120,000 TL']);
    assert.equal((await investor.textContent('#risks .prose em')).trim(), 'delays');
    assert.ok(!(await investor.textContent('main')).includes('Güçlü büyüme'), 'no Turkish on the English page');
    // Back to Turkish (?lang= is remembered).
    await investor.goto(server.url(`/startups/${STARTUP.slug}?lang=tr`));
    assert.equal((await investor.textContent('#executive-summary .prose strong')).trim(), 'Güçlü büyüme');

    // MKK, then the request with the amount island once staff verified the data.
    await investor.goto(server.url('/mkk'));
    await investor.selectOption('#investor_type', 'individual');
    await investor.selectOption('#id_type', 'tckn');
    await investor.check('#citizen-yes');
    await fillById(investor, { ...MKK, email: investorEmail });
    const mkk = await clickAndNavigate(investor, 'form[action="/mkk"] button[type=submit]');
    assert.equal(mkk.status(), 200, `MKK form: ${mkk.status()} at ${investor.url()}`);
    assert.equal(await investor.locator('.field__error').count(), 0, `MKK form errors: ${await texts(investor, '.field__error')}`);

    // Submitted is not enough: the amount page waits for staff's review (409: nothing for the
    // member to fix).
    response = await investor.goto(server.url(`/investmentFlow?startup=${STARTUP.slug}`));
    assert.equal(response.status(), 409);
    assert.ok((await investor.textContent('main')).includes(TR.mkkVerifying), 'the data is being verified');
    assert.equal(await investor.locator(INVEST).count(), 0, 'no amount island before the review');

    // The superadmin verifies the details with the member's row on /dashboard/users.
    await openTable(staff, '/dashboard/users');
    const member = (await islandRows(staff)).find((r) => r.cells[0] === investorEmail);
    assert.ok(member, `${investorEmail} is on /dashboard/users`);
    journey.investorId = Number(member.id);
    assert.equal(member.cells[3], TR.mkkWaiting, 'the MKK column says it waits for review');
    const memberRow = `${ISLAND} tr[data-row="${member.id}"]`;
    const verify = `${memberRow} form[action="/dashboard/users/${member.id}/mkk"] button[name="decision"][value="verified"]`;
    await openRowMenu(staff, memberRow);
    assert.equal((await staff.textContent(verify)).trim(), TR.mkkVerify);
    const verified = await clickAndNavigate(staff, verify);
    assert.equal(verified.status(), 200);
    assert.equal(pathOf(staff), '/dashboard/users', 'back to the list');
    assert.equal((await staff.textContent('.flash--success')).trim(), TR.saved);
    await waitForIsland(staff, 'staff-table');
    await staff.waitForSelector(`${ISLAND} .staff-table__count`);
    const after = (await islandRows(staff)).find((r) => r.id === member.id);
    assert.equal(after.cells[3], TR.mkkVerified);
    assert.equal(await staff.locator(verify).count(), 0, 'nothing left to review');
    await investor.goto(server.url('/mkk'));
    assert.equal(await investor.locator('.mkk-status--verified').count(), 1, 'the investor sees the data verified');

    // The round's information form, which a request needs opened, is linked on the startup's
    // page (the terms card).
    await openInformationForm(investor, server, STARTUP.slug);
    await investor.goto(server.url(`/investmentFlow?startup=${STARTUP.slug}`));
    await waitForIsland(investor, 'investment');
    assert.ok(!(await investor.textContent('main')).includes(TR.mkkVerifying));
    await investor.check('#quick-100000');
    await investor.check('#risk');
    const [created] = await Promise.all([
      investor.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/investmentRequests'),
      investor.click(`${INVEST} form.investment-form button[type="submit"]`),
    ]);
    assert.equal(created.status(), 201, `POST /api/investmentRequests: ${created.status()}`);
    await investor.waitForSelector(`${INVEST} dialog.modal[open]`);

    await investor.goto(server.url('/pendingInvestments'));
    const cards = await texts(investor, 'article.request-card');
    assert.equal(cards.length, 1, 'one pending request');
    assert.ok(cards[0].includes(STARTUP.name) && cards[0].includes('100.000 TL'), cards[0]);
    assertOnlyLoopback(investorContext);
  });

  it('the superadmin approves the request on /dashboard/investments; its history lists the approval', async () => {
    assert.ok(investorEmail, 'needs the request of the previous test');
    await openTable(staff, '/dashboard/investments');
    const mine = (await islandRows(staff)).filter((r) => r.cells[1] === investorEmail);
    assert.equal(mine.length, 1, `one request from ${investorEmail}`);
    journey.requestId = Number(mine[0].id);
    assert.deepEqual(mine[0].cells.slice(0, 5), [mine[0].id, investorEmail, STARTUP.name, '100.000 TL', TR.submitted]);
    const row = `${ISLAND} tr[data-row="${journey.requestId}"]`;
    assert.equal(await staff.locator(`${row} a[href="/dashboard/investments/${journey.requestId}"]`).count(), 1, 'a link to its history');
    await moveRequest('approved', TR.approved);
    for (const to of ['paid', 'fee_paid', 'funded', 'allocated']) {
      assert.equal(await staff.locator(`${row} button[name="to"][value="${to}"]`).count(), 0, `staff cannot mark it ${to}`);
    }

    const history = await requestHistory();
    assert.ok((await staff.textContent('h1')).includes(`#${journey.requestId}`));
    const approval = history.find((cells) => cells[1] === TR.approved);
    assert.ok(approval, `the history lists the approval: ${JSON.stringify(history)}`);
    assert.equal(approval[3], SUPER.email, 'by the superadmin');
    assert.match(approval[0], /^\d{2}\.\d{2}\.\d{4} \d{2}:\d{2}$/);
    assert.equal(history.at(-1), approval, 'the latest move');
    assertOnlyLoopback(staffContext);
  });

  it('the investor pays the fee with the sandbox card and gets the escrow transfer details', async () => {
    assert.ok(journey.requestId, 'needs the approved request');
    await investor.goto(server.url(`/invFlow?request=${journey.requestId}`));
    await waitForIsland(investor, 'card-payment');
    await investor.fill('#holder', 'Ayşe Yılmaz');
    await investor.locator('#number').pressSequentially('4242424242424242');
    assert.equal(await investor.inputValue('#number'), '4242 4242 4242 4242');
    await investor.fill('#month', '12');
    await investor.fill('#year', '2030');
    await investor.fill('#cvv', '123');
    const posted = await clickAndNavigate(investor, `${CARD} form button[type="submit"]`);
    assert.equal(posted.status(), 200);
    assert.match(pathOf(investor), /^\/sandbox\/3ds\/[0-9a-f]+$/);
    await investor.fill('#code', '123456');
    await clickAndNavigate(investor, 'button[name="action"][value="approve"]');
    assert.equal(pathOf(investor), '/invFlow');
    assert.equal((await investor.textContent('h1')).trim(), TR.bankTitle);

    // The payer is the investor as verified: their name shown, not typed.
    assert.equal(await investor.locator('#payer_name').count(), 0, 'no payer name field');
    assert.ok((await investor.textContent('form[action="/invFlow/bank"]')).includes(`${MKK.first_name} ${MKK.last_name}`));
    await fillPayer(investor);
    await clickAndNavigate(investor, 'form[action="/invFlow/bank"] button[type=submit]');
    assert.equal(pathOf(investor), '/paymentSuccess');
    assert.equal((await investor.textContent('h1')).trim(), TR.successTitle);
    journey.reference = (await investor.textContent('.transfer .reference')).trim();
    assert.match(journey.reference, new RegExp(`^ORT${String(journey.requestId).padStart(6, '0')}[0-9A-F]{6}$`));
    assert.ok((await investor.textContent('dl.transfer')).includes('100.000 TL'), 'the amount to transfer');
    assertOnlyLoopback(investorContext);
  });

  it('the superadmin imports the bank statement with the transfer (funded), then schedules the round’s early close', async () => {
    assert.ok(journey.reference, 'needs the payment of the previous test');
    await openTable(staff, '/dashboard/takasbank');
    let transfer = (await islandRows(staff)).find((r) => r.id === String(journey.requestId));
    assert.ok(transfer, 'the expected transfer is listed');
    // The last column is what was returned (nothing yet).
    assert.deepEqual(transfer.cells, [journey.reference, investorEmail, STARTUP.name, '100.000 TL', TR.waiting, '', '', '']);
    assert.equal(
      await staff.locator(`${ISLAND} tr[data-row="${journey.requestId}"] button[name="received"]`).count(),
      0,
      'no button records money: only the bank statement does',
    );

    // The clearing bank's statement: the investor's transfer, booked today, with their
    // reference, the exact amount, from their own account in their verified name.
    const xml = camt053([
      { reference: journey.reference, amount: 100_000, name: `${MKK.first_name} ${MKK.last_name}`, iban: PAYER.iban, date: journey.today },
    ]);
    const file = { name: 'ekstre.xml', mimeType: 'application/xml', buffer: Buffer.from(xml) };
    journey.statementSha = createHash('sha256').update(file.buffer).digest('hex');
    let response = await staff.goto(server.url('/dashboard/takasbank/statements'));
    assert.equal(response.status(), 200);
    assert.equal((await staff.textContent('h1')).trim(), TR.statementsTitle);
    const importButton = 'form[action="/dashboard/takasbank/statements"] button[type=submit]';
    assert.equal((await staff.textContent(importButton)).trim(), TR.statementImport);
    await staff.setInputFiles('#statement', file);
    response = await clickAndNavigate(staff, importButton);
    assert.equal(response.status(), 200);
    assert.equal(pathOf(staff), '/dashboard/takasbank/statements');
    assert.equal((await staff.textContent('.flash--success')).trim(), TR.statementMatched);
    // Its line: booked today, the amount, the payer, the remittance, matched to the request.
    const lines = await staff.$$eval('main table.table tbody tr[data-row]', (rows) =>
      rows.map((tr) => ({ id: tr.dataset.row, cells: [...tr.cells].slice(0, -1).map((td) => td.textContent.trim()) })),
    );
    const ours = lines.filter((l) => l.cells[4] === journey.reference);
    assert.equal(ours.length, 1, `one line with the reference: ${JSON.stringify(lines)}`);
    journey.lineId = Number(ours[0].id);
    const [year, month, day] = journey.today.split('-');
    assert.deepEqual(ours[0].cells, [
      `${day}.${month}.${year}`,
      '100.000 TL',
      `${MKK.first_name} ${MKK.last_name}`,
      // The IBAN grouped by four, as people read it.
      PAYER.iban.replace(/\s/g, '').replace(/(.{4})(?=.)/g, '$1 '),
      journey.reference,
      TR.lineMatched,
      String(journey.requestId),
      '',
    ]);
    assert.equal(await staff.locator('main .flash--error').count(), 0, 'nothing flagged');

    // The same file again is refused, and records nothing twice.
    await staff.setInputFiles('#statement', file);
    response = await clickAndNavigate(staff, importButton);
    assert.equal(response.status(), 422);
    assert.equal((await staff.textContent('#statement-error')).trim(), TR.statementAgain);

    await openTable(staff, '/dashboard/takasbank');
    transfer = (await islandRows(staff)).find((r) => r.id === String(journey.requestId));
    assert.deepEqual(transfer.cells.slice(4), [TR.received, '100.000 TL', `${day}.${month}.${year}`, ''], 'received, the amount matches, nothing returned');

    // The matching statement line made the request funded: no button did it.
    await openTable(staff, '/dashboard/investments');
    assert.equal((await requestRow())[4], TR.funded);

    // Escrow holds the goal: the superadmin schedules the round's early close on its
    // confirmation page, the startup's name typed to confirm.
    const round = await staff.goto(server.url(`/dashboard/rounds/${journey.startupId}`));
    assert.equal(round.status(), 200);
    const confirm = await clickAndNavigate(staff, `a[href="/dashboard/rounds/${journey.startupId}/close"]`);
    assert.equal(confirm.status(), 200);
    const facts = await staff.$$eval('main dl.facts dd', (dds) => dds.map((dd) => dd.textContent.trim()));
    assert.deepEqual(facts.slice(0, 2), ['100.000 TL', '100.000 TL'], 'the goal, and as much in escrow');
    await staff.fill('#name_schedule', STARTUP.name);
    const closed = await clickAndNavigate(staff, 'form:has(input[name="intent"][value="schedule"]) button[type=submit]');
    assert.equal(closed.status(), 200);
    assert.equal(pathOf(staff), `/dashboard/rounds/${journey.startupId}`);
    assert.equal((await staff.textContent('.flash--success')).trim(), TR.closeScheduled);
    // The close waits for the request's cancellation window: the server's clock is moved a few
    // seconds past the time it was scheduled for, and the close job allocates the request.
    const at = sqliteValue(server, "SELECT CAST(strftime('%s', close_scheduled_at) AS INTEGER) FROM startups WHERE id = ?", [journey.startupId]);
    assert.ok(at > Date.now() / 1000, `scheduled after the cancellation window: ${at}`);
    await writeFile(clockFile, String(Math.ceil(at - Date.now() / 1000) + 5));
    for (let i = 0; ; i += 1) {
      await openTable(staff, '/dashboard/investments');
      if ((await requestRow())[4] === TR.allocated) break;
      assert.ok(i < 40, `the close job allocates the request (status: ${(await requestRow())[4]})`);
      await new Promise((r) => setTimeout(r, 500));
    }
    assert.equal(
      await staff.locator(`${ISLAND} tr[data-row="${journey.requestId}"] button[name="to"]`).count(),
      0,
      'an allocated request has no moves left',
    );
    const history = await requestHistory();
    assert.deepEqual(
      history.map((cells) => cells[1]),
      [TR.submitted, TR.approved, TR.feePaid, TR.funded, TR.funded, TR.allocated],
      `the history follows the money, in order: ${JSON.stringify(history)}`,
    );
    // The scheduled close is noted on the request (funded still), and says when.
    assert.match(history[4][2], /^the round closes early on /, `the scheduled close: ${JSON.stringify(history[4])}`);
    assert.deepEqual(
      history.filter((cells) => cells[3] === SUPER.email).map((cells) => cells[1]),
      [TR.approved, TR.funded, TR.funded],
      'the superadmin approved, imported the statement and scheduled the close; the fee and the close moved the rest',
    );
    // Back to the present for the tests after this one.
    await writeFile(clockFile, '0');
    assertOnlyLoopback(staffContext);
  });

  it('the allocated investment is listed on the investor’s /userInvestments', async () => {
    assert.ok(journey.requestId, 'needs the allocated request');
    const response = await investor.goto(server.url('/userInvestments'));
    assert.equal(response.status(), 200);
    const rows = await investor.$$eval('table.table tbody tr', (trs) =>
      trs.map((tr) => [...tr.cells].map((td) => td.textContent.trim())),
    );
    assert.equal(rows.length, 1, 'one holding');
    // Startup, allocated on, amount, share of the round (all of it: the only investor).
    assert.equal(rows[0][0], STARTUP.name);
    assert.equal(rows[0][2], '100.000 TL');
    assert.equal(rows[0][3], '%100,00');
    assert.equal(await investor.locator(`table.table a[href="/startups/${STARTUP.slug}"]`).count(), 1);
    assert.ok((await investor.textContent('dl.portfolio-totals dd')).includes('100.000 TL'), 'the total');
    await investor.goto(server.url('/pendingInvestments'));
    assert.equal(await investor.locator('article.request-card').count(), 0, 'no longer pending');
    assertOnlyLoopback(investorContext);
  });

  it('the audit log shows every step: the startup and its campaign, mkk.review, request.status, the statement and receipt, the close', async () => {
    assert.ok(journey.requestId && journey.lineId && journey.versionId, 'needs the journey');
    await openTable(staff, '/dashboard/audit');
    // Columns: date, by, action, subject, before, after; newest first. The journey's rows: its
    // startup, its campaign version (the votes), its investor (the MKK review), its statement
    // file (by SHA-256), its request.
    const subjects = [
      `startup:${journey.startupId}`,
      `campaign_version:${journey.versionId}`,
      `user:${journey.investorId}`,
      journey.statementSha,
      `request:${journey.requestId}`,
    ];
    const rows = (await islandRows(staff)).map((r) => r.cells);
    const ours = rows
      .filter((c) => subjects.includes(c[3]))
      .reverse()
      .map(([, by, action, , before, after]) => ({ by, action, before, after }));
    // What changes from run to run is left out: the startup's summary (checked below), the
    // version's id and the time the close was scheduled for.
    const shown = ({ action, before, after }) => {
      if (action === 'startup.create') return [action, before, ''];
      if (action === 'campaign.submit') return [action, before, after.replace(/#\d+/, '#…')];
      if (action === 'round.close.scheduled') return [action, before, after.replace(/ for .+$/, ' for …')];
      return [action, before, after];
    };
    // The receipt names where the figure came from: the statement (its Id) and the line.
    const amount = `${100_000 * 100} on ${journey.today} (Funded, statement E2E line ${journey.lineId})`;
    const issuer =
      'Issuer { legal_form: Some("anonim"), registry_number: "İzmir 98765", assets_kurus: Some(200000000), ' +
      'revenue_kurus: Some(144000000), raised_last_12m_kurus: Some(0) }';
    assert.deepEqual(
      ours.map(shown),
      [
        ['startup.create', '', ''],
        ['campaign.submit', '', 'version #… submitted'],
        ['issuer.check', '', issuer],
        ['campaign.review', 'submitted', 'version #1 committee'],
        ['committee.vote', '', 'approve Uygun.'],
        ['committee.vote', '', 'approve Uygun.'],
        // The second approval decides (in the same transaction as the vote).
        ['campaign.decided', '', 'version #1 approved'],
        ['mkk.review', 'submitted', 'verified'],
        ['request.status', 'submitted', 'approved'],
        // The import records each line's receipt, then itself (one transaction).
        ['transfer.received', 'fee_paid', amount],
        ['statement.import', '', '1 lines: 1 funded, 0 returned, 0 flagged'],
        // The close job itself, no one's action, is not audited.
        ['round.close.scheduled', '', 'close scheduled for …'],
      ],
      `the audit log, oldest first: ${JSON.stringify(ours)}`,
    );
    assert.deepEqual(
      ours.map((r) => r.by),
      [
        ...[ADMIN.email, ADMIN.email, ADMIN.email, ADMIN.email],
        ...[SUPER.email, MEMBER.email, MEMBER.email],
        ...[SUPER.email, SUPER.email, SUPER.email, SUPER.email, SUPER.email],
      ],
      'the admin created the startup and brought its campaign to the committee, two members approved it, ' +
        'the superadmin verified the investor, moved the request, imported the statement and scheduled the close',
    );
    const create = ours[0].after;
    assert.ok(
      create.startsWith(`${STARTUP.name} | ${STARTUP.slug} | goal 100000 | investment `) && create.endsWith('| draft'),
      create,
    );
    assertOnlyLoopback(staffContext);
  });

  it('the users table island sorts, searches by Turkish case rules, filters and exports CSV without a reload', async () => {
    assert.ok(investorEmail, 'needs the investor of the second test');
    // Two more investors with Turkish capitals (dotless I, dotted İ).
    for (const person of [ISIL, ISMAIL]) {
      const context = await newContext(browser, { locale: 'tr-TR' });
      await join(await context.newPage(), { server, sink }, uniqueEmail('member'), { person });
      assertOnlyLoopback(context);
      await context.close();
    }

    await openTable(staff, '/dashboard/users');
    const seen = watch(staff);
    await markDocument(staff);
    // The demo's investors (the investors of its rounds) are listed too; the checks below are
    // on this file's users, in the order the island shows them among everyone.
    const isDemo = (email) => email.endsWith('@demo.ortak.local');
    const names = async () => (await islandRows(staff)).map((r) => r.cells[1]);
    const listed = await (await staffContext.request.get(server.url('/dashboard/users.json'))).json();
    const demo = listed.rows.filter((r) => isDemo(r.cells[0])).length;
    assert.ok(demo > 0, 'the demo rounds have investors');
    const total = 7 + demo;
    assert.equal(listed.rows.length, total);
    const rowCount = (n) =>
      staff.waitForFunction(([sel, m]) => document.querySelectorAll(`${sel} table tbody tr[data-row]`).length === m, [ISLAND, n]);
    // Narrowed to this file's users first (every address at example.com; the island searches
    // every cell), so that each of them is on the island's first page.
    await staff.fill('#staff-table-q', 'example.com');
    await rowCount(7);
    // The superadmin, the admin who created the startup and the two committee members are all
    // "Ortak Admin".
    const all = ['Ayşe Yılmaz', 'Işıl Çelik', 'İsmail Öztürk', 'Ortak Admin', 'Ortak Admin', 'Ortak Admin', 'Ortak Admin'];
    assert.deepEqual([...(await names())].sort(), [...all].sort(), 'every user at example.com');
    assert.equal((await staff.textContent(`${ISLAND} .staff-table__count`)).trim(), TR.shown(7, total));
    assert.deepEqual(await texts(staff, `${ISLAND} th button.th-sort`), TR.usersColumns);
    assert.equal(await staff.locator(`${ISLAND} th[aria-sort]`).count(), 0, 'unsorted at first');

    // (a) Sorting by name: ascending, then descending; aria-sort on that <th> only.
    const nameHeader = staff.locator(`${ISLAND} th`, { has: staff.locator('button.th-sort', { hasText: /^Ad$/ }) });
    await nameHeader.locator('button').click();
    await staff.waitForSelector(`${ISLAND} th[aria-sort="ascending"]`);
    assert.deepEqual(await names(), all);
    assert.equal(await nameHeader.getAttribute('aria-sort'), 'ascending');
    assert.equal(await staff.locator(`${ISLAND} th[aria-sort]`).count(), 1);
    await nameHeader.locator('button').click();
    await staff.waitForSelector(`${ISLAND} th[aria-sort="descending"]`);
    assert.deepEqual(await names(), [...all].reverse());
    assert.equal(await nameHeader.getAttribute('aria-sort'), 'descending');

    // (b) Search by Turkish case rules: IŞIL finds Işıl, İSMAİL and ismail find İsmail, ısmaıl nothing.
    const searchFor = async (q, expected) => {
      await staff.fill('#staff-table-q', q);
      await rowCount(expected.length);
      assert.deepEqual(await names(), expected, `search "${q}"`);
    };
    await searchFor('IŞIL', ['Işıl Çelik']);
    await searchFor('İSMAİL', ['İsmail Öztürk']);
    await searchFor('ismail', ['İsmail Öztürk']);
    await staff.fill('#staff-table-q', 'ısmaıl');
    await staff.waitForSelector(`${ISLAND} p.empty-state`);
    assert.equal((await staff.textContent(`${ISLAND} p.empty-state`)).trim(), TR.empty);
    assert.equal((await staff.textContent(`${ISLAND} .staff-table__count`)).trim(), TR.shown(0, total));
    await searchFor('example.com', [...all].reverse());

    // (c) The role filter: its options are the column's values.
    const roleFilter = '#staff-table-f2';
    assert.equal((await staff.textContent(`label[for="staff-table-f2"]`)).trim(), 'Rol');
    assert.deepEqual(await texts(staff, `${roleFilter} option`), [TR.all, TR.superadmin, TR.investor, TR.admin]);
    await staff.selectOption(roleFilter, TR.superadmin);
    await staff.waitForFunction((sel) => document.querySelectorAll(`${sel} table tbody tr[data-row]`).length === 1, ISLAND);
    assert.deepEqual(await names(), ['Ortak Admin']);
    await staff.selectOption(roleFilter, TR.investor);
    await rowCount(3);
    assert.deepEqual(await names(), ['İsmail Öztürk', 'Işıl Çelik', 'Ayşe Yılmaz'], 'filtered, still sorted');
    assert.equal((await staff.textContent(`${ISLAND} .staff-table__count`)).trim(), TR.shown(3, total));

    // (d) CSV of the rows shown (filtered, in the shown order), made in the browser.
    const shown = (await islandRows(staff)).map((r) => r.cells);
    const [download] = await Promise.all([staff.waitForEvent('download'), staff.click(`${ISLAND} button[data-action="export"]`)]);
    assert.equal(download.suggestedFilename(), 'ortak-users.csv');
    const csv = await readFile(await download.path(), 'utf8');
    assert.ok(csv.startsWith('\uFEFF'), 'a UTF-8 BOM, for spreadsheets');
    const [header, ...lines] = parseCsv(csv.slice(1));
    assert.deepEqual(header, TR.usersColumns);
    assert.deepEqual(lines, shown);
    assert.ok(lines.every((cells) => cells[2] === TR.investor));
    assert.ok(lines.some((cells) => cells[0] === investorEmail && cells[1] === 'Ayşe Yılmaz'));

    assert.equal(seen.documents, 0, 'no page load');
    assert.deepEqual(seen.posts, [], 'nothing posted');
    assert.equal(await sameDocument(staff), true, 'the same document throughout');
    assertOnlyLoopback(staffContext);

    // Without JavaScript: the server's table, and its GET search by the same rules.
    const plain = await newContext(browser, { locale: 'tr-TR', javaScriptEnabled: false });
    try {
      const page = await plain.newPage();
      const signedIn = await signIn(page, server, SUPER.email, SUPER.password);
      assert.equal(signedIn.status(), 200);
      const response = await page.goto(server.url('/dashboard/users'));
      assert.equal(response.status(), 200);
      assert.equal(await page.locator(`${ISLAND}[data-island-ready]`).count(), 0, 'no island');
      assert.equal(await page.locator('#staff-table-q').count(), 0);
      assert.deepEqual(await texts(page, `${ISLAND} table thead th`), [...TR.usersColumns, 'İşlemler']);
      // Newest first, 50 to a page: this file's investors are on the first page.
      const serverRows = await page.$$eval(`${ISLAND} table tbody tr[data-row]`, (trs) =>
        trs.map((tr) => [tr.cells[0].textContent.trim(), tr.cells[1].textContent.trim()]),
      );
      const serverNames = serverRows.filter(([email]) => !isDemo(email)).map(([, name]) => name);
      assert.deepEqual(serverNames.slice(0, 3).sort(), ['Ayşe Yılmaz', 'Işıl Çelik', 'İsmail Öztürk'].sort());
      const firstPage = Math.min(total, 50);
      assert.equal(serverRows.length, firstPage);
      assert.equal(await page.locator(`${ISLAND} a[href^="/dashboard/users/"]`).count(), firstPage, 'each row links to its member');
      await page.fill('#staff-q', 'IŞIL');
      await clickAndNavigate(page, `${ISLAND} form.filters button[type="submit"]`);
      assert.equal(new URL(page.url()).searchParams.get('q'), 'IŞIL');
      assert.deepEqual(
        await page.$$eval(`${ISLAND} table tbody tr[data-row]`, (trs) => trs.map((tr) => tr.cells[1].textContent.trim())),
        ['Işıl Çelik'],
      );
      assertOnlyLoopback(plain);
    } finally {
      await plain.close();
    }

    assert.deepEqual(errors, [], 'no script error on any page');
  });
});
