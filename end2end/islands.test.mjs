// The React islands of the member pages, with JavaScript, and the investment form without it:
//
//   favorites-filters  /favorites: filters the saved startups as the user types, by Turkish
//                      case rules, and keeps the URL in sync (a reload renders the same list)
//   investment         /investmentFlow?startup=…: quick picks, live summary, client-side checks,
//                      JSON submit, the "request created" dialog, one request however often
//                      the button is clicked
//   card-payment       /invFlow?request=…: number grouping and brand, client-side checks
//                      (Luhn, expiry…), then the real flow: 3-D Secure, escrow transfer details,
//                      /paymentSuccess; and a declined card
//
// One server for the file (fresh data folder, demo content, a superadmin created with
// `ortak create-admin` before it starts, mail to a local SMTP sink); each test signs up its own
// investor. Nothing may leave 127.0.0.1.
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
import { fillById, fillPayer, join, MKK, openInformationForm, pathOf, PAYER, signIn, texts, verifyMkk } from './journeys.mjs';
import { startSmtpSink } from './smtp.mjs';

const SUPER = { email: 'super@example.com', password: 'parola-1234' };

const TR = {
  noMatch: 'Bu aramaya uyan kayıtlı girişim yok.',
  minimum: "En düşük yatırım tutarı 100.000 TL'dir.",
  required: 'Bu alan zorunludur',
  number: 'Lütfen geçerli bir sayı girin.',
  risk: 'Talebi göndermek için risk bildirimini kabul etmelisiniz.',
  created: 'Yatırım talebiniz oluşturuldu ve incelenecek',
  createdTitle: 'Talebiniz oluşturuldu',
  cardNumber: 'Geçersiz kart numarası',
  cardMonth: 'Geçersiz ay',
  cardYear: 'Geçersiz yıl',
  cardCvv: 'Geçersiz CVV',
  bankTitle: 'Yatırım tutarını emanet hesabına aktarın',
  ibanOwn: "IBAN'ın kendi adınıza olduğunu onaylayın.",
  successTitle: 'Yatırım tutarını havale edin',
  declined: 'Kartınız ödeme kuruluşu tarafından reddedildi',
};

const EN = {
  created: 'Your investment request was created and will be reviewed',
};

/** Saved in the favourites test: name, a city filter of /startups that lists it, status. */
const SAVED = [
  { name: 'Çiçek Tarım', city: 'Antalya', status: 'being-funded' },
  { name: 'Zeytin Finans', city: 'İstanbul', status: 'funded' },
  { name: 'Toprak Analitik', city: 'Eskişehir', status: 'funded' },
];

const INVEST = '[data-island="investment"]';
const INVEST_SUBMIT = `${INVEST} form.investment-form button[type="submit"]`;
const CARD = '[data-island="card-payment"]';
const CARD_SUBMIT = `${CARD} form button[type="submit"]`;
const figure = (page, field) => page.textContent(`${INVEST} dd[data-field="${field}"]`).then((t) => t.trim());

/** Records the page's requests: POSTs by path, and document (page) loads. */
function watch(page) {
  const seen = { posts: [], documents: [] };
  page.on('request', (req) => {
    if (req.method() === 'POST') seen.posts.push(new URL(req.url()).pathname);
    // By address, so a failure names the page that loaded.
    if (req.isNavigationRequest() && req.frame() === page.mainFrame()) seen.documents.push(`${req.method()} ${req.url()}`);
  });
  return seen;
}

/** Marks the current document, to tell later whether it was replaced. */
const markDocument = (page) => page.evaluate(() => (window.__sameDocument = true));
const sameDocument = (page) => page.evaluate(() => window.__sameDocument === true);

/** The names of the saved startups /favorites shows (items without the hidden attribute). */
const shownFavorites = (page) =>
  page.$$eval('#favorites-list .favorite-item', (items) => items.filter((i) => !i.hidden).map((i) => i.dataset.name).sort());

