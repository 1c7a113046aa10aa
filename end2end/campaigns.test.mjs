// A campaign as the platform runs it (issue 27), one journey in a real browser (Turkish UI):
//
//   1. staff create a startup in /dashboard/startups/new: no "published" box (a note says the
//      committee publishes), saved unpublished, not on the catalogue;
//   2. staff invite a founder by address (the founders panel on the staff's startup page); the
//      founder signs up with that address, follows the mailed link, and finds the startup on
//      /vc-dashboard;
//   3. the founder drafts the campaign in /vc-dashboard/startups/{id}/campaign: the draft is
//      saved, a submission whose use of funds does not add up to the target is refused (422, the
//      message beside the field, everything typed kept), then the corrected one is submitted
//      and the editor is locked while it is reviewed;
//   4. staff open the review (/dashboard/startups/{id}/campaign): the issuer checks fail until
//      staff record the issuer's facts; staff comment on the offer and pass the version to the
//      investment committee;
//   5. the committee (three admins `ortak create-admin` made before the server started, seated
//      in the database; the demo's members step down) sees it on /dashboard/committee; the first
//      approval leaves it unpublished, the second (two of three) approves it: the startup is
//      published, its information form generated;
//   6. an investor with verified MKK data reads the startup's page: the terms card with the
//      offer, the use of funds, the key figures, the pitch video and the information form. The
//      amount page refuses a request until the form was opened; the investor opens it from the
//      terms card, and the request is sent.
//
// One server for the file (fresh data folder, demo content, mail to a local SMTP sink). The
// tests run in order and build on each other. Nothing may leave 127.0.0.1.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertOnlyLoopback, clickAndNavigate, launchBrowser, newContext, startServer, uniqueEmail, waitForIsland } from './helpers.mjs';
import {
  addDays,
  campaignFields,
  fillById,
  fillCampaign,
  istanbulToday,
  join,
  MKK,
  pathOf,
  seatCommittee,
  signIn,
  texts,
  verifyMkk,
} from './journeys.mjs';
import { startSmtpSink } from './smtp.mjs';

const STAFF = { email: 'staff@example.com', password: 'parola-1234' };
/** The investment committee: three admins. */
const COMMITTEE = ['komite-a@example.com', 'komite-b@example.com', 'komite-c@example.com'].map((email) => ({
  email,
  password: 'parola-5678',
}));

const STARTUP = {
  name: 'Lale Lojistik',
  slug: 'lale-lojistik',
  sector: 'mobility',
  stage: 'seed',
  city: 'Kocaeli',
  goal: '1.000.000',
  description_tr: 'Kısa mesafe teslimat için elektrikli kargo bisikletleri.',
  description_en: 'Electric cargo bikes for last-mile delivery.',
};

/** The campaign the founder writes: 1.000.000 TL, from today for 30 days. */
const today = istanbulToday();
const CAMPAIGN = campaignFields({
  goal: 1_000_000,
  startsOn: today,
  endsOn: addDays(today, 29),
  text: {
    description_tr: 'Şehir içi teslimatı elektrikli kargo bisikletleriyle yapan lojistik girişimi.',
    description_en: 'A logistics startup delivering in cities with electric cargo bikes.',
    's_executive-summary_tr': '**Hızlı büyüme**: üç şehirde 40 bisiklet.',
    's_executive-summary_en': '**Fast growth**: 40 bikes in three cities.',
    s_risks_tr: 'Belediye düzenlemeleri değişebilir.',
    s_risks_en: 'City regulations may change.',
  },
});

