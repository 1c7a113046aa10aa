// Professional-network ("LinkedIn") sign-in with OpenID Connect, against a stand-in provider
// (end2end/oidc-provider.mjs) on 127.0.0.1: the link appears only when configured; a new
// member goes through the provider, accepts the terms and starts onboarding; a returning one
// signs straight in; an identity whose e-mail the provider has not verified is refused, and so
// are ID tokens that are forged, expired or meant for someone else, and a callback that does not
// belong to this browser's attempt. The LinkedIn link keeps ?next=, and claiming an unverified
// account through LinkedIn ends the access of whoever created it (no pre-hijacking).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertOnlyLoopback, clickAndNavigate, launchBrowser, newContext, startServer, uniqueEmail } from './helpers.mjs';
import { AVATAR, PASSWORD, PERSON, assertSignedIn, fillSignup, pathAndQuery, pathOf, signIn, signOut, texts } from './journeys.mjs';
import { startOidcProvider } from './oidc-provider.mjs';

const OIDC_LINK = 'a[href="/signin/oidc"]';
const TERMS_SUBMIT = 'form[action="/signin/oidc/terms"] button[type=submit]';

const TR = {
  linkText: 'LinkedIn ile giriş yap',
  terms: 'Kullanım koşullarını kabul etmelisiniz',
  failed: 'LinkedIn ile giriş yapılamadı',
};

