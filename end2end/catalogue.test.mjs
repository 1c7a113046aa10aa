// The startup catalogue and the way to an investment request, in a real browser (Turkish UI
// unless a test says otherwise):
//
//   - visitors on /startups: the count, twelve cards a page, pagination, the GET filter form
//     (Uygula / Temizle / Sıfırla, the browser's Back button), A-Z and Z-A by Turkish collation
//     (English collation on the English page), the same without JavaScript, and a card's link
//     sending a visitor to sign in;
//   - a member on a startup's page: the analysis tabs, the presentation slides, the invest button
//     by funding period, and saving to / removing from the favourites;
//   - the MKK membership form that stands between a new member and the amount page: each
//     invalid identity number is refused (422) with its own message and the typed values kept,
//     valid individual and corporate data are saved, and the amount page waits until the data
//     is verified (marked so in the database, as staff's review does);
//   - the plain (no-JavaScript) amount form: below the minimum, above the maximum, not a number,
//     a valid amount before the round's information form was opened (refused), then, opened,
//     a valid request, listed as pending and cancelled;
//   - the English messages of both forms.
//
// The amount page's React island is tested in end2end/islands.test.mjs; here the amount form is
// used with JavaScript switched off, exactly as the server renders it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  assertOnlyLoopback,
  clickAndNavigate,
  launchBrowser,
  newContext,
  startServer,
  uniqueEmail,
} from './helpers.mjs';
import { MKK, PASSWORD, SIGNIN_SUBMIT, join as joinWith, openInformationForm, pathAndQuery, pathOf, texts, verifyMkk } from './journeys.mjs';
import { startSmtpSink } from './smtp.mjs';

const TR = {
  count: (n) => `${n} girişim`,
  apply: 'Uygula',
  clear: 'Temizle',
  reset: 'Sıfırla',
  invest: 'Yatırım yap',
  preInvest: 'Ön yatırım talebi gönder',
  closed: 'Bu girişim şu anda yatırıma açık değil.',
  closedFlow: 'Bu girişim şu anda yatırım talebi kabul etmiyor.',
  save: 'Kaydet',
  unsave: 'Kaydedilenlerden çıkar',
  saved: 'Girişim kaydedilenlere eklendi.',
  unsaved: 'Girişim kaydedilenlerden çıkarıldı.',
  favoritesEmpty: 'Favori listeniz boş',
  needsMkk: 'MKK üyelik bilgilerinizi tamamlamanız gerekir',
  mkkVerifying: 'MKK bilgileriniz ekibimiz tarafından doğrulanıyor.',
  edevletSoon: 'yakında',
  formHasErrors: 'Lütfen işaretli alanları düzeltin.',
  tcknLength: 'Kimlik numarası 11 haneli olmalıdır.',
  idInvalid: 'Bu numara geçerli değil',
  vknLength: 'Vergi numarası 10 haneli olmalıdır.',
  digitsOnly: 'Lütfen yalnızca rakam girin.',
  idTypeMismatch: 'kimlik türü uygun değil',
  mkkSaved: 'Yatırımcı bilgileriniz güncellendi.',
  mkkSubmitted: 'Gönderildi, ekibimiz inceliyor',
  minimum: "En düşük yatırım tutarı 100.000 TL'dir.",
  maximum: 'Tek talepte en fazla 50.000.000 TL',
  number: 'Lütfen geçerli bir sayı girin.',
  created: 'Yatırım talebiniz oluşturuldu ve incelenecek',
  submitted: 'Gönderildi',
  cancelled: 'Talebiniz iptal edildi.',
  statusCancelled: 'İptal edildi',
  openInformationForm: 'Talep göndermeden önce bu turun bilgi formunu açın.',
};

const EN = {
  count: (n) => `${n} startups`,
  tcknLength: 'The identity number must have 11 digits.',
  minimum: 'The minimum investment is 100,000 TL.',
  mkkVerifying: 'Our team is verifying your MKK details.',
};

/** The twelve analysis sections of a startup's page, in order (Turkish labels). */
const SECTIONS = [
  ['executive-summary', 'Yönetici özeti'],
  ['quick-view', 'Hızlı bakış'],
  ['investment-summary', 'Yatırım özeti'],
  ['pain-point', 'Sorun'],
  ['solution', 'Çözüm'],
  ['market-analysis', 'Pazar analizi'],
  ['competitive-analysis', 'Rekabet analizi'],
  ['investment-conditions', 'Yatırım koşulları'],
  ['team', 'Ekip'],
  ['traction', 'Gelişim'],
  ['risks', 'Riskler'],
  ['disclaimer', 'Yasal uyarı'],
];

const TOTAL = 26;
const PER_PAGE = 12;
const FINTECH = ['Ekin Kredi', 'Ödeme Köprüsü', 'Zeytin Finans'];