describe('islands', () => {
  let server;
  let sink;
  let browser;

  before(async () => {
    sink = await startSmtpSink();
    server = await startServer({
      // The island's quick amounts go past SPK's default yearly cap for individuals (200.000 TL
      // at most); the cap has tests of its own (server/tests/rounds.rs).
      env: { ORTAK_SMTP_URL: sink.url, ORTAK_ANNUAL_LIMIT_TL: '1000000' },
      beforeStart: ({ run }) => run(['create-admin', '--create', '--email', SUPER.email, '--password', SUPER.password, '--super']),
    });
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
    await sink?.close();
  });

  /** Signs up a new investor in `context`; returns the page (signed in) and the address. */
  async function newInvestor(context, tag) {
    const page = await context.newPage();
    const email = uniqueEmail(tag);
    await join(page, { server, sink }, email);
    return { page, email };
  }

  /**
   * Completes the MKK form, which investing needs, and marks the data verified as staff's review
   * does; then opens `slug`'s information form, which a request needs too.
   */
  async function completeMkk(page, email, slug = 'cemre-enerji') {
    await page.goto(server.url('/mkk'));
    await page.selectOption('#investor_type', 'individual');
    await page.selectOption('#id_type', 'tckn');
    await page.check('#citizen-yes');
    await fillById(page, { ...MKK, email });
    const response = await clickAndNavigate(page, 'form[action="/mkk"] button[type=submit]');
    assert.equal(response.status(), 200, `MKK form: ${response.status()} at ${page.url()}`);
    assert.equal(pathOf(page), '/mkk');
    assert.equal(await page.locator('.field__error').count(), 0, `MKK form errors: ${await texts(page, '.field__error')}`);
    verifyMkk(server, email);
    await openInformationForm(page, server, slug);
  }

  /** Sends a request for `slug` with the island (quick pick, risk ticked); waits for the dialog. */
  async function requestWithIsland(page, slug, quick = 100000) {
    await openInformationForm(page, server, slug);
    await page.goto(server.url(`/investmentFlow?startup=${slug}`));
    await waitForIsland(page, 'investment');
    await page.check(`#quick-${quick}`);
    await page.check('#risk');
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/investmentRequests'),
      page.click(INVEST_SUBMIT),
    ]);
    assert.equal(response.status(), 201);
    await page.waitForSelector(`${INVEST} dialog.modal[open]`);
  }

  it('favourites: filters as the user types, by Turkish case rules, with the URL in sync', async () => {
    const context = await newContext(browser, { locale: 'tr-TR' });
    const { page } = await newInvestor(context, 'fav');
    const errors = [];
    page.on('pageerror', (err) => errors.push(String(err)));

    for (const s of SAVED) {
      await page.goto(server.url(`/startups?city=${encodeURIComponent(s.city)}`));
      const button = `article.startup-card[data-name="${s.name}"] form.favorite-toggle button`;
      assert.equal(await page.getAttribute(button, 'aria-pressed'), 'false', `${s.name} is not saved yet`);
      await clickAndNavigate(page, button);
      assert.equal(await page.getAttribute(button, 'aria-pressed'), 'true', `${s.name} is saved`);
    }

    await page.goto(server.url('/favorites'));
    await waitForIsland(page, 'favorites-filters');
    const all = SAVED.map((s) => s.name).sort();
    assert.deepEqual(await shownFavorites(page), all);
    const seen = watch(page);
    await markDocument(page);

    // Upper case with dotted capital İ finds "Çiçek Tarım".
    await page.fill('#favorites-q', 'ÇİÇEK');
    await page.waitForFunction(() => document.querySelectorAll('#favorites-list .favorite-item:not([hidden])').length === 1);
    assert.deepEqual(await shownFavorites(page), ['Çiçek Tarım']);
    assert.equal(new URL(page.url()).searchParams.get('q'), 'ÇİÇEK', `the URL has ?q=: ${page.url()}`);
    assert.equal(new URL(page.url()).searchParams.get('status'), null);

    // "istanbul" finds the city İstanbul; "ıstanbul" (dotless) does not.
    await page.fill('#favorites-q', 'istanbul');
    await page.waitForFunction(() => document.querySelectorAll('#favorites-list .favorite-item:not([hidden])').length === 1);
    assert.deepEqual(await shownFavorites(page), ['Zeytin Finans']);
    await page.fill('#favorites-q', 'ıstanbul');
    await page.waitForSelector(`[data-island="favorites-filters"] p.empty-state:text-is("${TR.noMatch}")`);
    assert.deepEqual(await shownFavorites(page), []);
    assert.equal(await page.locator('#favorites-no-match:visible').count(), 0, "the server's own message is not shown twice");

    // Status only.
    await page.fill('#favorites-q', '');
    await page.selectOption('#filter-status', 'funded');
    await page.waitForFunction(() => document.querySelectorAll('#favorites-list .favorite-item:not([hidden])').length === 2);
    assert.deepEqual(await shownFavorites(page), ['Toprak Analitik', 'Zeytin Finans']);
    let url = new URL(page.url());
    assert.equal(url.searchParams.get('status'), 'funded');
    assert.equal(url.searchParams.get('q'), null, 'an empty search is left out of the URL');
    assert.equal(await page.locator('[data-island="favorites-filters"] p.empty-state').count(), 0);

    // Both: a funded startup named "çiçek" does not exist.
    await page.fill('#favorites-q', 'çiçek');
    await page.waitForSelector(`[data-island="favorites-filters"] [role="status"] p.empty-state`);
    assert.equal((await page.textContent('[data-island="favorites-filters"] p.empty-state')).trim(), TR.noMatch);

    // Reset: everything, and a clean URL.
    await page.click('[data-island="favorites-filters"] a[href="/favorites"]');
    await page.waitForFunction(() => document.querySelectorAll('#favorites-list .favorite-item:not([hidden])').length === 3);
    assert.deepEqual(await shownFavorites(page), all);
    url = new URL(page.url());
    assert.equal(url.pathname + url.search, '/favorites');
    assert.equal(await page.inputValue('#favorites-q'), '');
    assert.equal(await page.inputValue('#filter-status'), '');
    assert.equal(await page.locator('[data-island="favorites-filters"] p.empty-state').count(), 0);

    // Enter does not reload either: the list already follows the fields.
    await page.fill('#favorites-q', 'ÇİÇEK');
    await page.press('#favorites-q', 'Enter');
    await page.waitForFunction(() => document.querySelectorAll('#favorites-list .favorite-item:not([hidden])').length === 1);
    assert.deepEqual(seen.documents, [], 'no page load while filtering');
    assert.deepEqual(seen.posts, []);
    assert.equal(await sameDocument(page), true, 'the page was not reloaded');

    // Reload: the server renders the same filtered list, and the island keeps the fields.
    const filtered = page.url();
    const html = await (await context.request.get(filtered)).text();
    const rendered = [...html.matchAll(/<div\s([^>]*)>/g)]
      .map(([, attrs]) => attrs)
      .filter((attrs) => /\bclass="favorite-item"/.test(attrs))
      .map((attrs) => ({
        name: /data-name="([^"]*)"/.exec(attrs)?.[1],
        hidden: /(^|\s)hidden(?=[\s=]|$)/.test(attrs),
      }));
    assert.equal(rendered.length, 3, 'the server renders every saved startup');
    assert.deepEqual(rendered.filter((r) => !r.hidden).map((r) => r.name), ['Çiçek Tarım'], 'the server hides the others');
    await page.reload();
    await waitForIsland(page, 'favorites-filters');
    assert.equal(page.url(), filtered);
    assert.equal(await page.inputValue('#favorites-q'), 'ÇİÇEK');
    assert.deepEqual(await shownFavorites(page), ['Çiçek Tarım']);

    // Un-saving from the filtered list comes back to the filtered list.
    assert.equal(
      await page.getAttribute('.favorite-item[data-name="Çiçek Tarım"] form.favorite-toggle input[name="return"]', 'value'),
      new URL(filtered).pathname + new URL(filtered).search,
    );

    assert.deepEqual(errors, [], 'no script error');
    assertOnlyLoopback(context);
    await context.close();
  });

  it('investment amount: quick picks, live summary, checks, one request however often it is sent', async () => {
    const context = await newContext(browser, { locale: 'tr-TR' });
    const { page, email } = await newInvestor(context, 'invest');
    const errors = [];
    page.on('pageerror', (err) => errors.push(String(err)));
    await completeMkk(page, email);

    await page.goto(server.url('/investmentFlow?startup=cemre-enerji'));
    await waitForIsland(page, 'investment');
    const seen = watch(page);
    await markDocument(page);
    assert.equal(await page.isChecked('#fee_added'), true, 'the fee is added by default');
    assert.equal(await figure(page, 'total'), '—');

    // Quick pick: the field is filled and the summary follows (2.5% fee by default).
    await page.check('#quick-250000');
    assert.equal(await page.inputValue('#amount'), '250.000');
    assert.equal(await figure(page, 'amount'), '250.000 TL');
    assert.equal(await figure(page, 'fee'), '6.250 TL');
    assert.equal(await figure(page, 'investment'), '250.000 TL');
    assert.equal(await figure(page, 'total'), '256.250 TL');

    // Fee taken out of the amount.
    await page.uncheck('#fee_added');
    assert.equal(await figure(page, 'total'), '250.000 TL');
    assert.equal(await figure(page, 'investment'), '243.750 TL');
    assert.equal(await figure(page, 'fee'), '6.250 TL');

    // Kuruş appear when there are some: 2.5% of 123.457 TL = 3.086,425 -> 3.086,43 TL.
    await page.fill('#amount', '123457');
    assert.equal(await page.isChecked('#quick-250000'), false, 'typing clears the quick pick');
    assert.equal(await figure(page, 'fee'), '3.086,43 TL');
    assert.equal(await figure(page, 'investment'), '120.370,57 TL');
    await page.check('#fee_added');
    assert.equal(await figure(page, 'total'), '126.543,43 TL');

    // Checks before sending: nothing is sent.
    await page.fill('#amount', '');
    await page.click(INVEST_SUBMIT);
    assert.equal((await page.textContent('#amount-error')).trim(), TR.required);
    await page.fill('#amount', 'yüz bin');
    // Once the amount was sent or left, its problem is explained as the investor types.
    assert.equal((await page.textContent('#amount-error')).trim(), TR.number, 'an unreadable amount is explained inline');
    await page.click(INVEST_SUBMIT);
    assert.equal((await page.textContent('#amount-error')).trim(), TR.number);
    await page.fill('#amount', '50.000');
    await page.click(INVEST_SUBMIT);
    assert.equal((await page.textContent('#amount-error')).trim(), TR.minimum);
    assert.equal(await page.getAttribute('#amount', 'aria-invalid'), 'true');
    assert.match(await page.getAttribute('#amount', 'aria-describedby'), /\bamount-error\b/);
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'amount', 'the field with the error has focus');
    assert.equal((await page.textContent('#risk-error')).trim(), TR.risk, 'every error at once');

    await page.fill('#amount', '250.000');
    await page.click(INVEST_SUBMIT);
    assert.equal(await page.locator('#amount-error').count(), 0);
    assert.equal(await page.getAttribute('#amount', 'aria-invalid'), null);
    assert.equal((await page.textContent('#risk-error')).trim(), TR.risk);
    assert.equal(await page.getAttribute('#risk', 'aria-invalid'), 'true');
    assert.deepEqual(seen.posts, [], 'invalid forms are not sent');
    assert.equal(await page.isChecked('#quick-250000'), true, 'a typed quick amount shows as picked');

    // Valid, and the button clicked twice in a row: one POST, the dialog.
    await page.check('#risk');
    assert.equal(await page.locator('#risk-error').count(), 0);
    const created = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/investmentRequests');
    await page.$eval(INVEST_SUBMIT, (button) => {
      button.click();
      button.click();
    });
    assert.equal((await created).status(), 201);
    const dialog = `${INVEST} dialog.modal`;
    await page.waitForSelector(`${dialog}[open]`);
    assert.equal(await page.$eval(dialog, (d) => d.matches(':modal')), true, 'opened with showModal()');
    const dialogText = (await page.textContent(dialog)).replace(/\s+/g, ' ');
    assert.ok(dialogText.includes(TR.createdTitle), dialogText);
    assert.ok(dialogText.includes(TR.created), dialogText);
    assert.equal(await page.locator(`${dialog} a[href="/pendingInvestments"]`).count(), 1);
    assert.equal(await page.isDisabled(INVEST_SUBMIT), true, 'disabled after success');

    // Closing the dialog leaves a note with the link; the button stays disabled.
    await page.click(`${dialog} button[type="button"]`);
    await page.waitForSelector(`${dialog}:not([open])`, { state: 'attached' });
    assert.ok((await page.textContent(`${INVEST} .flash--success`)).includes(TR.created));
    await page.click(INVEST_SUBMIT, { force: true }).catch(() => {});
    assert.deepEqual(seen.posts, ['/api/investmentRequests'], 'exactly one request was sent');
    assert.deepEqual(seen.documents, [], 'no page load');
    assert.equal(await sameDocument(page), true);

    // The same form sent again (a retry after a lost answer): the server makes no second request.
    const replay = await page.evaluate(async () => {
      const props = JSON.parse(document.querySelector('[data-island="investment"]').dataset.props);
      const r = await fetch(props.action, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': props.csrf },
        body: JSON.stringify({ startup: props.startup, amount: '250.000', feeAdded: true, risk: true, idempotencyKey: props.idempotencyKey }),
      });
      return r.status;
    });
    assert.equal(replay, 201);

    await page.click(`${INVEST} .flash--success a[href="/pendingInvestments"]`);
    await page.waitForURL((u) => u.pathname === '/pendingInvestments');
    assert.equal(await page.locator('article.request-card').count(), 1, 'one request on /pendingInvestments');
    const card = (await page.textContent('article.request-card')).replace(/\s+/g, ' ');
    assert.ok(card.includes('Cemre Enerji') && card.includes('250.000 TL') && card.includes('256.250 TL'), card);

    assert.deepEqual(errors, [], 'no script error');
    assertOnlyLoopback(context);
    await context.close();
  });

  it(
    'investment amount in English: the quick pick fills "250,000" and the request is accepted',
    async () => {
      const context = await newContext(browser, { locale: 'en-US' });
      const { page, email } = await newInvestor(context, 'invest-en');
      try {
        await completeMkk(page, email);
        await page.goto(server.url('/investmentFlow?startup=cemre-enerji&lang=en'));
        await waitForIsland(page, 'investment');
        await page.check('#quick-250000');
        assert.equal(await page.inputValue('#amount'), '250,000');
        assert.equal(await figure(page, 'fee'), '6,250 TL');
        assert.equal(await figure(page, 'total'), '256,250 TL');
        await page.check('#risk');
        const [response] = await Promise.all([
          page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/investmentRequests'),
          page.click(INVEST_SUBMIT),
        ]);
        assert.equal(response.status(), 201, `POST /api/investmentRequests: ${response.status()} ${await response.text()}`);
        await page.waitForSelector(`${INVEST} dialog.modal[open]`);
        assert.ok((await page.textContent(`${INVEST} dialog.modal`)).includes(EN.created));
        assertOnlyLoopback(context);
      } finally {
        await context.close();
      }
    },
  );

  it('card payment: grouping, brand and checks, then 3-D Secure, escrow details, success; a declined card', async () => {
    const context = await newContext(browser, { locale: 'tr-TR' });
    const { page, email } = await newInvestor(context, 'card');
    const errors = [];
    page.on('pageerror', (err) => errors.push(String(err)));
    const consoleText = [];
    page.on('console', (msg) => consoleText.push(msg.text()));
    await completeMkk(page, email);
    await requestWithIsland(page, 'cemre-enerji');
    await requestWithIsland(page, 'cicek-tarim');

    // A superadmin approves both.
    const staffContext = await newContext(browser, { locale: 'tr-TR' });
    const staff = await staffContext.newPage();
    const signedIn = await signIn(staff, server, SUPER.email, SUPER.password);
    assert.equal(signedIn.status(), 200);
    // The requests table is the staff-table island: wait until it shows its rows.
    const showRequests = async () => {
      await waitForIsland(staff, 'staff-table');
      await staff.waitForSelector('[data-island="staff-table"] tbody tr[data-row]');
    };
    await staff.goto(server.url('/dashboard/investments'));
    await showRequests();
    const ids = await staff.$$eval(
      'tbody tr[data-row]',
      (rows, who) => rows.filter((r) => r.textContent.includes(who)).map((r) => r.dataset.row),
      email,
    );
    assert.equal(ids.length, 2, `two requests from ${email} on the dashboard`);
    for (const id of ids) {
      await openRowMenu(staff, `tr[data-row="${id}"]`);
    await clickAndNavigate(staff, `tr[data-row="${id}"] form.inline-form button[value=approved]`);
      assert.equal(pathOf(staff), '/dashboard/investments');
      await showRequests();
    }
    assertOnlyLoopback(staffContext);
    await staffContext.close();

    await page.goto(server.url('/pendingInvestments'));
    const payLinks = await page.$$eval('a[href^="/invFlow?request="]', (links) => links.map((a) => a.getAttribute('href')));
    assert.equal(payLinks.length, 2, 'both requests can be paid');

    // The first one: the island's help and checks.
    await page.goto(server.url(payLinks[0]));
    await waitForIsland(page, 'card-payment');
    const seen = watch(page);
    await markDocument(page);
    assert.equal(await page.getAttribute('#number', 'inputmode'), 'numeric');
    await page.locator('#number').pressSequentially('4242424242424242');
    assert.equal(await page.inputValue('#number'), '4242 4242 4242 4242');
    assert.equal((await page.textContent(`${CARD} .card-brand`)).trim(), 'Visa');
    // Editing in the middle keeps the grouping (and the caret among the digits).
    await page.fill('#number', '5555555555554444');
    assert.equal(await page.inputValue('#number'), '5555 5555 5555 4444');
    assert.equal((await page.textContent(`${CARD} .card-brand`)).trim(), 'Mastercard');

    // Everything empty: each field says it is required, nothing is sent.
    await page.fill('#number', '');
    await page.click(CARD_SUBMIT);
    for (const id of ['holder', 'number', 'month', 'year', 'cvv']) {
      assert.equal((await page.textContent(`#${id}-error`)).trim(), TR.required, id);
      assert.equal(await page.getAttribute(`#${id}`, 'aria-invalid'), 'true', id);
    }
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'holder');

    // A number failing the Luhn check, a bad month, a past year, a short CVV.
    await page.fill('#holder', 'Ayşe Yılmaz');
    await page.locator('#number').pressSequentially('4242424242424241');
    await page.fill('#month', '13');
    await page.fill('#year', '2001');
    await page.fill('#cvv', '12');
    await page.click(CARD_SUBMIT);
    assert.equal((await page.textContent('#number-error')).trim(), TR.cardNumber);
    assert.equal((await page.textContent('#month-error')).trim(), TR.cardMonth);
    assert.equal((await page.textContent('#year-error')).trim(), TR.cardYear);
    assert.equal((await page.textContent('#cvv-error')).trim(), TR.cardCvv);
    assert.equal(await page.locator('#holder-error').count(), 0);
    assert.deepEqual(seen.posts, [], 'nothing was sent');
    assert.deepEqual(seen.documents, []);
    assert.equal(await sameDocument(page), true);

    // The server's own errors (the form sent past the island's checks) show from the start.
    await Promise.all([page.waitForNavigation(), page.$eval(`${CARD} form`, (form) => form.submit())]);
    assert.equal(pathOf(page), '/invFlow/card');
    await waitForIsland(page, 'card-payment');
    assert.equal((await page.textContent('#number-error')).trim(), TR.cardNumber);
    assert.equal(await page.getAttribute('#number', 'aria-invalid'), 'true');
    assert.equal((await page.textContent('#month-error')).trim(), TR.cardMonth);
    assert.equal(await page.inputValue('#holder'), 'Ayşe Yılmaz', 'the typed values are kept');
    assert.equal(await page.inputValue('#cvv'), '', 'the CVV is never sent back');
    seen.posts.length = 0;

    // Valid: the form posts, the sandbox bank asks for the 3-D Secure code.
    await page.fill('#number', '4242424242424242');
    await page.fill('#month', '12');
    await page.fill('#year', '2030');
    await page.fill('#cvv', '123');
    const posted = await clickAndNavigate(page, CARD_SUBMIT);
    assert.equal(posted.status(), 200);
    assert.match(pathOf(page), /^\/sandbox\/3ds\/[0-9a-f]+$/);
    assert.deepEqual(seen.posts, ['/invFlow/card']);
    await page.fill('#code', '123456');
    await clickAndNavigate(page, 'button[name="action"][value="approve"]');
    assert.equal(pathOf(page), '/invFlow');
    assert.equal((await page.textContent('h1')).trim(), TR.bankTitle);

    // The payer is the investor: their verified name is shown, not typed, and the IBAN must be
    // declared their own (the form is refused without the box).
    assert.equal(await page.locator('#payer_name').count(), 0, 'no payer name field');
    assert.ok((await page.textContent('form[action="/invFlow/bank"]')).includes('Ayşe Yılmaz'), 'the verified name is shown');
    await fillById(page, PAYER);
    const unticked = await clickAndNavigate(page, 'form[action="/invFlow/bank"] button[type=submit]');
    assert.equal(unticked.status(), 422);
    assert.equal((await page.textContent('#iban_own-error')).trim(), TR.ibanOwn);
    await fillPayer(page);
    await clickAndNavigate(page, 'form[action="/invFlow/bank"] button[type=submit]');
    assert.equal(pathOf(page), '/paymentSuccess');
    assert.equal((await page.textContent('h1')).trim(), TR.successTitle);
    assert.match((await page.textContent('.transfer .iban')).trim(), /^TR\d{2}[\d ]+$/);
    const reference = (await page.textContent('.transfer .reference')).trim();
    assert.match(reference, /^ORT\d{6}[0-9A-F]{6}$/);
    // The copy buttons (shown by their script) put the values on the clipboard: the IBAN
    // without its spaces, as a bank's form takes it.
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(server.url('/')).origin });
    const copyIban = page.locator('.transfer button.copy-button').first();
    await copyIban.waitFor({ state: 'visible' });
    await copyIban.click();
    const iban = (await page.textContent('.transfer .iban')).replace(/\s/g, '');
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), iban);
    assert.equal((await copyIban.textContent()).trim(), 'Kopyalandı');
    await page.locator('.transfer button.copy-button').nth(1).click();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), reference);

    // The second one: the sandbox declines 4000 0000 0000 0002.
    await page.goto(server.url(payLinks[1]));
    await waitForIsland(page, 'card-payment');
    await page.fill('#holder', 'Ayşe Yılmaz');
    await page.locator('#number').pressSequentially('4000000000000002');
    assert.equal(await page.inputValue('#number'), '4000 0000 0000 0002');
    await page.fill('#month', '12');
    await page.fill('#year', '30');
    await page.fill('#cvv', '123');
    const declined = await clickAndNavigate(page, CARD_SUBMIT);
    assert.equal(declined.status(), 200);
    assert.equal(new URL(page.url()).pathname, '/paymentFail', 'a declined card ends at the fail page');
    assert.ok((await page.textContent('.flash--error')).includes(TR.declined));
    assert.ok(await page.locator('a[href^="/invFlow?request="]').count(), 'with a way to try again');

    assert.deepEqual(errors, [], 'no script error');
    assert.ok(
      consoleText.every((t) => !/4242|4000 ?0000/.test(t)),
      `nothing about the card in the console: ${consoleText.join(' | ')}`,
    );
    assert.equal(await page.evaluate(() => localStorage.length + sessionStorage.length), 0, 'nothing stored');
    assertOnlyLoopback(context);
    await context.close();
  });

  it('investment amount without JavaScript: quick pick, risk, submit -> /investmentFlow/created', async () => {
    const context = await newContext(browser, { locale: 'tr-TR', javaScriptEnabled: false });
    const { page, email } = await newInvestor(context, 'invest-nojs');
    await completeMkk(page, email);
    await page.goto(server.url('/investmentFlow?startup=cemre-enerji'));
    assert.equal(await page.locator(`${INVEST}[data-island-ready]`).count(), 0, 'no island');
    await page.check('#quick-250000');
    await page.check('#risk');
    const response = await clickAndNavigate(page, `${INVEST} form.investment-form button[type=submit]`);
    assert.equal(response.status(), 200);
    assert.equal(pathOf(page), '/investmentFlow/created');
    assert.ok((await page.textContent('main')).includes(TR.created));
    await page.goto(server.url('/pendingInvestments'));
    assert.equal(await page.locator('article.request-card').count(), 1);
    assert.ok((await page.textContent('article.request-card')).includes('256.250 TL'));
    assertOnlyLoopback(context);
    await context.close();
  });
});