describe('sign-in with LinkedIn (OpenID Connect)', () => {
  let provider;
  let server;
  let browser;

  before(async () => {
    provider = await startOidcProvider({ clientId: 'ortak-e2e' });
    server = await startServer({ env: provider.serverEnv });
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
    await provider?.close();
  });

  async function open(locale = 'tr-TR') {
    const context = await newContext(browser, { locale });
    return { context, page: await context.newPage() };
  }

  async function done(context) {
    assertOnlyLoopback(context);
    await context.close();
  }

  /** The provider's log entries for `path` since index `from`. */
  const calls = (from, path) => provider.log.slice(from).filter((e) => e.path === path);

  it('is not offered when the server has no OpenID Connect settings', async () => {
    const plain = await startServer();
    try {
      const { context, page } = await open();
      const signin = await page.goto(plain.url('/signin'));
      assert.equal(signin.status(), 200);
      assert.equal(await page.locator(OIDC_LINK).count(), 0, 'no LinkedIn link');
      assert.ok(!(await page.textContent('body')).includes(TR.linkText), 'no LinkedIn text');
      const start = await page.goto(plain.url('/signin/oidc'));
      assert.equal(start.status(), 404, '/signin/oidc does not exist without the settings');
      assert.equal(pathOf(page), '/signin/oidc', 'and it sends nobody anywhere');
      await done(context);
    } finally {
      await plain.stop();
    }
  });

  it('a new member signs in through the provider, accepts the terms and starts onboarding; then signs straight in', async () => {
    const { context, page } = await open();
    const email = uniqueEmail('oidc');
    provider.user = { sub: `sub-${email}`, email, given_name: 'Deniz', family_name: 'Aksoy' };
    provider.emailVerified = true;
    const from = provider.log.length;

    const signin = await page.goto(server.url('/signin'));
    assert.equal(signin.status(), 200);
    const link = page.locator(OIDC_LINK);
    assert.equal(await link.count(), 1, 'the sign-in page offers LinkedIn');
    assert.equal((await link.textContent()).trim(), TR.linkText);

    // Through the provider (it answers at once) and back: the terms page for the new address.
    const terms = await clickAndNavigate(page, OIDC_LINK);
    assert.equal(terms.status(), 200, `landed on ${page.url()} with ${terms.status()}; provider: ${JSON.stringify(provider.log.slice(from))}`);
    assert.equal(pathOf(page), '/signin/oidc/terms');
    assert.ok((await page.textContent('main')).includes(email), 'the terms page shows the address');
    assert.equal(await page.isChecked('#terms'), false);
    assert.equal(await page.locator('a[href="/politikalar/uyelik-sozlesmesi"]').count() >= 1, true, 'links the terms');
    const authorize = calls(from, '/authorize');
    assert.equal(authorize.length, 1);
    assert.equal(authorize[0].status, 303, `the provider accepted the request: ${authorize[0].why}`);
    const token = calls(from, '/token');
    assert.equal(token.length, 1, 'the code was exchanged once');
    assert.equal(token[0].status, 200, `the provider accepted the exchange (secret, PKCE): ${token[0].why}`);
    assert.ok(calls(from, '/jwks').length >= 1, 'the ID token was checked against the provider keys');

    // Not a member yet: the header (on the home page) still offers sign-in.
    await page.goto(server.url('/'));
    assert.equal(await page.locator(AVATAR).count(), 0, 'no account before the terms are accepted');
    await page.goto(server.url('/signin/oidc/terms'));

    // Without ticking the box: refused.
    const refused = await clickAndNavigate(page, TERMS_SUBMIT);
    assert.equal(refused.status(), 422);
    assert.equal(pathOf(page), '/signin/oidc/terms');
    const errors = await texts(page, 'p.field__error');
    assert.ok(errors.some((t) => t.includes(TR.terms)), `errors: ${JSON.stringify(errors)}`);
    assert.ok((await page.textContent('main')).includes(email), 'still shows the address');

    // Accepted: the account exists, signed in, onboarding starts.
    await page.check('#terms');
    const accepted = await clickAndNavigate(page, TERMS_SUBMIT);
    assert.equal(accepted.status(), 200);
    assert.equal(pathOf(page), '/boardingFlow/1', 'a new member starts onboarding');
    await page.goto(server.url('/'));
    await assertSignedIn(page, 'Deniz Aksoy');

    // The pending identity was used up: the terms page now sends away (to sign-in, which
    // sends a signed-in member home).
    await page.goto(server.url('/signin/oidc/terms'));
    assert.notEqual(pathOf(page), '/signin/oidc/terms', 'no pending LinkedIn identity any more');
    assert.equal(await page.locator(TERMS_SUBMIT).count(), 0);

    // Signed out, the same LinkedIn identity signs straight in (no terms again).
    await signOut(page, server);
    const again = provider.log.length;
    await page.goto(server.url('/signin'));
    const back = await clickAndNavigate(page, OIDC_LINK);
    assert.equal(back.status(), 200);
    assert.equal(pathOf(page), '/overview', 'straight in, to the overview');
    await assertSignedIn(page, 'Deniz Aksoy');
    assert.equal(calls(again, '/token').length, 1, 'through the provider again');
    await done(context);
  });

  it('refuses an identity whose e-mail address the provider has not verified', async () => {
    const { context, page } = await open();
    const email = uniqueEmail('oidc-unverified');
    provider.user = { sub: `sub-${email}`, email, given_name: 'Ece', family_name: 'Demir' };
    provider.emailVerified = false;
    const from = provider.log.length;
    try {
      await page.goto(server.url('/signin'));
      const response = await clickAndNavigate(page, OIDC_LINK);
      assert.equal(calls(from, '/token')[0]?.status, 200, 'the provider itself answered');
      assert.ok(response.status() >= 400, `an error status, not ${response.status()}`);
      assert.ok((await page.textContent('body')).includes(TR.failed), `the page explains: ${await page.textContent('main')}`);
      assert.notEqual(pathOf(page), '/signin/oidc/terms');
      assert.equal(await page.locator(AVATAR).count(), 0, 'not signed in');
      await page.goto(server.url('/signin/oidc/terms'));
      assert.equal(pathOf(page), '/signin', 'nothing is pending');
      await page.goto(server.url('/'));
      assert.equal(await page.locator(AVATAR).count(), 0, 'still not signed in');
    } finally {
      provider.emailVerified = true;
    }
    await done(context);
  });

  /** Signs in with LinkedIn as `user` from the sign-in page at `from`; returns the response. */
  async function linkedIn(page, user, from = '/signin') {
    provider.user = user;
    await page.goto(server.url(from));
    return clickAndNavigate(page, OIDC_LINK);
  }

  it(
    'the LinkedIn link keeps where the visitor was going (?next=)',
    async () => {
      const { context, page } = await open();
      const email = uniqueEmail('oidc-next');
      const user = { sub: `sub-${email}`, email, given_name: 'Nil', family_name: 'Sönmez' };
      // A member already (terms accepted), then signed out.
      await linkedIn(page, user);
      await page.check('#terms');
      await clickAndNavigate(page, TERMS_SUBMIT);
      await signOut(page, server);

      await page.goto(server.url('/profile'));
      assert.equal(pathAndQuery(page), '/signin?next=/profile', 'a visitor is sent to sign in');
      const href = await page.getAttribute('a[href^="/signin/oidc"]', 'href');
      const response = await clickAndNavigate(page, `a[href="${href}"]`);
      assert.equal(response.status(), 200);
      await done(context);
      assert.equal(pathOf(page), '/profile', `back where the member was going, not ${pathAndQuery(page)} (link: ${href})`);
    },
  );

  it(
    'LinkedIn sign-in to an unverified account leaves no access to whoever created it',
    async () => {
      // Someone signs up with the address of another person and never verifies it.
      const email = uniqueEmail('oidc-prehijack');
      const squatter = await open();
      await squatter.page.goto(server.url('/signup'));
      await fillSignup(squatter.page, { ...PERSON, email, password: PASSWORD, password_confirm: PASSWORD, terms: true });
      const signedUp = await clickAndNavigate(squatter.page, 'form.form button[type=submit]');
      assert.equal(signedUp.status(), 200);
      assert.equal(pathOf(squatter.page), '/verification');

      // The owner of the address signs in with LinkedIn, which vouches for it.
      const owner = await open();
      const response = await linkedIn(owner.page, { sub: `sub-${email}`, email, given_name: 'Gerçek', family_name: 'Sahip' });
      assert.ok(response.status() < 400, `the owner got in (${response.status()} at ${owner.page.url()})`);
      await owner.page.goto(server.url('/'));
      const ownerIn = (await owner.page.locator(AVATAR).count()) === 1;
      await done(owner.context);

      // If the owner now uses that account, the squatter must have lost every way in: the
      // session opened at sign-up, and the password chosen then.
      if (ownerIn) {
        await squatter.page.goto(server.url('/profile'));
        const sessionKept = pathOf(squatter.page) === '/profile';
        await done(squatter.context);
        const again = await open();
        const password = await signIn(again.page, server, email, PASSWORD);
        const passwordWorks = password.status() === 200 && (await again.page.locator(AVATAR).count()) === 1;
        await done(again.context);
        assert.deepEqual({ sessionKept, passwordWorks }, { sessionKept: false, passwordWorks: false });
      } else {
        await done(squatter.context);
      }
    },
  );

  // ID tokens the server must not believe, though the provider hands them over (HTTP 200).
  const hourAgo = () => Math.floor(Date.now() / 1000) - 3600;
  const BAD_TOKENS = [
    ['signed with a key the provider does not publish', () => ({ signer: 'foreign' })],
    ['HS256, keyed with the public RSA modulus', () => ({ header: { alg: 'HS256' }, signer: 'hs256' })],
    ['naming an unknown key id', () => ({ header: { kid: 'another-key' } })],
    ['for another client (aud)', () => ({ payload: { aud: 'someone-else' } })],
    ['from another issuer (iss)', () => ({ payload: { iss: 'http://127.0.0.1:9' } })],
    ['expired an hour ago', () => ({ payload: { iat: hourAgo() - 300, exp: hourAgo() } })],
    ['with another nonce', () => ({ payload: { nonce: 'not-the-one-sent' } })],
    ['without a nonce', () => ({ payload: { nonce: undefined } })],
    ['without an e-mail address', () => ({ payload: { email: undefined } })],
  ];
  for (const [name, tweak] of BAD_TOKENS) {
    it(`refuses an ID token ${name}`, async () => {
      const { context, page } = await open();
      const email = uniqueEmail('oidc-bad');
      provider.user = { sub: `sub-${email}`, email, given_name: 'Kötü', family_name: 'Belirteç' };
      provider.tweak = tweak();
      const from = provider.log.length;
      try {
        await page.goto(server.url('/signin'));
        const response = await clickAndNavigate(page, OIDC_LINK);
        assert.equal(calls(from, '/token')[0]?.status, 200, 'the provider handed the token over');
        assert.notEqual(pathOf(page), '/signin/oidc/terms', 'the identity was not believed');
        assert.ok(response.status() >= 400, `an error status, not ${response.status()}`);
        assert.ok((await page.textContent('body')).includes(TR.failed), 'the page explains');
      } finally {
        provider.tweak = null;
      }
      await page.goto(server.url('/signin/oidc/terms'));
      assert.equal(pathOf(page), '/signin', 'nothing is pending');
      assert.equal(await page.locator(AVATAR).count(), 0, 'not signed in');
      await done(context);
    });
  }

  /**
   * Starts an attempt in `page` but holds the browser before it reaches the provider; returns
   * the authorization URL the server sent it to. (Playwright does not route the requests of a
   * redirect chain, so the start's answer is fetched without following it; its cookies still
   * reach the context.)
   */
  async function startHeld(page) {
    let authorizeUrl = null;
    const startUrl = server.url('/signin/oidc');
    await page.route(
      (url) => url.href === startUrl,
      async (route) => {
        const response = await route.fetch({ maxRedirects: 0 });
        authorizeUrl = response.status() === 303 ? new URL(response.headers().location) : null;
        const headers = Object.fromEntries(
          Object.entries(response.headers()).filter(([name]) => !['location', 'content-length', 'content-type'].includes(name)),
        );
        return route.fulfill({ status: 200, headers, contentType: 'text/html', body: '<h1>held</h1>' });
      },
    );
    await page.goto(startUrl);
    await page.unrouteAll();
    assert.ok(authorizeUrl, 'the server sent the browser to the provider');
    return authorizeUrl;
  }

  /** Asks the provider to authorize (as the browser would) and returns where it sends back. */
  async function providerAnswer(authorizeUrl) {
    const response = await fetch(authorizeUrl, { redirect: 'manual' });
    assert.equal(response.status, 303, `the provider accepted the request: ${await response.text()}`);
    return new URL(response.headers.get('location'));
  }

  it('refuses a callback that does not belong to this browser', async () => {
    const { context, page } = await open();
    const from = provider.log.length;
    // No attempt started in this browser: a forged code and state are refused without asking
    // the provider anything.
    const forged = await page.goto(server.url('/signin/oidc/callback?code=forged&state=forged'));
    assert.ok(forged.status() >= 400, `an error status, not ${forged.status()}`);
    assert.ok((await page.textContent('body')).includes(TR.failed));
    assert.equal(calls(from, '/token').length, 0, 'no code exchange');

    // An attempt started in this browser, but the provider's answer comes back with another
    // state: refused, and the code is never exchanged.
    const email = uniqueEmail('oidc-state');
    provider.user = { sub: `sub-${email}`, email, given_name: 'Can', family_name: 'Öz' };
    const authorizeUrl = await startHeld(page);
    assert.equal(authorizeUrl.origin, provider.issuer);
    assert.equal(authorizeUrl.searchParams.get('code_challenge_method'), 'S256');
    assert.equal(authorizeUrl.searchParams.get('redirect_uri'), server.url('/signin/oidc/callback'));
    assert.ok(authorizeUrl.searchParams.get('state') && authorizeUrl.searchParams.get('nonce'), 'state and nonce are sent');
    const answer = await providerAnswer(authorizeUrl);
    assert.equal(answer.href.startsWith(server.url('/signin/oidc/callback?')), true);
    const tamperedUrl = new URL(answer);
    tamperedUrl.searchParams.set('state', `${answer.searchParams.get('state')}x`);
    const tampered = await page.goto(tamperedUrl.href);
    assert.ok(tampered.status() >= 400, `an error status, not ${tampered.status()}`);
    assert.ok((await page.textContent('body')).includes(TR.failed));
    assert.equal(calls(from, '/token').length, 0, 'no code exchange');
    assert.equal(await page.locator(AVATAR).count(), 0, 'not signed in');

    // The control: a fresh attempt whose answer comes back untouched goes through.
    const answer2 = await providerAnswer(await startHeld(page));
    const fine = await page.goto(answer2.href);
    assert.equal(fine.status(), 200);
    assert.equal(pathOf(page), '/signin/oidc/terms', 'the untouched answer is accepted');
    assert.equal(calls(from, '/token').length, 1);
    await done(context);
  });
});
