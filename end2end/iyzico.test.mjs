// The service fee through iyzico in a real browser, against the iyzico stand-in
// (end2end/standins/iyzico.mjs, another origin on 127.0.0.1 that checks every call's IYZWSv2
// signature):
//
//   1. an investor with an approved request types a card on /invFlow; Ortak shows the bank's
//      3-D Secure page (iyzico's HTML, on /invFlow/3ds/… under its own Content-Security-Policy),
//      whose form leads to the stand-in bank; cancelling there comes back through iyzico's
//      cross-site callback to /paymentFail with the 3-D Secure reason, nothing charged;
//   2. trying again with the code 123456: the stand-in's page posts the signed callback to
//      Ortak (a cross-site POST, no cookie), Ortak takes the money server to server and sends
//      the browser with a 303 to the escrow step, where the session cookie is back; the payer's
//      details give the transfer instructions on /paymentSuccess. iyzico holds one paid
//      payment with our conversation and basket ids, and every call it saw was signed.
//
// One server for the file (fresh data folder, demo content, a superadmin, mail to a local SMTP
// sink, the iyzico provider pointed at the stand-in). Nothing may leave 127.0.0.1.
import assert from 'node:assert/strict';
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
import { fillById, fillPayer, join, MKK, openInformationForm, pathOf, signIn, texts, verifyMkk } from './journeys.mjs';
import { startSmtpSink } from './smtp.mjs';
import { startIyzico } from './standins/iyzico.mjs';

const SUPER = { email: 'super@example.com', password: 'parola-1234' };
const CARD = '[data-island="card-payment"]';
const TR = {
  bankTitle: 'Yatırım tutarını emanet hesabına aktarın',
  successTitle: 'Yatırım tutarını havale edin',
  failTitle: 'Ödeme tamamlanamadı',
  threeDs: 'Bankanızın 3-D Secure doğrulaması tamamlanmadı',
};

