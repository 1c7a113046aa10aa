// Language choice: Accept-Language on a first visit, the header's TR/EN toggle, and the
// `locale` cookie (one year) that keeps the choice across reloads and pages.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertOnlyLoopback, clickAndNavigate, launchBrowser, newContext, startServer } from './helpers.mjs';

const H1_TR = 'Fonların onayladığı girişimlere birlikte yatırım yapın';
const H1_EN = 'Co-invest in startups that venture funds have approved';
const ONE_YEAR = 31_536_000;

describe('language', () => {
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

  const lang = (page) => page.getAttribute('html', 'lang');
  const h1 = async (page) => (await page.locator('h1').first().textContent())?.trim();

  it('defaults to Turkish and the toggle switches to English and back, remembered by a cookie', async () => {
    const context = await newContext(browser, { locale: 'tr-TR' });
    const page = await context.newPage();

    const res = await page.goto(server.url('/'));
    assert.equal(res.status(), 200);
    assert.equal(await lang(page), 'tr');
    assert.ok((await h1(page)).includes(H1_TR), `h1 was: ${await h1(page)}`);

    const toggle = page.locator('a.lang-toggle');
    assert.equal((await toggle.textContent()).trim(), 'EN');
    const toEn = await clickAndNavigate(page, 'a.lang-toggle');
    assert.ok(toEn.ok(), `toggle answered ${toEn.status()}`);
    assert.equal(new URL(page.url()).pathname, '/');
    assert.equal(await lang(page), 'en');
    assert.ok((await h1(page)).includes(H1_EN), `h1 was: ${await h1(page)}`);

    const cookie = (await context.cookies(server.baseURL)).find((c) => c.name === 'locale');
    assert.ok(cookie, 'a cookie named "locale" is set');
    assert.equal(cookie.value, 'en');
    const lifetime = cookie.expires - Date.now() / 1000;
    assert.ok(Math.abs(lifetime - ONE_YEAR) < 600, `cookie lives ${lifetime} s, not about one year`);

    await page.reload();
    assert.equal(await lang(page), 'en', 'a reload stays English');
    assert.ok((await h1(page)).includes(H1_EN));

    const faq = await page.goto(server.url('/faq'));
    assert.equal(faq.status(), 200);
    assert.equal(await lang(page), 'en', '/faq stays English');

    assert.equal((await page.locator('a.lang-toggle').textContent()).trim(), 'TR');
    await clickAndNavigate(page, 'a.lang-toggle');
    assert.equal(new URL(page.url()).pathname, '/faq', 'the toggle keeps the path');
    assert.equal(await lang(page), 'tr');
    const back = (await context.cookies(server.baseURL)).find((c) => c.name === 'locale');
    assert.equal(back?.value, 'tr');

    await page.goto(server.url('/'));
    assert.equal(await lang(page), 'tr', 'Turkish is remembered too');
    assert.ok((await h1(page)).includes(H1_TR));

    assertOnlyLoopback(context);
    await context.close();
  });

  it('a first visit with an English Accept-Language gets English', async () => {
    const context = await newContext(browser, { locale: 'en-US' });
    const page = await context.newPage();
    const res = await page.goto(server.url('/'));
    assert.equal(res.status(), 200);
    assert.equal(await lang(page), 'en');
    assert.ok((await h1(page)).includes(H1_EN), `h1 was: ${await h1(page)}`);
    assertOnlyLoopback(context);
    await context.close();
  });
});
