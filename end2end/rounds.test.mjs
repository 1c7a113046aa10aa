// Rounds end to end in a real browser (issue 13), Turkish UI:
//
//   1. a round that succeeds: two investors commit to Ödeme Köprüsü (3.400.000 TL of its
//      4.000.000 TL already in escrow); one withdraws inside the cancellation window with the
//      button and its countdown; the other is approved, pays the fee by card (3-D Secure), gives
//      the transfer details, and the superadmin imports the clearing bank's statement with the
//      transfer (which records it); escrow now holds the goal, so the superadmin schedules the
//      round's early close on its confirmation page (the startup's name typed to confirm): it
//      waits for every open cancellation window and payment deadline, so the server's clock is
//      moved past them (ORTAK_CLOCK_FILE, as the server's tests do) and the close job allocates;
//      the investor sees the holding with its share on /userInvestments;
//   2. a round that fails: two investors commit to Kalkan Siber and both are funded; far below
//      its goal it cannot close early as a success, so the superadmin terminates it with a
//      reason; both see their request refunded, and the refund list for the clearing bank lists
//      both.
//
// One server for the file (fresh data folder, demo content, a superadmin created before it
// starts, mail to a local SMTP sink). SPK's yearly cap is raised for this file (the amounts here
// go past it; the cap has tests of its own in server/tests/rounds.rs), its clock reads a file the
// test writes, and its jobs run every second. Investors' MKK data is marked verified in the
// database, as staff's review does (the dashboard test clicks the review); each opens the
// round's information form before sending a request, as the server requires.
// Staff's approvals and statement imports are the dashboard's own forms, posted with the page's
// CSRF token (the dashboard test clicks them). Nothing may leave 127.0.0.1.
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { assertOnlyLoopback, clickAndNavigate, launchBrowser, newContext, startServer, uniqueEmail, waitForIsland } from './helpers.mjs';
import {
  camt053,
  fillById,
  fillPayer,
  istanbulToday,
  join,
  MKK,
  openInformationForm,
  pathOf,
  PAYER,
  signIn,
  sqliteValue,
  texts,
  verifyMkk,
} from './journeys.mjs';
import { startSmtpSink } from './smtp.mjs';

const SUPER = { email: 'super@example.com', password: 'parola-1234' };
const INVEST = '[data-island="investment"]';
const CARD = '[data-island="card-payment"]';

const TR = {
  cancelled: 'İptal edildi',
  cancelledFlash: 'Talebiniz iptal edildi.',
  refunded: 'İade edildi',
  scheduled: 'Erken kapanış planlandı; yatırımcılara bildirildi.',
  terminated: 'Tur sonlandırıldı; her yatırımcıya bildirildi ve iade yapılıyor.',
  belowThreshold: 'Emanet henüz başarı eşiğini karşılamıyor: tur yalnızca sonlandırılarak erken bitirilebilir.',
  nameMismatch: 'Ad, girişimin adıyla aynı değil.',
  statementMatched: 'Ekstre yüklendi; her satır talebiyle eşleşti.',
  lineMatched: 'Alındı: talep fonlandı',
};