const TR = {
  publishNote: 'Bir kampanya, yatırım komitesi bir sürümünü onayladığında yayımlanır.',
  saved: 'Kaydedildi.',
  unpublished: 'Taslak',
  published: 'Yayında',
  draftSaved: 'Taslak kaydedildi.',
  submitted: 'Gönderildi: ekibimiz inceleyecek, ardından yatırım komitesi karar verecek.',
  fundsSum: 'Fonun kullanımı toplamı hedefe eşit olmalıdır.',
  formErrors: 'Lütfen işaretli alanları düzeltin.',
  underReview: 'ekibimizin incelemesinde',
  inCommittee: 'yatırım komitesinde',
  approved: 'onaylandı ve yayında',
  locked: 'Bir sürüm incelemede',
  issuerFails: 'İhraççı bu kontrolleri geçemediği sürece komite bu kampanyayı onaylayamaz:',
  issuerPasses: 'İhraççı tüm kontrolleri geçiyor.',
  cannotApprove: 'İhraççı bir kontrolü geçemediği sürece bu sürüm onaylanamaz.',
  voted: 'Bu sürüm için oy verdiniz.',
  votedApprove: 'Onayladı',
  noVote: 'Oy vermedi',
  termsTitle: 'Teklifin koşulları',
  openForm: 'Talep göndermeden önce bu turun bilgi formunu açın.',
};

/** The error message shown for the field named `name`. */
const errorOf = (page, name) => page.locator('.field', { has: page.locator(`[name="${name}"]`) }).locator('.field__error');