const CARD = 'article.startup-card';
const COUNT = 'main p[role="status"]';
const FILTERS = 'form.filters';
const PAGINATION = 'nav.pagination a';
const FAVORITE = 'form.favorite-toggle button';
const MKK_SUBMIT = 'form[action="/mkk"] button[type=submit]';
const AMOUNT_SUBMIT = 'form.investment-form button[type=submit]';
const CANCEL = 'form[action$="/cancel"] button';
const investLink = (slug) => `a[href="/investmentFlow?startup=${slug}"]`;

/**
 * MKK data that passes validation. One identity number belongs to one account: each spread
 * (`{ ...MKK_INDIVIDUAL }`) gives a new valid TCKN (end2end/journeys.mjs).
 */
const MKK_INDIVIDUAL = {
  investor_type: 'individual',
  id_type: 'tckn',
  citizen: 'yes',
  first_name: 'Ayşe',
  last_name: 'Yılmaz',
  get identity_number() {
    return MKK.identity_number;
  },
  organisation: '',
  // A tenth is 200.000 TL: SPK's yearly limit allows the 100.000 TL minimum.
  annual_income: '2.000.000',
  birth_date: '1984-02-29',
};
const MKK_CORPORATE = {
  ...MKK_INDIVIDUAL,
  investor_type: 'corporate',
  id_type: 'vkn',
  identity_number: '4540536920',
  organisation: 'Anadolu Holding A.Ş.',
};

const TEXT_FIELDS = ['first_name', 'last_name', 'email', 'phone', 'identity_number', 'organisation', 'annual_income', 'birth_date'];

/** Fills the MKK form's fields that `v` names. */
async function fillMkk(page, v) {
  if (v.investor_type !== undefined) await page.selectOption('#investor_type', v.investor_type);
  if (v.id_type !== undefined) await page.selectOption('#id_type', v.id_type);
  if (v.citizen !== undefined) await page.check(`#citizen-${v.citizen}`);
  for (const id of TEXT_FIELDS) {
    if (v[id] !== undefined) await page.fill(`#${id}`, v[id]);
  }
}

/** The MKK form shows exactly the values `v` names. */
async function assertMkkKept(page, v) {
  for (const id of ['investor_type', 'id_type', ...TEXT_FIELDS]) {
    if (v[id] !== undefined) assert.equal(await page.inputValue(`#${id}`), v[id], `#${id} keeps what was typed`);
  }
  if (v.citizen !== undefined) {
    assert.equal(await page.isChecked(`#citizen-${v.citizen}`), true, `the citizen answer "${v.citizen}" is kept`);
  }
}

const cardNames = (page) => page.locator(CARD).evaluateAll((els) => els.map((el) => el.dataset.name));
const countText = async (page) => (await page.textContent(COUNT)).trim();
const query = (page) => new URL(page.url()).searchParams;
const pageLink = (page, n) => page.locator(PAGINATION, { hasText: new RegExp(`^\\s*${n}\\s*$`) });

/**
 * The names on every page of the list at `url`, page 1 first, reached by clicking the
 * pagination's links.
 */
async function namesOfAllPages(page, url) {
  const res = await page.goto(url);
  assert.equal(res.status(), 200);
  const pages = await page.locator(PAGINATION).count();
  const names = await cardNames(page);
  for (let n = 2; n <= pages; n++) {
    const next = await Promise.all([page.waitForNavigation(), pageLink(page, n).click()]).then(([r]) => r);
    assert.equal(next.status(), 200);
    assert.equal(query(page).get('page'), String(n));
    names.push(...(await cardNames(page)));
  }
  return names;
}

/** `a` comes before `b` in `list` (both present). */
function assertBefore(list, a, b, why = '') {
  const i = list.indexOf(a);
  const j = list.indexOf(b);
  assert.ok(i >= 0, `${a} is listed: ${JSON.stringify(list)}`);
  assert.ok(j >= 0, `${b} is listed: ${JSON.stringify(list)}`);
  assert.ok(i < j, `${a} comes before ${b}${why}: ${JSON.stringify(list)}`);
}