describe('rounds', () => {
  let server;
  let sink;
  let browser;
  let staffContext;
  let staff;
  const contexts = [];
  /** The file whose number of seconds shifts the server's clock. */
  let clockDir;
  let clockFile;

  before(async () => {
    sink = await startSmtpSink();
    clockDir = await mkdtemp(path.join(os.tmpdir(), 'ortak-clock-'));
    clockFile = path.join(clockDir, 'offset');
    await writeFile(clockFile, '0');
    server = await startServer({
      env: {
        ORTAK_SMTP_URL: sink.url,
        ORTAK_ANNUAL_LIMIT_TL: '2000000',
        ORTAK_CLOCK_FILE: clockFile,
        ORTAK_JOBS_INTERVAL_SECONDS: '1',
      },
      beforeStart: ({ run }) => run(['create-admin', '--create', '--email', SUPER.email, '--password', SUPER.password, '--super']),
    });
    browser = await launchBrowser();
    staffContext = await newContext(browser, { locale: 'tr-TR' });
    staff = await staffContext.newPage();
    const signedIn = await signIn(staff, server, SUPER.email, SUPER.password);
    assert.equal(signedIn.status(), 200, `superadmin sign-in: ${signedIn.status()} at ${staff.url()}`);
  });

  after(async () => {
    for (const c of contexts) await c.close();
    await staffContext?.close();
    await browser?.close();
    await server?.stop();
    await sink?.close();
    if (clockDir) await rm(clockDir, { recursive: true, force: true });
  });

  /** A new investor, signed in, with verified MKK data: { context, page, email }. */
  async function investor(tag) {
    const context = await newContext(browser, { locale: 'tr-TR' });
    contexts.push(context);
    const page = await context.newPage();
    const email = uniqueEmail(tag);
    await join(page, { server, sink }, email);
    await page.goto(server.url('/mkk'));
    await page.selectOption('#investor_type', 'individual');
    await page.selectOption('#id_type', 'tckn');
    await page.check('#citizen-yes');
    await fillById(page, { ...MKK, email });
    const mkk = await clickAndNavigate(page, 'form[action="/mkk"] button[type=submit]');
    assert.equal(mkk.status(), 200, `MKK form: ${mkk.status()}`);
    assert.equal(await page.locator('.field__error').count(), 0, `MKK form errors: ${await texts(page, '.field__error')}`);
    // Investing needs the data verified.
    verifyMkk(server, email);
    return { context, page, email };
  }

  /**
   * Sends a request of `amount` (as typed) for `slug` with the island, the round's information
   * form opened first; returns its id.
   */
  async function commit(page, slug, amount) {
    await openInformationForm(page, server, slug);
    await page.goto(server.url(`/investmentFlow?startup=${slug}`));
    await waitForIsland(page, 'investment');
    await page.fill('#amount', amount);
    await page.check('#risk');
    const [created] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/investmentRequests'),
      page.click(`${INVEST} form.investment-form button[type="submit"]`),
    ]);
    assert.equal(created.status(), 201, `POST /api/investmentRequests: ${created.status()} ${await created.text()}`);
    await page.goto(server.url('/pendingInvestments'));
    const action = await page.getAttribute('form[action^="/pendingInvestments/"][action$="/cancel"]', 'action');
    const id = Number(/\/pendingInvestments\/(\d+)\/cancel/.exec(action)?.[1]);
    assert.ok(id > 0, `the request's cancel form: ${action}`);
    return id;
  }

  /** Posts one of the dashboard's forms with the CSRF token of the page at `from`. */
  async function staffPost(from, path, form) {
    await staff.goto(server.url(from));
    const csrf = await staff.getAttribute('input[name="csrf"]', 'value');
    const response = await staffContext.request.post(server.url(path), { form: { csrf, ...form }, maxRedirects: 0 });
    assert.equal(response.status(), 303, `POST ${path}: ${response.status()}`);
  }

  /**
   * Request `id`, from approval to funded: the fee by card, the transfer details, then the
   * clearing bank's statement with the transfer (`amount` in lira) imported by the superadmin.
   */
  async function fund(page, id, amount) {
    await staffPost(`/dashboard/investments/${id}`, `/dashboard/investments/${id}/status`, { to: 'approved' });
    await page.goto(server.url(`/invFlow?request=${id}`));
    await waitForIsland(page, 'card-payment');
    await page.fill('#holder', 'Ayşe Yılmaz');
    await page.locator('#number').pressSequentially('4242424242424242');
    await page.fill('#month', '12');
    await page.fill('#year', '2030');
    await page.fill('#cvv', '123');
    await clickAndNavigate(page, `${CARD} form button[type="submit"]`);
    assert.match(pathOf(page), /^\/sandbox\/3ds\/[0-9a-f]+$/);
    await page.fill('#code', '123456');
    await clickAndNavigate(page, 'button[name="action"][value="approve"]');
    assert.equal(pathOf(page), '/invFlow');
    await fillPayer(page);
    await clickAndNavigate(page, 'form[action="/invFlow/bank"] button[type=submit]');
    assert.equal(pathOf(page), '/paymentSuccess');
    const reference = (await page.textContent('.transfer .reference')).trim();
    // The investor's transfer as the bank reports it: their reference, the exact amount, from
    // their own account in their verified name.
    const xml = camt053([{ reference, amount, name: `${MKK.first_name} ${MKK.last_name}`, iban: PAYER.iban, date: istanbulToday() }]);
    await staff.goto(server.url('/dashboard/takasbank/statements'));
    const csrf = await staff.getAttribute('input[name="csrf"]', 'value');
    const imported = await staffContext.request.post(server.url('/dashboard/takasbank/statements'), {
      multipart: { csrf, statement: { name: 'ekstre.xml', mimeType: 'application/xml', buffer: Buffer.from(xml) } },
      maxRedirects: 0,
    });
    assert.equal(imported.status(), 303, `POST /dashboard/takasbank/statements: ${imported.status()} ${await imported.text()}`);
    // Every line matched its request: the request is funded.
    await staff.goto(server.url('/dashboard/takasbank/statements'));
    assert.equal((await staff.textContent('.flash--success')).trim(), TR.statementMatched);
    const line = (await staff.textContent(`tbody tr:has-text("${reference}")`)).replace(/\s+/g, ' ');
    assert.ok(line.includes(TR.lineMatched) && line.includes(String(id)), `the statement line: ${line}`);
  }

  /** The startup id of the round named `name`, from the staff's round list. */
  async function roundId(name) {
    const list = await (await staffContext.request.get(server.url('/dashboard/rounds.json'))).json();
    const row = list.rows.find((r) => r.cells[0] === name);
    assert.ok(row, `${name} is on /dashboard/rounds`);
    return row.id;
  }

  /** Opens the round's close confirmation page from its staff page (superadmin): its figures. */
  async function closePage(id) {
    await staff.goto(server.url(`/dashboard/rounds/${id}`));
    const opened = await clickAndNavigate(staff, `a[href="/dashboard/rounds/${id}/close"]`);
    assert.equal(opened.status(), 200);
    assert.equal(pathOf(staff), `/dashboard/rounds/${id}/close`);
    return staff.$$eval('main dl.facts dd', (dds) => dds.map((dd) => dd.textContent.trim()));
  }

  /**
   * Schedules the early close of round `id` (escrow holds its goal) on its confirmation page,
   * then moves the server's clock past the time it was scheduled for: the close job starts it.
   */
  async function scheduleClose(id, name) {
    const [goal, received] = await closePage(id);
    assert.equal(received, goal, 'escrow holds the goal');
    const form = 'form:has(input[name="intent"][value="schedule"])';
    // The name must be typed as it is.
    await staff.fill('#name_schedule', 'Başka Girişim');
    const refused = await clickAndNavigate(staff, `${form} button[type=submit]`);
    assert.equal(refused.status(), 422);
    assert.equal((await staff.textContent('#name_schedule-error')).trim(), TR.nameMismatch);
    await staff.fill('#name_schedule', name);
    const scheduled = await clickAndNavigate(staff, `${form} button[type=submit]`);
    assert.equal(scheduled.status(), 200);
    assert.equal(pathOf(staff), `/dashboard/rounds/${id}`);
    assert.equal((await staff.textContent('.flash--success')).trim(), TR.scheduled);
    // It waits for the last open window or deadline; a few seconds after it, it is due.
    const at = sqliteValue(server, "SELECT CAST(strftime('%s', close_scheduled_at) AS INTEGER) FROM startups WHERE id = ?", [id]);
    assert.ok(at > Date.now() / 1000, `scheduled after the open cancellation window: ${at}`);
    await writeFile(clockFile, String(Math.ceil(at - Date.now() / 1000) + 5));
  }

  /** Terminates round `id` with `reason` on its confirmation page (superadmin). */
  async function terminate(id, name, reason) {
    await closePage(id);
    // Below its goal the round cannot close early as a success.
    assert.equal(await staff.locator('input[name="intent"][value="schedule"]').count(), 0, 'no early close as a success');
    assert.ok((await texts(staff, 'main p.muted')).includes(TR.belowThreshold));
    await staff.fill('#reason', reason);
    await staff.fill('#name_terminate', name);
    const ended = await clickAndNavigate(staff, 'form:has(input[name="intent"][value="terminate"]) button[type=submit]');
    assert.equal(ended.status(), 200);
    assert.equal(pathOf(staff), `/dashboard/rounds/${id}`);
    assert.equal((await staff.textContent('.flash--success')).trim(), TR.terminated);
  }

  /** Reloads `path` until `check(page)` holds (the close job runs in the background). */
  async function eventually(page, path, check, what) {
    for (let i = 0; ; i += 1) {
      await page.goto(server.url(path));
      if (await check(page)) return;
      assert.ok(i < 40, what);
      await new Promise((r) => setTimeout(r, 500));
    }
  }

  it('two investors commit, one withdraws inside the window, the round succeeds and allocates', async () => {
    const stays = await investor('stays');
    const leaves = await investor('leaves');
    const kept = await commit(stays.page, 'odeme-koprusu', '600.000');
    const withdrawn = await commit(leaves.page, 'odeme-koprusu', '100.000');

    // The withdrawal: the countdown of the window, then the button.
    const card = `article.request-card:has(form[action="/pendingInvestments/${withdrawn}/cancel"])`;
    const countdown = (await leaves.page.textContent(`${card} .countdown`)).replace(/\s+/g, ' ');
    assert.match(countdown, /tarihine kadar iptal edebilirsiniz \(1 gün 23 saat|\(2 gün 0 saat/, countdown);
    await clickAndNavigate(leaves.page, `form[action="/pendingInvestments/${withdrawn}/cancel"] button[type=submit]`);
    assert.equal(pathOf(leaves.page), '/pendingInvestments');
    assert.equal((await leaves.page.textContent('.flash--success')).trim(), TR.cancelledFlash);
    assert.ok((await leaves.page.textContent('main')).includes(TR.cancelled), 'the request says cancelled');
    assert.equal(await leaves.page.locator('form[action$="/cancel"]').count(), 0, 'nothing left to withdraw');

    await fund(stays.page, kept, 600_000);
    const id = await roundId('Ödeme Köprüsü');
    await scheduleClose(id, 'Ödeme Köprüsü');
    await eventually(
      stays.page,
      '/userInvestments',
      async (page) => (await page.locator('table.holdings tbody tr').count()) === 1,
      'the allocation reaches the portfolio',
    );
    const rows = await stays.page.$$eval('table.holdings tbody tr', (trs) => trs.map((tr) => [...tr.cells].map((td) => td.textContent.trim())));
    assert.equal(rows[0][0], 'Ödeme Köprüsü');
    assert.equal(rows[0][2], '600.000 TL');
    assert.match(rows[0][3], /^%\d+,\d\d$/, `a share of the round: ${rows[0][3]}`);
    assert.notEqual(rows[0][3], '%0,00');
    // Withdrawn, it stays cancelled: the close did not touch it.
    await leaves.page.goto(server.url('/userInvestments'));
    assert.equal(await leaves.page.locator('table.holdings tbody tr').count(), 0, 'no holding for the one who withdrew');
    await leaves.page.goto(server.url('/pendingInvestments'));
    assert.ok((await leaves.page.textContent('main')).includes(TR.cancelled));
    // Back to the present for the next test (its bank statements are booked today).
    await writeFile(clockFile, '0');
    // Once closed, the round takes no more requests and cannot close again.
    await staff.goto(server.url(`/dashboard/rounds/${id}`));
    assert.equal(await staff.locator(`a[href="/dashboard/rounds/${id}/close"]`).count(), 0, 'no way to close it again');
    for (const c of [stays.context, leaves.context, staffContext]) assertOnlyLoopback(c);
  });

  it('a failed round refunds both investors, and the clearing bank gets the refund list', async () => {
    const first = await investor('first');
    const second = await investor('second');
    const a = await commit(first.page, 'kalkan-siber', '250.000');
    const b = await commit(second.page, 'kalkan-siber', '100.000');
    await fund(first.page, a, 250_000);
    await fund(second.page, b, 100_000);
    const id = await roundId('Kalkan Siber');
    await terminate(id, 'Kalkan Siber', 'İhraççı kampanyayı geri çekti.');

    for (const [who, request] of [
      [first, a],
      [second, b],
    ]) {
      // Each of them has this one request.
      const card = 'article.request-card';
      await eventually(
        who.page,
        '/pendingInvestments',
        async (page) => (await page.textContent('main')).includes(TR.refunded),
        `request ${request} is refunded`,
      );
      const text = (await who.page.textContent(card)).replace(/\s+/g, ' ');
      assert.ok(text.includes('Kalkan Siber') && text.includes(TR.refunded), text);
      assert.equal(await who.page.locator('form[action$="/cancel"]').count(), 0, 'nothing to withdraw after the close');
      await who.page.goto(server.url('/userInvestments'));
      assert.equal(await who.page.locator('table.holdings tbody tr').count(), 0, 'no holding in a failed round');
    }

    // The clearing bank's refund list: both escrowed amounts, with the payer's IBAN.
    const csv = await (await staffContext.request.get(server.url(`/dashboard/rounds/${id}/refunds.csv`))).text();
    const iban = PAYER.iban.replace(/\s/g, '');
    for (const [request, amount] of [
      [a, '250000.00'],
      [b, '100000.00'],
    ]) {
      const line = csv.split(/\r?\n/).find((l) => l.includes(`${request}`) && l.includes(amount));
      assert.ok(line && line.includes(iban), `request ${request} on the refund list:\n${csv}`);
    }
    for (const c of [first.context, second.context, staffContext]) assertOnlyLoopback(c);
  });
});