describe('campaigns', () => {
  let server;
  let sink;
  let browser;
  let staffContext;
  let staff;
  const contexts = [];
  const errors = [];
  /** Filled as the journey goes. */
  const journey = { startupId: null, founder: null, versionId: null, investor: null };

  before(async () => {
    sink = await startSmtpSink();
    server = await startServer({
      env: { ORTAK_SMTP_URL: sink.url },
      beforeStart: async ({ run }) => {
        await run(['create-admin', '--create', '--email', STAFF.email, '--password', STAFF.password]);
        for (const member of COMMITTEE) await run(['create-admin', '--create', '--email', member.email, '--password', member.password]);
      },
    });
    seatCommittee(
      server,
      COMMITTEE.map((m) => m.email),
    );
    browser = await launchBrowser();
    staffContext = await newContext(browser, { locale: 'tr-TR' });
    staff = await staffContext.newPage();
    staff.on('pageerror', (err) => errors.push(`staff: ${err}`));
    const signedIn = await signIn(staff, server, STAFF.email, STAFF.password);
    assert.equal(signedIn.status(), 200, `staff sign-in: ${signedIn.status()} at ${staff.url()}`);
  });

  after(async () => {
    for (const c of contexts) await c.close();
    await staffContext?.close();
    await browser?.close();
    await server?.stop();
    await sink?.close();
  });

  /** A new browser context (Turkish), closed after the file. */
  async function open() {
    const context = await newContext(browser, { locale: 'tr-TR' });
    contexts.push(context);
    const page = await context.newPage();
    page.on('pageerror', (err) => errors.push(`${page.url()}: ${err}`));
    return { context, page };
  }

  /** A new investor, signed in, with verified MKK data: { context, page }. */
  async function investor() {
    const { context, page } = await open();
    const email = uniqueEmail('investor');
    await join(page, { server, sink }, email);
    await page.goto(server.url('/mkk'));
    await page.selectOption('#investor_type', 'individual');
    await page.selectOption('#id_type', 'tckn');
    await page.check('#citizen-yes');
    await fillById(page, { ...MKK, email });
    const mkk = await clickAndNavigate(page, 'form[action="/mkk"] button[type=submit]');
    assert.equal(mkk.status(), 200, `MKK form: ${mkk.status()}`);
    assert.equal(await page.locator('.field__error').count(), 0, `MKK form errors: ${await texts(page, '.field__error')}`);
    // Investing needs the data verified, as staff's review does.
    verifyMkk(server, email);
    return { context, page };
  }

  /** The staff list's row of the journey's startup: [name, fund, sector, period, ends, status]. */
  async function staffRow() {
    const list = await (await staffContext.request.get(server.url('/dashboard/startups.json'))).json();
    const row = list.rows.find((r) => String(r.id) === journey.startupId);
    assert.ok(row, `startup ${journey.startupId} is on /dashboard/startups`);
    return row.cells;
  }

  it('staff create the startup: no publish box before the committee approves, saved unpublished', async () => {
    const response = await staff.goto(server.url('/dashboard/startups/new'));
    assert.equal(response.status(), 200);
    assert.equal(await staff.locator('input#published').count(), 0, 'no "published" box');
    assert.ok((await texts(staff, 'form.editor p.muted')).includes(TR.publishNote), 'the note says who publishes');

    await staff.fill('#name', STARTUP.name);
    await staff.selectOption('#sector', STARTUP.sector);
    await staff.selectOption('#fund', { index: 1 });
    await staff.selectOption('#stage', STARTUP.stage);
    await staff.fill('#city', STARTUP.city);
    await staff.fill('#goal', STARTUP.goal);
    await staff.fill('#description_tr', STARTUP.description_tr);
    await staff.fill('#description_en', STARTUP.description_en);
    const saved = await clickAndNavigate(staff, 'button[name="intent"][value="save"]');
    assert.equal(saved.status(), 200, `saving the startup: ${saved.status()} at ${staff.url()}`);
    const [, id] = /^\/dashboard\/startups\/(\d+)$/.exec(pathOf(staff)) ?? [];
    assert.ok(id, `the editor of the saved startup: ${staff.url()}`);
    journey.startupId = id;
    assert.equal((await staff.textContent('.flash--success')).trim(), TR.saved);
    assert.equal(await staff.inputValue('#slug'), STARTUP.slug);
    assert.equal(await staff.locator('input#published').count(), 0, 'still no box: nothing approved');
    assert.equal(await staff.locator(`a[href="/dashboard/startups/${id}/campaign"]`).count(), 1, 'a link to the campaign review');
    assert.equal((await staffRow())[5], TR.unpublished);

    // Not for investors yet: the investor of the journey (verified MKK data, ready to invest)
    // finds no such page.
    journey.investor = await investor();
    const hidden = await journey.investor.page.goto(server.url(`/startups/${STARTUP.slug}`));
    assert.equal(hidden.status(), 404, 'an unpublished startup has no page for investors');
    assertOnlyLoopback(staffContext);
  });

  it('staff invite a founder, who signs up with that address', async () => {
    assert.ok(journey.startupId, 'needs the startup');
    const founderEmail = uniqueEmail('founder');
    // The founders panel is on the staff's startup page.
    await staff.goto(server.url(`/dashboard/startups/${journey.startupId}`));
    const form = `form[action="/dashboard/startups/${journey.startupId}/founders"]`;
    await staff.fill(`${form} [name="founder_email"]`, founderEmail);
    const invited = await clickAndNavigate(staff, `${form} button[type=submit]`);
    assert.equal(invited.status(), 200, `inviting the founder: ${invited.status()} at ${staff.url()}`);
    // The invitation is mailed.
    await sink.waitFor(founderEmail, 'Ortak');

    const { page } = await open();
    await join(page, { server, sink }, founderEmail);
    journey.founder = page;
    // The founder works for the startup now: it is on their /vc-dashboard.
    await page.goto(server.url('/vc-dashboard'));
    const link = `a[href="/vc-dashboard/startups/${journey.startupId}"]`;
    assert.equal((await page.textContent(link)).trim(), STARTUP.name);
    assertOnlyLoopback(staffContext);
  });

  it('the founder drafts the campaign, a wrong use of funds is refused, then it is submitted', async () => {
    const page = journey.founder;
    assert.ok(page, 'needs the founder');
    const editor = `/vc-dashboard/startups/${journey.startupId}/campaign`;
    await page.goto(server.url(`/vc-dashboard/startups/${journey.startupId}`));
    let response = await clickAndNavigate(page, `a[href="${editor}"]`);
    assert.equal(response.status(), 200);
    assert.equal(pathOf(page), editor);

    // Saved as typed, half done: nothing is checked yet.
    await fillCampaign(page, { description_tr: CAMPAIGN.description_tr, goal: CAMPAIGN.goal });
    response = await clickAndNavigate(page, 'button[name="intent"][value="save"]');
    assert.equal(response.status(), 200);
    assert.equal(pathOf(page), editor);
    assert.equal((await page.textContent('.flash--success')).trim(), TR.draftSaved);
    assert.equal(await page.inputValue('[name="description_tr"]'), CAMPAIGN.description_tr);
    assert.equal(await page.inputValue('[name="goal"]'), CAMPAIGN.goal);

    // Submitted with the use of funds 1 TL short of the target: refused, said where.
    await fillCampaign(page, { ...CAMPAIGN, fund_amount_1: '399.999' });
    response = await clickAndNavigate(page, 'button[name="intent"][value="submit"]');
    assert.equal(response.status(), 422);
    assert.equal((await page.textContent('.flash--error[role="alert"]')).trim(), TR.formErrors);
    assert.deepEqual(await texts(page, 'form .field__error'), [TR.fundsSum]);
    assert.equal((await errorOf(page, 'fund_amount_0').textContent()).trim(), TR.fundsSum);
    for (const [name, value] of Object.entries(CAMPAIGN)) {
      if (name !== 'fund_amount_1') assert.equal(await page.inputValue(`[name="${name}"]`), value, `${name} is kept`);
    }

    // Corrected: submitted, and read-only while it is reviewed.
    await page.fill('[name="fund_amount_1"]', CAMPAIGN.fund_amount_1);
    response = await clickAndNavigate(page, 'button[name="intent"][value="submit"]');
    assert.equal(response.status(), 200);
    assert.equal(pathOf(page), editor);
    assert.equal((await page.textContent('.flash--success')).trim(), TR.submitted);
    assert.ok((await page.textContent('.campaign-status')).includes(TR.underReview));
    assert.ok((await page.textContent('main')).includes(TR.locked), 'the editor says it is locked');
    assert.equal(await page.locator('button[name="intent"]').count(), 0, 'nothing to save or submit');
    assert.equal(await page.getAttribute('[name="goal"]', 'readonly'), '');
    assertOnlyLoopback(page.context());
  });

  it('staff record the issuer facts, comment on the offer and pass the version to the committee', async () => {
    const review = `/dashboard/startups/${journey.startupId}/campaign`;
    let response = await staff.goto(server.url(review));
    assert.equal(response.status(), 200);
    assert.ok((await staff.textContent('.campaign-status')).includes(TR.underReview));
    // The version as investors would read it.
    assert.ok((await staff.textContent('main')).includes(CAMPAIGN.description_tr));
    assert.ok((await texts(staff, 'dl.facts dd')).includes('1.000.000 TL'), 'the target');
    // Nothing recorded about the issuer yet: it fails the checks.
    assert.equal((await staff.textContent('main .flash--error p')).trim(), TR.issuerFails);

    await staff.selectOption('#legal_form', 'anonim');
    await fillById(staff, { registry_number: 'Kocaeli 45678', assets: '4.000.000', revenue: '1.200.000', raised_12m: '0' });
    response = await clickAndNavigate(staff, `form[action="/dashboard/startups/${journey.startupId}/issuer"] button[type=submit]`);
    assert.equal(response.status(), 200);
    assert.equal(pathOf(staff), review);
    assert.ok((await texts(staff, 'main .flash--success')).includes(TR.issuerPasses), 'the issuer passes every check');
    assert.equal(await staff.inputValue('#registry_number'), 'Kocaeli 45678');

    // A comment on the offer, and on to the committee.
    await staff.fill('#c_terms', 'Değerleme ve pay fiyatı tutarlı.');
    response = await clickAndNavigate(staff, 'button[name="intent"][value="committee"]');
    assert.equal(response.status(), 200);
    assert.equal(pathOf(staff), review);
    assert.ok((await staff.textContent('.campaign-status')).includes(TR.inCommittee));
    assert.equal(await staff.locator('button[name="intent"]').count(), 0, 'no second review');
    // Still unpublished: only the committee publishes.
    assert.equal((await staffRow())[5], TR.unpublished);
    assertOnlyLoopback(staffContext);
  });

  it('two of the three committee members approve: the startup is published', async () => {
    for (const [i, member] of COMMITTEE.slice(0, 2).entries()) {
      const { context, page } = await open();
      const signedIn = await signIn(page, server, member.email, member.password);
      assert.equal(signedIn.status(), 200, `${member.email} signs in: ${signedIn.status()} at ${page.url()}`);
      let response = await page.goto(server.url('/dashboard/committee'));
      assert.equal(response.status(), 200);
      const row = page.locator('main table.table tbody tr', { hasText: STARTUP.name });
      assert.equal(await row.count(), 1, 'the version waits for the committee');
      // Startup, version, date, approvals, rejections.
      const cells = (await row.locator('td').allTextContents()).map((t) => t.trim());
      assert.deepEqual([cells[0], cells[1], cells[3], cells[4]], [STARTUP.name, '1', String(i), '0']);
      response = await clickAndNavigate(page, `main table.table tbody tr:has-text("${STARTUP.name}") a`);
      assert.equal(response.status(), 200);
      const [, version] = /^\/dashboard\/committee\/(\d+)$/.exec(pathOf(page)) ?? [];
      assert.ok(version, `the version's page: ${page.url()}`);
      journey.versionId = version;
      assert.equal(await page.locator('main .flash--error').count(), 0, 'the issuer passes: nothing stops an approval');
      assert.ok((await page.textContent('main')).includes(CAMPAIGN.description_en), 'the version in both languages');

      await page.fill('#note', i === 0 ? 'Ekip güçlü, koşullar makul.' : 'Uygun.');
      response = await clickAndNavigate(page, 'button[name="vote"][value="approve"]');
      assert.equal(response.status(), 200);
      assert.equal(pathOf(page), `/dashboard/committee/${version}`);
      assert.equal((await page.textContent('main p.muted')).trim(), TR.voted);
      assert.equal(await page.locator('button[name="vote"]').count(), 0, 'one vote per member');
      // The votes table (the one after its heading): member, vote, note.
      const votes = await page.$$eval('main h2 + table.table tbody tr', (trs) => trs.map((tr) => [...tr.cells].map((td) => td.textContent.trim())));
      assert.equal(votes.length, 3, `three members: ${JSON.stringify(votes)}`);
      assert.equal(votes.filter((v) => v[1] === TR.votedApprove).length, i + 1, `${i + 1} approval(s): ${JSON.stringify(votes)}`);
      assert.equal(votes.filter((v) => v[1] === TR.noVote).length, 2 - i);

      if (i === 0) {
        // One of three is no majority.
        assert.equal((await staffRow())[5], TR.unpublished, 'not published after one approval');
      }
      assertOnlyLoopback(context);
    }

    // Two approvals of three: approved and published.
    assert.equal((await staffRow())[5], TR.published);
    await staff.goto(server.url(`/dashboard/startups/${journey.startupId}/campaign`));
    assert.ok((await staff.textContent('.campaign-status')).includes(TR.approved));
    // Nothing left for the third member to vote on.
    const { page } = await open();
    const signedIn = await signIn(page, server, COMMITTEE[2].email, COMMITTEE[2].password);
    assert.equal(signedIn.status(), 200);
    await page.goto(server.url('/dashboard/committee'));
    assert.equal(await page.locator('main table.table tbody tr', { hasText: STARTUP.name }).count(), 0, 'nothing left to vote on');
    assertOnlyLoopback(staffContext);
  });

  it('an investor reads the terms, opens the information form, and sends a request', async () => {
    assert.ok(journey.versionId && journey.investor, 'needs the approved version and the investor');
    const { context, page } = journey.investor;

    // The startup's page shows the approved campaign and its terms.
    const response = await page.goto(server.url(`/startups/${STARTUP.slug}`));
    assert.equal(response.status(), 200);
    assert.equal((await page.textContent('h1')).trim(), STARTUP.name);
    assert.equal((await page.textContent('p.lead')).trim(), CAMPAIGN.description_tr, 'the approved description');
    assert.equal((await page.textContent('#executive-summary .prose strong')).trim(), 'Hızlı büyüme');
    const terms = 'section.terms';
    assert.equal((await page.textContent(`${terms} #terms-title`)).trim(), TR.termsTitle);
    const offer = await page.$$eval(`${terms} dl.terms__offer > div`, (divs) =>
      divs.map((d) => [d.querySelector('dt').textContent.trim(), d.querySelector('dd').textContent.trim()]),
    );
    assert.deepEqual(offer, [
      ['Yatırım öncesi değerleme', '8.000.000 TL'],
      ['Pay başına fiyat', '100 TL'],
      ['Satışa sunulan pay adedi', '12.000'],
      ['Asgari fon tutarı', '800.000 TL'],
      ['Hedef', '1.000.000 TL'],
    ]);
    const funds = await page.$$eval(`${terms} table.terms__funds tbody tr`, (trs) => trs.map((tr) => [...tr.cells].map((td) => td.textContent.trim())));
    assert.deepEqual(funds, [
      ['Ürün geliştirme', '600.000 TL', '%60,00'],
      ['Pazarlama', '400.000 TL', '%40,00'],
    ]);
    assert.ok((await page.textContent(`${terms} h3:has(+ dl.terms__figures)`)).includes('2025'), 'the figures name their period');
    const figures = await page.$$eval(`${terms} dl.terms__figures > div`, (divs) => divs.map((d) => d.querySelector('dd').textContent.trim()));
    assert.deepEqual(figures, ['1.200.000 TL', '-300.000 TL']);
    assert.equal(await page.getAttribute(`${terms} a.terms__video`, 'href'), CAMPAIGN.pitch_video);
    const formLink = `${terms} a[href^="/startups/${STARTUP.slug}/documents/"]`;
    const formHref = await page.getAttribute(formLink, 'href');
    assert.ok(formHref, 'the information form is linked');

    // The amount page refuses a request until the information form was opened.
    const amountPage = `/investmentFlow?startup=${STARTUP.slug}`;
    const send = async () => {
      await page.goto(server.url(amountPage));
      await waitForIsland(page, 'investment');
      assert.equal(await page.getAttribute(`a[href="${formHref}"]`, 'href'), formHref, 'the amount page links the form too');
      await page.check('#quick-100000');
      await page.check('#risk');
      const [posted] = await Promise.all([
        page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/investmentRequests'),
        page.click('[data-island="investment"] form.investment-form button[type="submit"]'),
      ]);
      return posted;
    };
    const refused = await send();
    assert.equal(refused.status(), 422);
    await page.waitForSelector('#risk-error');
    assert.equal((await page.textContent('#risk-error')).trim(), TR.openForm);

    // Opened from the terms card: the PDF.
    await page.goto(server.url(`/startups/${STARTUP.slug}`));
    const [pdf] = await Promise.all([
      page.waitForResponse((r) => new URL(r.url()).pathname === formHref),
      page.click(formLink),
    ]);
    assert.equal(pdf.status(), 200);
    assert.equal(pdf.headers()['content-type'], 'application/pdf');

    const created = await send();
    assert.equal(created.status(), 201, `POST /api/investmentRequests: ${created.status()} ${await created.text()}`);
    await page.waitForSelector('[data-island="investment"] dialog.modal[open]');
    await page.goto(server.url('/pendingInvestments'));
    const cards = await texts(page, 'article.request-card');
    assert.equal(cards.length, 1, 'one pending request');
    assert.ok(cards[0].includes(STARTUP.name) && cards[0].includes('100.000 TL'), cards[0]);
    assertOnlyLoopback(context);
    assert.deepEqual(errors, [], 'no script error on any page');
  });
});
