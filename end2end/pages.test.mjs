// Every public content page answers in both languages with the document shell the spec asks
// for (title, description, hreflang alternates, header/footer by layout), the 404 page is
// localized, and pages load no inline script, only island modules from /assets/islands/.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertOnlyLoopback, launchBrowser, newContext, startServer, withLang } from './helpers.mjs';

const POLICIES = [
  'degerlendirme-politikasi',
  'genel-risk-bildirimi',
  'cikar-catismasi',
  'bilgi-guvenligi',
  'kvkk-genel-aydinlatma-metni',
  'cerez-politikasi',
  'uyelik-sozlesmesi',
  'kitle-fonlamasi',
  'uye-elektronik-ticaret',
];
const PAGES = [...POLICIES.map((slug) => `/politikalar/${slug}`), '/faq', '/blog', '/techinvestor'];
const NO_HEADER = new Set(['/techinvestor']);

/** Turkish: a Turkish browser, plain paths. English: ?lang=en (in its own context). */
const LANGS = [
  { lang: 'tr', locale: 'tr-TR', path: (p) => p },
  { lang: 'en', locale: 'en-US', path: (p) => withLang(p, 'en') },
];

async function checkShell(page, response, { path, lang, header }) {
  const where = `${path} (${lang})`;
  assert.equal(response.status(), 200, `${where} answered ${response.status()}`);
  assert.equal(await page.getAttribute('html', 'lang'), lang, `${where} <html lang>`);

  const h1 = (await page.locator('h1').first().textContent({ timeout: 2_000 }).catch(() => ''))?.trim();
  assert.ok(h1, `${where} has a non-empty h1`);
  assert.ok((await page.title()).trim(), `${where} has a <title>`);
  const description = await page.getAttribute('meta[name="description"]', 'content', { timeout: 2_000 }).catch(() => null);
  assert.ok(description?.trim(), `${where} has a meta description`);
  for (const hreflang of ['tr', 'en']) {
    const href = await page
      .getAttribute(`link[rel="alternate"][hreflang="${hreflang}"]`, 'href', { timeout: 2_000 })
      .catch(() => null);
    assert.ok(href, `${where} has link rel=alternate hreflang=${hreflang}`);
  }

  assert.equal(await page.locator('header.site-header').count(), header ? 1 : 0, `${where} header.site-header`);
  assert.equal(await page.locator('footer.site-footer').count(), 1, `${where} footer.site-footer`);
}

describe('pages', () => {
  let server;
  let browser;

  before(async () => {
    server = await startServer();
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  for (const { lang, locale, path: localized } of LANGS) {
    it(`content pages answer in ${lang} with the full document shell`, async () => {
      const context = await newContext(browser, { locale, javaScriptEnabled: false });
      const page = await context.newPage();

      for (const path of PAGES) {
        const response = await page.goto(server.url(localized(path)));
        await checkShell(page, response, { path, lang, header: !NO_HEADER.has(path) });
      }

      // The first blog post linked from the blog index.
      await page.goto(server.url(localized('/blog')));
      const href = await page.getAttribute('ul.post-list a', 'href');
      assert.ok(href, `/blog (${lang}) links to a post from ul.post-list`);
      const postPath = new URL(href, server.baseURL).pathname;
      const response = await page.goto(server.url(localized(postPath)));
      await checkShell(page, response, { path: postPath, lang, header: true });

      assertOnlyLoopback(context);
      await context.close();
    });
  }

  for (const { lang, locale, path: localized, title } of [
    { ...LANGS[0], title: 'Sayfa Bulunamadı' },
    { ...LANGS[1], title: 'Page Not Found' },
  ]) {
    it(`an unknown path answers a localized 404 (${lang})`, async () => {
      const context = await newContext(browser, { locale });
      const page = await context.newPage();
      const response = await page.goto(server.url(localized('/no-such-page')));
      assert.equal(response.status(), 404);
      assert.equal(await page.getAttribute('html', 'lang'), lang);
      assert.equal((await page.locator('h1').first().textContent()).trim(), title);
      const hrefs = await page.locator('a[href]').evaluateAll((as) => as.map((a) => a.href));
      assert.ok(
        hrefs.some((h) => new URL(h).pathname === '/'),
        `the 404 page links to the home page; links: ${hrefs.join(', ')}`,
      );
      assertOnlyLoopback(context);
      await context.close();
    });
  }

  it('/techinvestor has no island, so no script at all; /newsletter loads only island modules', async () => {
    const context = await newContext(browser, { locale: 'tr-TR' });
    const page = await context.newPage();
    const scriptsOf = () =>
      page.locator('script').evaluateAll((els) => els.map((s) => ({ src: s.getAttribute('src'), type: s.getAttribute('type') })));
    for (const path of ['/techinvestor', withLang('/techinvestor', 'en')]) {
      await page.goto(server.url(path));
      assert.deepEqual(await scriptsOf(), [], `${path}: no JavaScript without an island`);
    }
    await page.goto(server.url('/newsletter'));
    const scripts = await scriptsOf();
    assert.ok(scripts.length > 0, "/newsletter: the newsletter island is loaded");
    for (const { src, type } of scripts) {
      assert.ok(src, 'every script has a src (no inline script)');
      assert.ok(new URL(src, server.baseURL).pathname.startsWith('/assets/islands/'), `script ${src}`);
      assert.equal(type, 'module', `script ${src} is a module`);
    }
    assertOnlyLoopback(context);
    await context.close();
  });

  it('the stylesheet, island modules and their preloaded chunks are served from /assets/', async () => {
    const context = await newContext(browser, { locale: 'tr-TR' });
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (err) => errors.push(String(err)));
    const failed = [];
    page.on('response', (res) => {
      if (res.status() >= 400 && !res.url().endsWith('/favicon.ico')) failed.push(`${res.status()} ${res.url()}`);
    });
    await page.goto(server.url('/newsletter'));
    await page.waitForLoadState('networkidle');

    const css = await page.locator('link[rel="stylesheet"]').evaluateAll((ls) => ls.map((l) => l.href));
    assert.ok(css.some((h) => /^\/assets\/main-[^/]+\.css$/.test(new URL(h).pathname)), `stylesheets: ${css}`);
    const preloads = await page.locator('link[rel="modulepreload"]').evaluateAll((ls) => ls.map((l) => l.href));
    const scripts = await page.locator('script[src]').evaluateAll((ss) => ss.map((s) => s.src));
    for (const url of [...css, ...preloads, ...scripts]) {
      const res = await page.request.get(url);
      assert.equal(res.status(), 200, `${url} answered ${res.status()}`);
    }
    assert.deepEqual(failed, [], 'no request failed');
    assert.deepEqual(errors, [], 'no script error');
    await page.waitForSelector('[data-island="newsletter"][data-island-ready="1"]', { state: 'attached' });
    assertOnlyLoopback(context);
    await context.close();
  });
});