describe('iyzico', () => {
  let server;
  let sink;
  let iyzico;
  let browser;
  const journey = {};

  before(async () => {
    sink = await startSmtpSink();
    iyzico = await startIyzico();
    server = await startServer({
      env: { ...iyzico.serverEnv, ORTAK_SMTP_URL: sink.url },
      beforeStart: ({ run }) => run(['create-admin', '--create', '--email', SUPER.email, '--password', SUPER.password, '--super']),
    });
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
    await iyzico?.close();
    await sink?.close();
  });

  /** Types the card on the card step and submits it; lands on the bank's 3-D Secure page. */
  async function payWithCard(page, number) {
    await page.goto(server.url(`/invFlow?request=${journey.requestId}`));
    await waitForIsland(page, 'card-payment');
    assert.equal(await page.locator('.sandbox-banner').count(), 0, 'no sandbox banner with iyzico');
    await page.fill('#holder', 'Ayşe Yılmaz');
    await page.locator('#number').pressSequentially(number);
    await page.fill('#month', '12');
    await page.fill('#year', '2030');
    await page.fill('#cvv', '123');
    const shown = await clickAndNavigate(page, `${CARD} form button[type="submit"]`);
    assert.equal(shown.status(), 200);
    assert.match(pathOf(page), /^\/invFlow\/3ds\/[0-9a-f]{32}$/);
    const policy = shown.headers()['content-security-policy'];
    assert.ok(policy.includes(`form-action https: ${iyzico.url}`), policy);
    // The bank's page (iyzico's HTML) leads on to the stand-in bank, on another origin.
    await clickAndNavigate(page, '#iyzico-3ds-form button[type="submit"]');
    assert.equal(new URL(page.url()).origin, iyzico.url, 'at the bank');
    assert.ok((await page.textContent('main')).includes('2500 TRY'), 'the bank shows the fee (2.5% of 100.000 TL)');
  }

  it('an investor with an approved request reaches the card step', async () => {
    const context = await newContext(browser, { locale: 'tr-TR' });
    const page = await context.newPage();
    const email = uniqueEmail('iyzico');
    await join(page, { server, sink }, email);
    await page.goto(server.url('/mkk'));
    await page.selectOption('#investor_type', 'individual');
    await page.selectOption('#id_type', 'tckn');
    await page.check('#citizen-yes');
    await fillById(page, { ...MKK, email });
    await clickAndNavigate(page, 'form[action="/mkk"] button[type=submit]');
    assert.equal(await page.locator('.field__error').count(), 0, `MKK form: ${await texts(page, '.field__error')}`);
    // Investing needs the data verified, as staff's review does.
    verifyMkk(server, email);
    // A request needs the round's information form opened first.
    await openInformationForm(page, server, 'cemre-enerji');
    await page.goto(server.url('/investmentFlow?startup=cemre-enerji'));
    await waitForIsland(page, 'investment');
    await page.check('#quick-100000');
    await page.check('#risk');
    const [sent] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/investmentRequests'),
      page.click('[data-island="investment"] form.investment-form button[type="submit"]'),
    ]);
    assert.equal(sent.status(), 201);

    const staffContext = await newContext(browser, { locale: 'tr-TR' });
    const staff = await staffContext.newPage();
    await signIn(staff, server, SUPER.email, SUPER.password);
    await staff.goto(server.url('/dashboard/investments'));
    await waitForIsland(staff, 'staff-table');
    await staff.waitForSelector('[data-island="staff-table"] tbody tr[data-row]');
    const ids = await staff.$$eval(
      'tbody tr[data-row]',
      (rows, who) => rows.filter((r) => r.textContent.includes(who)).map((r) => r.dataset.row),
      email,
    );
    assert.equal(ids.length, 1, `the request of ${email} on the dashboard`);
    const id = ids[0];
    await openRowMenu(staff, `tr[data-row="${id}"]`);
    await clickAndNavigate(staff, `tr[data-row="${id}"] form.inline-form button[value=approved]`);
    await staffContext.close();
    journey.requestId = Number(id);
    journey.context = context;
    journey.page = page;
  });

  it('cancelling at the bank comes back through the callback to the fail page, nothing charged', async () => {
    const page = journey.page;
    assert.ok(page, 'needs the approved request');
    await payWithCard(page, '5528790000000008');
    // The stand-in's result page posts iyzico's signed callback to Ortak at once.
    await Promise.all([
      page.waitForURL((url) => url.pathname === '/paymentFail'),
      page.click('button:has-text("Cancel payment")'),
    ]);
    assert.equal(new URL(page.url()).searchParams.get('reason'), 'three_ds');
    assert.equal((await page.textContent('h1')).trim(), TR.failTitle);
    assert.ok((await page.textContent('main')).includes(TR.threeDs));
    const payments = [...iyzico.payments.values()];
    assert.equal(payments.length, 1);
    assert.equal(payments[0].status, 'FAILURE');
    assert.equal(payments[0].authCalls, 0, 'the charge was never asked for');
  });

  it('3-D Secure passes at the bank; Ortak takes the fee and the investor goes on to escrow', async () => {
    const page = journey.page;
    assert.ok(page, 'needs the approved request');
    await page.click(`a[href="/invFlow?request=${journey.requestId}"]`);
    await payWithCard(page, '5528790000000008');
    await page.fill('#code', '123456');
    await Promise.all([
      page.waitForURL((url) => url.pathname === '/invFlow' && url.origin === server.baseURL),
      page.click('button:has-text("Confirm")'),
    ]);
    // Signed in again on our page: the Lax session cookie came back after the cross-site POST.
    assert.equal((await page.textContent('h1')).trim(), TR.bankTitle);
    await fillPayer(page);
    await clickAndNavigate(page, 'form[action="/invFlow/bank"] button[type=submit]');
    assert.equal(pathOf(page), '/paymentSuccess');
    assert.equal((await page.textContent('h1')).trim(), TR.successTitle);

    const paid = [...iyzico.payments.values()].filter((p) => p.status === 'SUCCESS');
    assert.equal(paid.length, 1, 'one payment taken');
    assert.equal(paid[0].basketId, `ortak-request-${journey.requestId}`);
    assert.match(paid[0].conversationId, /^[0-9a-f]{32}$/);
    assert.equal(paid[0].authCalls, 1);
    // iyzico's API is POST only; the browser's own GETs on the stand-in's bank origin (its
    // favicon) are not API calls.
    const api = iyzico.log.filter((e) => e.kind === 'api' && e.method === 'POST');
    // The cancelled attempt's initialize, then this one's initialize and auth: nothing else.
    assert.deepEqual(api.map((e) => e.path), [
      '/payment/3dsecure/initialize',
      '/payment/3dsecure/initialize',
      '/payment/v2/3dsecure/auth',
    ]);
    assert.ok(api.every((e) => e.signature === 'verified'), JSON.stringify(api.map((e) => [e.path, e.signature])));
    assert.ok(api.every((e) => !JSON.stringify(e.request ?? {}).includes('5528790000000008')), 'the log never holds a card');
    assertOnlyLoopback(journey.context);
    await journey.context.close();
  });
});