describe('catalogue and investing', () => {
  let sink;
  let server;
  let browser;

  before(async () => {
    sink = await startSmtpSink();
    // The English amount test sends 250.000 TL, past SPK's default yearly cap for individuals
    // (200.000 TL at most); the cap has tests of its own (server/tests/rounds.rs).
    server = await startServer({ env: { ORTAK_SMTP_URL: sink.url, ORTAK_ANNUAL_LIMIT_TL: '1000000' } });
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
    await sink?.close();
  });

  /** A context of its own (Turkish, JavaScript on unless told). */
  async function open({ locale = 'tr-TR', javaScriptEnabled = true } = {}) {
    const context = await newContext(browser, { locale, javaScriptEnabled });
    return { context, page: await context.newPage() };
  }

  async function done(context) {
    assertOnlyLoopback(context);
    await context.close();
  }

  /** A new member, signed in (end2end/journeys.mjs); returns the address. */
  async function join(page, tag) {
    const email = uniqueEmail(tag);
    await joinWith(page, { server, sink }, email);
    return email;
  }

  /** A new member whose MKK data (an individual) is saved and verified, so they can invest. */
  async function memberWithMkk(page, tag) {
    const email = await join(page, tag);
    await page.goto(server.url('/mkk'));
    await fillMkk(page, MKK_INDIVIDUAL);
    const saved = await clickAndNavigate(page, MKK_SUBMIT);
    assert.equal(saved.status(), 200, `the MKK form answered ${saved.status()}`);
    assert.equal(pathOf(page), '/mkk');
    assert.equal(await page.locator('.mkk-status--submitted').count(), 1, 'the MKK data is saved');
    verifyMkk(server, email);
  }

  // ---- 1. Visitors on /startups --------------------------------------------------------

  it('visitors see the 26 startups, twelve a page, and page through them', async () => {
    const { context, page } = await open();
    const res = await page.goto(server.url('/startups'));
    assert.equal(res.status(), 200);
    assert.equal(await countText(page), TR.count(TOTAL));

    const first = await cardNames(page);
    assert.equal(first.length, PER_PAGE, 'twelve cards on page 1');
    assert.ok(first.every((n) => n && n.length > 0), `every card has a data-name: ${JSON.stringify(first)}`);
    assert.equal(await page.locator(`${CARD} h2 a[href^="/startups/"]`).count(), PER_PAGE, 'every card links to its page');

    const links = await texts(page, PAGINATION);
    assert.deepEqual(links, ['1', '2', '3'], 'three pages');
    assert.equal(await pageLink(page, 1).getAttribute('aria-current'), 'page');

    const second = await clickAndNavigate(page, `${PAGINATION}:text-is("2")`);
    assert.equal(second.status(), 200);
    assert.equal(pathOf(page), '/startups');
    assert.equal(query(page).get('page'), '2');
    assert.equal(await countText(page), TR.count(TOTAL), 'the count is of all pages');
    assert.equal(await pageLink(page, 2).getAttribute('aria-current'), 'page');
    const onSecond = await cardNames(page);
    assert.equal(onSecond.length, PER_PAGE);

    await clickAndNavigate(page, `${PAGINATION}:text-is("3")`);
    assert.equal(query(page).get('page'), '3');
    const onThird = await cardNames(page);
    assert.equal(onThird.length, TOTAL - 2 * PER_PAGE, 'the rest on page 3');

    const all = [...first, ...onSecond, ...onThird];
    assert.equal(new Set(all).size, TOTAL, `each startup once over the three pages: ${JSON.stringify(all)}`);

    // And back to page 1 by its link.
    await clickAndNavigate(page, `${PAGINATION}:text-is("1")`);
    assert.deepEqual(await cardNames(page), first);
    await done(context);
  });

  it('filters with a GET form: Uygula, the Back button, Temizle keeps the sort, Sıfırla resets', async () => {
    const { context, page } = await open();
    await page.goto(server.url('/startups'));

    const form = page.locator(FILTERS);
    assert.equal((await form.getAttribute('method')).toLowerCase(), 'get');
    assert.equal(await form.getAttribute('action'), '/startups');
    for (const id of ['fund', 'sector', 'city', 'goal', 'investors', 'completion', 'sort']) {
      assert.equal(await page.locator(`${FILTERS} select#filter-${id}`).count(), 1, `the form has #filter-${id}`);
    }
    assert.equal((await page.textContent(`${FILTERS} button[type=submit]`)).trim(), TR.apply);
    const clear = page.locator(`${FILTERS} a`, { hasText: TR.clear });
    const reset = page.locator(`${FILTERS} a`, { hasText: TR.reset });
    assert.equal(await clear.count(), 1);
    assert.equal(await reset.getAttribute('href'), '/startups');

    // Sector: fintech.
    await page.selectOption('#filter-sector', { label: 'Finansal teknoloji' });
    assert.equal(await page.inputValue('#filter-sector'), 'fintech');
    const applied = await clickAndNavigate(page, `${FILTERS} button[type=submit]`);
    assert.equal(applied.status(), 200);
    assert.equal(applied.request().method(), 'GET');
    assert.equal(pathOf(page), '/startups');
    assert.equal(query(page).get('sector'), 'fintech');
    assert.equal(await countText(page), TR.count(FINTECH.length));
    assert.deepEqual([...(await cardNames(page))].sort(), [...FINTECH].sort());
    assert.equal(await page.inputValue('#filter-sector'), 'fintech', 'the filter shows what is applied');

    // The browser's Back button: the unfiltered list again.
    await page.goBack();
    assert.equal(pathAndQuery(page), '/startups');
    assert.equal(await countText(page), TR.count(TOTAL));
    assert.equal((await cardNames(page)).length, PER_PAGE);

    // Forward again, then add a sort: Temizle drops the filters but keeps the sort.
    await page.goForward();
    assert.equal(query(page).get('sector'), 'fintech');
    await page.selectOption('#filter-sort', 'a-z');
    await page.selectOption('#filter-city', 'İstanbul');
    await clickAndNavigate(page, `${FILTERS} button[type=submit]`);
    assert.equal(query(page).get('sector'), 'fintech');
    assert.equal(query(page).get('city'), 'İstanbul');
    assert.equal(query(page).get('sort'), 'a-z');
    assert.deepEqual(await cardNames(page), ['Ödeme Köprüsü', 'Zeytin Finans'], 'fintech in İstanbul, A-Z');
    assert.equal(await countText(page), TR.count(2));

    assert.equal(await clear.getAttribute('href'), '/startups?sort=a-z', 'Temizle keeps only the sort');
    await clickAndNavigate(page, `${FILTERS} a:has-text("${TR.clear}")`);
    assert.equal(pathAndQuery(page), '/startups?sort=a-z');
    assert.equal(await countText(page), TR.count(TOTAL));
    assert.equal(await page.inputValue('#filter-sector'), '');
    assert.equal(await page.inputValue('#filter-city'), '');
    assert.equal(await page.inputValue('#filter-sort'), 'a-z');

    // Sıfırla: everything back to the defaults.
    await page.selectOption('#filter-sector', 'fintech');
    await clickAndNavigate(page, `${FILTERS} button[type=submit]`);
    assert.equal(await countText(page), TR.count(FINTECH.length));
    await clickAndNavigate(page, `${FILTERS} a:has-text("${TR.reset}")`);
    assert.equal(pathAndQuery(page), '/startups');
    assert.equal(await countText(page), TR.count(TOTAL));
    assert.equal(await page.inputValue('#filter-sector'), '');
    assert.equal(await page.inputValue('#filter-sort'), 'recent');
    await done(context);
  });

  it('sorts A-Z and Z-A by Turkish collation over every page, and by English collation in English', async () => {
    const { context, page } = await open();

    await page.goto(server.url('/startups'));
    await page.selectOption('#filter-sort', 'a-z');
    await clickAndNavigate(page, `${FILTERS} button[type=submit]`);
    assert.equal(query(page).get('sort'), 'a-z');
    const az = await namesOfAllPages(page, page.url());
    assert.equal(az.length, TOTAL);
    assert.equal(new Set(az).size, TOTAL);
    assertBefore(az, 'Cemre Enerji', 'Çiçek Tarım', ' (C < Ç)');
    assertBefore(az, 'Irmak Su Teknolojileri', 'İnci Sağlık', ' (I < İ)');
    assertBefore(az, 'Otopark Akıl', 'Ödeme Köprüsü', ' (O < Ö)');
    assert.deepEqual(az, [...az].sort(new Intl.Collator('tr').compare), 'the whole list is in Turkish order');

    await page.goto(server.url('/startups'));
    await page.selectOption('#filter-sort', 'z-a');
    await clickAndNavigate(page, `${FILTERS} button[type=submit]`);
    const za = await namesOfAllPages(page, page.url());
    assert.deepEqual(za, [...az].reverse(), 'Z-A is A-Z reversed');
    await done(context);

    // English page (its own context: ?lang= sets the language cookie).
    const en = await open({ locale: 'en-US' });
    const azEn = await namesOfAllPages(en.page, server.url('/startups?sort=a-z&lang=en'));
    assert.equal(await en.page.getAttribute('html', 'lang'), 'en');
    assert.equal(await countText(en.page), EN.count(TOTAL));
    assert.equal(azEn.length, TOTAL);
    assertBefore(azEn, 'İnci Sağlık', 'Irmak Su Teknolojileri', ' in English (İ sorts as I)');
    assert.deepEqual(azEn, [...azEn].sort(new Intl.Collator('en').compare), 'the whole list is in English order');
    await done(en.context);
  });

  it('filters and sorts without JavaScript', async () => {
    const { context, page } = await open({ javaScriptEnabled: false });
    const res = await page.goto(server.url('/startups'));
    assert.equal(res.status(), 200);
    assert.equal(await page.locator('[data-island-mounted]').count(), 0, 'no island runs without JavaScript');
    assert.equal(await countText(page), TR.count(TOTAL));

    await page.selectOption('#filter-sector', 'fintech');
    await page.selectOption('#filter-sort', 'z-a');
    const applied = await clickAndNavigate(page, `${FILTERS} button[type=submit]`);
    assert.equal(applied.status(), 200);
    assert.equal(query(page).get('sector'), 'fintech');
    assert.equal(query(page).get('sort'), 'z-a');
    assert.equal(await countText(page), TR.count(FINTECH.length));
    assert.deepEqual(await cardNames(page), ['Zeytin Finans', 'Ödeme Köprüsü', 'Ekin Kredi']);

    // Pagination is plain links too.
    await clickAndNavigate(page, `${FILTERS} a:has-text("${TR.reset}")`);
    await clickAndNavigate(page, `${PAGINATION}:text-is("3")`);
    assert.equal(query(page).get('page'), '3');
    assert.equal((await cardNames(page)).length, TOTAL - 2 * PER_PAGE);
    await done(context);
  });

  it("a visitor clicking a card's link is sent to sign in, with the startup as next", async () => {
    const { context, page } = await open();
    await page.goto(server.url('/startups'));
    const name = await page.locator(CARD).first().getAttribute('data-name');
    const link = page.locator(`${CARD} h2 a`).first();
    const href = await link.getAttribute('href');
    assert.match(href, /^\/startups\/[a-z0-9-]+$/);
    const res = await Promise.all([page.waitForNavigation(), link.click()]).then(([r]) => r);
    assert.equal(res.status(), 200);
    assert.equal(pathAndQuery(page), `/signin?next=${href}`);
    assert.equal(await page.locator('form[action="/signin"] #email').count(), 1, 'the sign-in form');

    // A member signing in there lands on the startup.
    const email = uniqueEmail('next');
    const other = await open();
    await joinWith(other.page, { server, sink }, email);
    await done(other.context);
    await page.fill('#email', email);
    await page.fill('#password', PASSWORD);
    const signedIn = await clickAndNavigate(page, SIGNIN_SUBMIT);
    assert.equal(signedIn.status(), 200);
    assert.equal(pathOf(page), href, 'back to the startup after signing in');
    assert.equal((await page.textContent('main h1')).trim(), name, "the startup's own page");
    await done(context);
  });

  // ---- 2. A member on a startup's page -------------------------------------------------

  it('a member reads a startup: analysis tabs, slides and the invest button by period', async () => {
    const { context, page } = await open();
    await join(page, 'detail');

    const res = await page.goto(server.url('/startups/cemre-enerji'));
    assert.equal(res.status(), 200);
    assert.equal((await page.textContent('h1')).trim(), 'Cemre Enerji');

    // Twelve analysis tabs, each pointing at its section, then the page's other sections.
    const tabs = await page.locator('.section-tabs nav a').evaluateAll((as) =>
      as.map((a) => [a.getAttribute('href'), a.textContent.trim()]),
    );
    assert.deepEqual(tabs.slice(0, SECTIONS.length), SECTIONS.map(([id, label]) => [`#${id}`, label]));
    for (const [href] of tabs) {
      assert.equal(await page.locator(href).count(), 1, `${href} is on the page`);
    }
    for (const [id] of SECTIONS) {
      assert.equal(await page.locator(`section#${id}`).count(), 1, `section #${id} exists`);
    }

    // Riskler scrolls its section into view.
    assert.equal(await page.evaluate(() => window.scrollY), 0, 'the page starts at the top');
    await page.click('.section-tabs nav a[href="#risks"]');
    await page.waitForFunction(() => {
      const r = document.getElementById('risks').getBoundingClientRect();
      return location.hash === '#risks' && window.scrollY > 0 && r.top >= -2 && r.top < window.innerHeight / 2;
    });
    assert.equal(pathOf(page), '/startups/cemre-enerji', 'the tab does not leave the page');

    // The presentation's slides load (they are lazy: scroll to each).
    const slides = page.locator('ol.slides img');
    const count = await slides.count();
    assert.ok(count >= 1, 'the presentation has slides');
    for (let i = 0; i < count; i++) {
      const slide = slides.nth(i);
      await slide.scrollIntoViewIfNeeded();
      await page.waitForFunction((el) => el.complete, await slide.elementHandle());
      const width = await slide.evaluate((el) => el.naturalWidth);
      assert.ok(width > 0, `slide ${i + 1} (${await slide.getAttribute('src')}) loaded`);
    }

    // The invest button of an open investment period.
    const invest = page.locator(investLink('cemre-enerji'));
    assert.equal(await invest.count(), 1);
    assert.equal((await invest.textContent()).trim(), TR.invest);

    // A pre-investment period.
    await page.goto(server.url('/startups/rota-mobilite'));
    const pre = page.locator(investLink('rota-mobilite'));
    assert.equal(await pre.count(), 1);
    assert.equal((await pre.textContent()).trim(), TR.preInvest);

    // A funded startup: no invest link, and the flow says so.
    await page.goto(server.url('/startups/zeytin-finans'));
    assert.ok((await page.textContent('main')).includes(TR.closed));
    assert.equal(await page.locator('main a[href^="/investmentFlow"]').count(), 0, 'no invest link');
    const flow = await page.goto(server.url('/investmentFlow?startup=zeytin-finans'));
    assert.equal(flow.status(), 409);
    assert.ok((await page.textContent('main')).includes(TR.closedFlow));
    await done(context);
  });

  it('a member saves a startup to the favourites and removes it again', async () => {
    const { context, page } = await open();
    await join(page, 'favorites');

    await page.goto(server.url('/favorites'));
    assert.ok((await page.textContent('main')).includes(TR.favoritesEmpty), 'a new member has no favourites');
    assert.equal(await page.locator(CARD).count(), 0);

    await page.goto(server.url('/startups/cemre-enerji'));
    assert.equal((await page.textContent(FAVORITE)).trim().replace(/^☆\s*/, ''), TR.save);
    assert.equal(await page.getAttribute(FAVORITE, 'aria-pressed'), 'false');
    const saved = await clickAndNavigate(page, FAVORITE);
    assert.equal(saved.status(), 200);
    assert.equal(pathOf(page), '/startups/cemre-enerji', 'back on the startup');
    const flash = await texts(page, '.flash.flash--success');
    assert.ok(flash.some((t) => t.includes(TR.saved)), `flash: ${JSON.stringify(flash)}`);
    assert.ok((await page.textContent(FAVORITE)).includes(TR.unsave), 'the button now removes');
    assert.equal(await page.getAttribute(FAVORITE, 'aria-pressed'), 'true');

    await page.goto(server.url('/favorites'));
    assert.deepEqual(await cardNames(page), ['Cemre Enerji']);
    assert.equal(await page.locator(`${CARD} a[href="/startups/cemre-enerji"]`).count(), 1);
    assert.ok(!(await page.textContent('main')).includes(TR.favoritesEmpty));

    await page.goto(server.url('/startups/cemre-enerji'));
    const removed = await clickAndNavigate(page, FAVORITE);
    assert.equal(removed.status(), 200);
    const flash2 = await texts(page, '.flash.flash--success');
    assert.ok(flash2.some((t) => t.includes(TR.unsaved)), `flash: ${JSON.stringify(flash2)}`);
    assert.ok((await page.textContent(FAVORITE)).includes(TR.save));
    assert.ok(!(await page.textContent(FAVORITE)).includes(TR.unsave));

    await page.goto(server.url('/favorites'));
    assert.equal(await page.locator(CARD).count(), 0);
    assert.ok((await page.textContent('main')).includes(TR.favoritesEmpty));
    await done(context);
  });

  // ---- 3. Stopped by missing MKK data ---------------------------------------------------

  it('missing MKK data stops the investment; the MKK form refuses bad numbers and saves good ones', async () => {
    const { context, page } = await open();
    const email = await join(page, 'mkk');

    await page.goto(server.url('/startups/cemre-enerji'));
    const blocked = await clickAndNavigate(page, investLink('cemre-enerji'));
    assert.equal(blocked.status(), 200);
    assert.equal(pathAndQuery(page), '/investmentFlow?startup=cemre-enerji');
    assert.ok((await page.textContent('main')).includes(TR.needsMkk));
    assert.equal(await page.locator('form.investment-form, [data-island="investment"]').count(), 0, 'no amount form yet');

    // The link carries the investment, so saving the form continues it.
    const form = await clickAndNavigate(page, 'main a[href^="/mkk"]');
    assert.equal(form.status(), 200);
    assert.equal(pathOf(page), '/mkk');
    assert.equal(await page.getAttribute('.page-back a', 'href'), '/investmentFlow?startup=cemre-enerji', 'a way back');
    for (const id of ['investor_type', 'id_type', 'citizen-yes', 'citizen-no', ...TEXT_FIELDS]) {
      assert.equal(await page.locator(`form[action="/mkk"] #${id}`).count(), 1, `the form has #${id}`);
    }
    assert.equal(await page.getAttribute('#birth_date', 'type'), 'date');
    assert.equal(await page.getAttribute('#citizen-yes', 'type'), 'radio');
    assert.equal(await page.locator(MKK_SUBMIT).count(), 1);
    assert.ok((await page.textContent('main')).includes(TR.edevletSoon), 'e-government verification is coming soon');
    assert.equal(await page.locator('.mkk-status').count(), 0, 'nothing submitted yet');
    // Prefilled from the profile.
    assert.equal(await page.inputValue('#first_name'), 'Ayşe');
    assert.equal(await page.inputValue('#investor_type'), 'individual');

    /** Submits `values` (over the valid individual) and expects a 422 with `message` on `field`. */
    async function refused(values, field, message) {
      const typed = { ...MKK_INDIVIDUAL, ...values };
      await fillMkk(page, typed);
      const res = await clickAndNavigate(page, MKK_SUBMIT);
      assert.equal(res.status(), 422, `${JSON.stringify(values)} answered ${res.status()}`);
      assert.equal(pathOf(page), '/mkk');
      const error = (await page.textContent(`#${field}-error`))?.trim() ?? '';
      assert.ok(error.includes(message), `${field} error for ${JSON.stringify(values)}: "${error}"`);
      assert.ok((await texts(page, '.flash.flash--error')).some((t) => t.includes(TR.formHasErrors)));
      await assertMkkKept(page, typed);
      assert.equal(await page.locator('.mkk-status').count(), 0, 'nothing was saved');
    }

    await refused({ identity_number: '1000000014' }, 'identity_number', TR.tcknLength);
    await refused({ identity_number: '10000000147' }, 'identity_number', TR.idInvalid);
    await refused(
      { investor_type: 'corporate', id_type: 'vkn', identity_number: '454053692', organisation: 'Anadolu Holding A.Ş.' },
      'identity_number',
      TR.vknLength,
    );
    await refused({ identity_number: '1000000014a' }, 'identity_number', TR.digitsOnly);
    await refused({ citizen: 'no' }, 'id_type', TR.idTypeMismatch);

    // A valid individual: saved, the member is back at the investment that sent them, which
    // waits until staff verify the data.
    const individual = { ...MKK_INDIVIDUAL };
    await fillMkk(page, individual);
    const saved = await clickAndNavigate(page, MKK_SUBMIT);
    // The amount page answers 409 while staff review the data: the member has nothing to fix.
    assert.equal(saved.status(), 409);
    assert.equal(pathAndQuery(page), '/investmentFlow?startup=cemre-enerji', 'the investment continues');
    const flash = await texts(page, '.flash.flash--success');
    assert.ok(flash.some((t) => t.includes(TR.mkkSaved)), `flash: ${JSON.stringify(flash)}`);
    assert.ok((await page.textContent('main')).includes(TR.mkkVerifying), 'the data is being verified');
    assert.equal(await page.locator('form.investment-form, [data-island="investment"]').count(), 0, 'no amount form before verification');
    await page.goto(server.url('/mkk'));
    assert.ok((await page.textContent('.mkk-status')).includes(TR.mkkSubmitted));
    assert.equal(await page.inputValue('#identity_number'), individual.identity_number, 'the saved data is shown');
    assert.equal(await page.inputValue('#birth_date'), MKK_INDIVIDUAL.birth_date);
    assert.equal(await page.isChecked('#citizen-yes'), true);

    // A valid corporate investor.
    await fillMkk(page, MKK_CORPORATE);
    const corporate = await clickAndNavigate(page, MKK_SUBMIT);
    assert.equal(corporate.status(), 200);
    assert.equal(pathOf(page), '/mkk');
    const flash2 = await texts(page, '.flash.flash--success');
    assert.ok(flash2.some((t) => t.includes(TR.mkkSaved)), `flash: ${JSON.stringify(flash2)}`);
    assert.ok((await page.textContent('.mkk-status')).includes(TR.mkkSubmitted));
    assert.equal(await page.inputValue('#investor_type'), 'corporate');
    assert.equal(await page.inputValue('#id_type'), 'vkn');
    assert.equal(await page.inputValue('#identity_number'), MKK_CORPORATE.identity_number);
    assert.equal(await page.inputValue('#organisation'), MKK_CORPORATE.organisation);

    // Verified (as staff's review does), "Yatırım yap" opens the amount page.
    verifyMkk(server, email);
    await page.goto(server.url('/startups/cemre-enerji'));
    const amount = await clickAndNavigate(page, investLink('cemre-enerji'));
    assert.equal(amount.status(), 200);
    assert.equal(pathAndQuery(page), '/investmentFlow?startup=cemre-enerji');
    await page.waitForSelector('form.investment-form, [data-island="investment"]', { state: 'attached' });
    assert.ok(!(await page.textContent('main')).includes(TR.needsMkk));
    assert.ok(!(await page.textContent('main')).includes(TR.mkkVerifying));
    await done(context);
  });

  // ---- 4. The amount form without JavaScript ------------------------------------------

  it('the plain amount form refuses amounts out of range, creates a valid request, which can be cancelled', async () => {
    const { context, page } = await open({ javaScriptEnabled: false });
    await memberWithMkk(page, 'amount');

    const res = await page.goto(server.url('/investmentFlow?startup=cemre-enerji'));
    assert.equal(res.status(), 200);
    assert.equal(await page.locator('form.investment-form').count(), 1, 'the plain form is there without JavaScript');
    assert.ok((await page.textContent('h1')).includes('Cemre Enerji'));

    async function refused(typed, message) {
      await page.fill('#amount', typed);
      await page.check('#risk');
      const r = await clickAndNavigate(page, AMOUNT_SUBMIT);
      assert.equal(r.status(), 422, `"${typed}" answered ${r.status()}`);
      assert.equal(pathOf(page), '/investmentFlow');
      const error = (await page.textContent('#amount-error'))?.trim() ?? '';
      assert.ok(error.includes(message), `error for "${typed}": "${error}"`);
      assert.equal(await page.inputValue('#amount'), typed, 'the typed amount is kept');
      assert.equal(await page.isChecked('#risk'), true, 'the accepted risk stays accepted');
    }

    await refused('99.999', TR.minimum);
    await refused('60.000.000', TR.maximum);
    await refused('yüz bin', TR.number);

    // A valid amount is refused until the round's information form was opened (SPK), which
    // the page links; opened, the same request goes through.
    const formLink = await page.getAttribute('a[href^="/startups/cemre-enerji/documents/"]', 'href');
    assert.ok(formLink, 'the amount page links the information form');
    await page.fill('#amount', '150.000');
    await page.check('#risk');
    const unread = await clickAndNavigate(page, AMOUNT_SUBMIT);
    assert.equal(unread.status(), 422);
    assert.equal((await page.textContent('#risk-error')).trim(), TR.openInformationForm);
    assert.equal(await openInformationForm(page, server, 'cemre-enerji'), formLink);
    await page.goto(server.url('/investmentFlow?startup=cemre-enerji'));
    await page.fill('#amount', '150.000');
    await page.check('#risk');
    const created = await clickAndNavigate(page, AMOUNT_SUBMIT);
    assert.equal(created.status(), 200);
    assert.equal(pathOf(page), '/investmentFlow/created');
    assert.ok((await page.textContent('main')).includes(TR.created));

    const pending = await clickAndNavigate(page, 'main a[href="/pendingInvestments"]');
    assert.equal(pending.status(), 200);
    const cards = page.locator('article.request-card');
    assert.equal(await cards.count(), 1, 'one request: the refused ones made none');
    const card = cards.first();
    assert.equal((await card.locator('h2').textContent()).trim(), 'Cemre Enerji');
    assert.equal((await card.locator('.badge').textContent()).trim(), TR.submitted);
    assert.ok((await card.textContent()).includes('150.000 TL'), `the card: ${await card.textContent()}`);

    const cancel = await clickAndNavigate(page, CANCEL);
    assert.equal(cancel.status(), 200);
    assert.equal(pathOf(page), '/pendingInvestments');
    const flash = await texts(page, '.flash.flash--success');
    assert.ok(flash.some((t) => t.includes(TR.cancelled)), `flash: ${JSON.stringify(flash)}`);
    assert.equal((await page.locator('article.request-card .badge').textContent()).trim(), TR.statusCancelled);
    assert.equal(await page.locator(CANCEL).count(), 0, 'a cancelled request cannot be cancelled again');
    await done(context);
  });

  // On a 422 re-render the summary follows the amount that was used, a quick pick included.
  it(
    'a quick amount sent without accepting the risk keeps its summary on the 422 page',
    async () => {
      const { context, page } = await open({ javaScriptEnabled: false });
      await memberWithMkk(page, 'quick');
      await page.goto(server.url('/investmentFlow?startup=cemre-enerji'));
      await page.check('#quick-250000');
      const res = await clickAndNavigate(page, AMOUNT_SUBMIT);
      assert.equal(res.status(), 422);
      assert.ok((await page.textContent('#risk-error')).includes('risk bildirimini kabul etmelisiniz'));
      assert.equal(await page.isChecked('#quick-250000'), true, 'the quick choice is kept');
      assert.equal((await page.textContent('.investment-summary dd[data-field="amount"]')).trim(), '250.000 TL');
      await done(context);
    },
  );

  // ---- 5. English -----------------------------------------------------------------------

  it('the MKK and amount forms speak English', async () => {
    const { context, page } = await open({ locale: 'en-US', javaScriptEnabled: false });
    const email = await join(page, 'english');

    const mkk = await page.goto(server.url('/mkk?lang=en'));
    assert.equal(mkk.status(), 200);
    assert.equal(await page.getAttribute('html', 'lang'), 'en');
    await fillMkk(page, { ...MKK_INDIVIDUAL, identity_number: '1000000014' });
    const refused = await clickAndNavigate(page, MKK_SUBMIT);
    assert.equal(refused.status(), 422);
    assert.equal((await page.textContent('#identity_number-error')).trim(), EN.tcknLength);

    await fillMkk(page, MKK_INDIVIDUAL);
    const saved = await clickAndNavigate(page, MKK_SUBMIT);
    assert.equal(saved.status(), 200);
    // Until verified the amount page says so, in English.
    await page.goto(server.url('/investmentFlow?startup=cemre-enerji&lang=en'));
    assert.ok((await page.textContent('main')).includes(EN.mkkVerifying), 'the English page says the data is being verified');
    verifyMkk(server, email);

    await page.goto(server.url('/investmentFlow?startup=cemre-enerji&lang=en'));
    assert.equal(await page.getAttribute('html', 'lang'), 'en');
    await page.fill('#amount', '5.000');
    await page.check('#risk');
    const low = await clickAndNavigate(page, AMOUNT_SUBMIT);
    assert.equal(low.status(), 422);
    assert.equal((await page.textContent('#amount-error')).trim(), EN.minimum);
    await done(context);
  });

  // English pages write "100,000 TL", so a typed "250,000" must be read as 250.000 TL.
  it(
    'the English amount form accepts English thousands separators ("250,000")',
    async () => {
      const { context, page } = await open({ locale: 'en-US', javaScriptEnabled: false });
      await memberWithMkk(page, 'english-comma');
      // A request needs the round's information form opened first.
      await openInformationForm(page, server, 'cemre-enerji');
      await page.goto(server.url('/investmentFlow?startup=cemre-enerji&lang=en'));
      // The page itself writes amounts this way ("The minimum is 100,000 TL.").
      assert.ok((await page.textContent('main')).includes('100,000 TL'));
      await page.fill('#amount', '250,000');
      await page.check('#risk');
      const res = await clickAndNavigate(page, AMOUNT_SUBMIT);
      const error = await page.locator('#amount-error').textContent().catch(() => null);
      assert.equal(res.status(), 200, `"250,000" answered ${res.status()}: ${error}`);
      assert.equal(pathOf(page), '/investmentFlow/created');
      await done(context);
    },
  );
});
