// Account journeys in a real browser: sign-up with server-side validation, e-mail verification
// by the mailed link (its page, then its one button), the avatar menu and sign-out, sign-in by password, by a mailed single-use
// link and from the keyboard only, forgotten-password recovery (which signs out every other
// session), the English sign-up form, and visitors sent to sign-in and back.
//
// The server sends its mails to a local SMTP sink (end2end/smtp.mjs); the tests read the links
// from there, exactly as a user would from their mailbox. These pages have no islands: every
// form is a plain HTML post, so each submit is a full navigation whose response is checked.
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
import {
  AVATAR,
  LOGOUT,
  PASSWORD,
  PERSON,
  SIGNIN_SUBMIT,
  SIGNUP_SUBMIT,
  VERIFY_BUTTON,
  assertSignedIn,
  fillSignup,
  join as joinWith,
  pathAndQuery,
  pathOf,
  secondFactor,
  signIn as signInWith,
  signOut as signOutWith,
  texts,
} from './journeys.mjs';
import { linkIn, startSmtpSink } from './smtp.mjs';

const NEW_PASSWORD = 'Yeni-Parola-2025?';

const TR = {
  passwordsMatch: 'Şifreler eşleşmelidir',
  phoneIncomplete: 'Lütfen telefon numaranızı eksiksiz girin.',
  verifyTitle: 'E-postanızı doğrulayın',
  verifySubject: 'doğrulayın',
  verified: 'E-posta adresiniz doğrulandı',
  signIn: 'Giriş yap',
  signinFailed: 'E-posta adresi veya şifre hatalı.',
  linkSent: 'giriş bağlantısı gönderildi',
  linkSubject: 'giriş bağlantınız',
  linkUsed: 'süresi dolmuş ya da bağlantı daha önce kullanılmış',
  forgotNoUser: 'Bu e-posta adresiyle kayıtlı kullanıcı bulunamadı.',
  forgotSent: 'Şifre sıfırlama bağlantısı e-posta adresinize gönderildi',
  resetSubject: 'şifre sıfırlama',
  resetDone: 'Şifreniz sıfırlandı',
};

const EN = {
  required: 'This field is required',
  terms: 'You must accept the terms and conditions',
  userType: 'User type must be selected',
  labels: {
    first_name: 'First name',
    email: 'E-mail',
    phone: 'Mobile phone',
    investor_type: 'User type',
    password: 'Password',
  },
};

const LINK_SUBMIT = 'form[action="/signin/link"] button';
const USE_LINK = 'form[action="/signin/link/use"] button';

describe('accounts', () => {
  let sink;
  let server;
  let browser;

  before(async () => {
    sink = await startSmtpSink();
    server = await startServer({ env: { ORTAK_SMTP_URL: sink.url } });
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
    await sink?.close();
  });

  /** A context of its own (Turkish unless told); the browser's close ends any left open. */
  async function open(locale = 'tr-TR') {
    const context = await newContext(browser, { locale });
    return { context, page: await context.newPage() };
  }

  async function done(context) {
    assertOnlyLoopback(context);
    await context.close();
  }

  /**
   * Signs up `email` through the form and follows the mailed verification link; the page is
   * left where the link leads, signed in (end2end/journeys.mjs).
   */
  const join = (page, email) => joinWith(page, { server, sink }, email);
  const signIn = (page, email, password, path) => signInWith(page, server, email, password, path);
  const signOut = (page) => signOutWith(page, server);

  it('signs up in Turkish: errors keep the typed values, then the mailed link verifies and signs in', async () => {
    const { context, page } = await open();
    const email = uniqueEmail('signup');

    const form = await page.goto(server.url('/signup'));
    assert.equal(form.status(), 200);
    assert.equal(await page.getAttribute('html', 'lang'), 'tr');

    // A mismatching confirmation and a short phone: 422, both messages, the typed values kept.
    await fillSignup(page, {
      ...PERSON,
      email,
      phone: '0532 123',
      password: PASSWORD,
      password_confirm: `${PASSWORD}x`,
      terms: true,
    });
    const rejected = await clickAndNavigate(page, SIGNUP_SUBMIT);
    assert.equal(rejected.status(), 422);
    assert.equal(pathOf(page), '/signup');
    const errors = await texts(page, 'p.field__error');
    assert.ok(errors.includes(TR.passwordsMatch), `errors: ${JSON.stringify(errors)}`);
    assert.ok(errors.includes(TR.phoneIncomplete), `errors: ${JSON.stringify(errors)}`);
    assert.equal(await page.inputValue('#first_name'), PERSON.first_name);
    assert.equal(await page.inputValue('#email'), email);
    assert.equal(await page.inputValue('#city'), PERSON.city);
    assert.equal(await page.inputValue('#investor_type'), PERSON.investor_type);
    assert.equal(await page.isChecked('#terms'), true, 'the accepted terms stay accepted');
    assert.equal(await page.inputValue('#password'), '', 'passwords are not sent back');
    assert.equal(await page.inputValue('#password_confirm'), '');
    assert.equal(sink.count(email), 0, 'a rejected sign-up sends no mail');

    // Fixed: on to the verification page.
    await fillSignup(page, { phone: PERSON.phone, password: PASSWORD, password_confirm: PASSWORD, terms: true });
    const accepted = await clickAndNavigate(page, SIGNUP_SUBMIT);
    assert.equal(accepted.status(), 200);
    assert.equal(pathOf(page), '/verification');
    assert.equal((await page.textContent('h1')).trim(), TR.verifyTitle);

    const mail = await sink.waitFor(email, TR.verifySubject);
    assert.equal(mail.to, email);
    // The address is not proved yet: the mail carries nothing the visitor typed, not even the
    // name (a sign-up with someone else's address must not put words in their inbox).
    assert.ok(!mail.text.includes(PERSON.first_name) && !mail.text.includes(PERSON.last_name), `the mail names nobody:\n${mail.text}`);
    assert.ok(mail.text.startsWith('Merhaba,'), `a greeting without a name:\n${mail.text}`);
    const link = linkIn(mail.text, `${server.baseURL}/verificationtoken?token=`);
    assert.ok(link, `the verification mail has a link:\n${mail.text}`);

    // The link opens a page with one button (opening it signs nobody in); the button verifies.
    const opened = await page.goto(link);
    assert.equal(opened.status(), 200);
    assert.ok((await page.textContent('main')).includes(email), 'the page names the address');
    assert.equal(await page.locator(AVATAR).count(), 0, 'not signed in by opening the link');
    const verified = await clickAndNavigate(page, VERIFY_BUTTON);
    assert.equal(verified.status(), 200);
    // A new investor continues with onboarding (server: accounts::onboarding::resume_path).
    assert.equal(pathOf(page), '/boardingFlow/1', 'a verified new investor is sent to onboarding');
    const flash = await texts(page, '.flash.flash--success');
    assert.ok(flash.some((t) => t.includes(TR.verified)), `success flash: ${JSON.stringify(flash)}`);

    // Signed in: the header on the home page names the user; the flash was shown once.
    await page.goto(server.url('/'));
    await assertSignedIn(page);
    assert.equal(await page.locator('.flash.flash--success').count(), 0, 'the flash is not shown again');

    // The link was single-use.
    const again = await page.goto(link);
    assert.equal(again.status(), 410);
    await done(context);
  });

  it('the avatar menu links to the account pages and signs out', async () => {
    const { context, page } = await open();
    await join(page, uniqueEmail('menu'));
    await page.goto(server.url('/'));
    await assertSignedIn(page);

    const menu = page.locator(AVATAR);
    assert.equal(await menu.getAttribute('open'), null, 'closed at first');
    assert.equal(await page.isVisible(LOGOUT), false, 'the logout button is hidden while closed');
    await page.click(`${AVATAR} summary`);
    assert.notEqual(await menu.getAttribute('open'), null, 'the summary opens it');
    const hrefs = await page.locator(`${AVATAR} a`).evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    for (const href of ['/profile', '/gsyf', '/favorites', '/contactUs']) {
      assert.ok(hrefs.includes(href), `the menu links to ${href}: ${JSON.stringify(hrefs)}`);
      assert.ok(await page.isVisible(`${AVATAR} a[href="${href}"]`), `${href} is visible when open`);
    }
    assert.ok(await page.isVisible(LOGOUT), 'the logout button is visible when open');

    const out = await clickAndNavigate(page, LOGOUT);
    assert.equal(out.status(), 200);
    assert.equal(pathOf(page), '/');
    assert.equal(await page.locator(AVATAR).count(), 0, 'no avatar menu after logout');
    const signin = page.locator('header.site-header a[href="/signin"]');
    assert.equal(await signin.count(), 1);
    assert.equal((await signin.textContent()).trim(), TR.signIn);

    // Still signed out after a reload (the session is gone, not just the page).
    await page.reload();
    assert.equal(await page.locator(AVATAR).count(), 0);
    await done(context);
  });

  it('signs in with a password; a wrong one is refused with the address kept; /login is the same form', async () => {
    const { context, page } = await open();
    const email = uniqueEmail('password');
    await join(page, email);
    await signOut(page);

    const wrong = await signIn(page, email, `${PASSWORD}-wrong`);
    assert.equal(wrong.status(), 422);
    assert.equal(pathOf(page), '/signin');
    const errors = await texts(page, '.flash.flash--error');
    assert.ok(errors.some((t) => t.includes(TR.signinFailed)), `error: ${JSON.stringify(errors)}`);
    assert.equal(await page.inputValue('#email'), email, 'the address is kept');
    assert.equal(await page.inputValue('#password'), '', 'the password is not sent back');
    assert.equal(await page.locator(AVATAR).count(), 0);

    // The right password (typed into the page that showed the error).
    await page.fill('#password', PASSWORD);
    const right = await clickAndNavigate(page, SIGNIN_SUBMIT);
    assert.equal(right.status(), 200);
    assert.equal(pathOf(page), '/overview', 'members land on their overview');
    await assertSignedIn(page);
    await signOut(page);

    // /login: the same form, and it signs in too.
    const login = await page.goto(server.url('/login'));
    assert.equal(login.status(), 200);
    for (const selector of ['#email', '#password', SIGNIN_SUBMIT, '#link_email', LINK_SUBMIT]) {
      assert.equal(await page.locator(selector).count(), 1, `/login has ${selector}`);
    }
    const viaLogin = await signIn(page, email, PASSWORD, '/login');
    assert.equal(viaLogin.status(), 200);
    assert.equal(pathOf(page), '/overview', 'members land on their overview');
    await assertSignedIn(page);
    await done(context);
  });

  it('signs in with a mailed single-use link', async () => {
    const { context, page } = await open();
    const email = uniqueEmail('link');
    await join(page, email);
    await signOut(page);

    await page.goto(server.url('/signin'));
    await page.fill('#link_email', email);
    const requested = await clickAndNavigate(page, LINK_SUBMIT);
    assert.equal(requested.status(), 200);
    const notice = await texts(page, '.flash.flash--success');
    assert.ok(notice.some((t) => t.includes(TR.linkSent)), `notice: ${JSON.stringify(notice)}`);

    const mail = await sink.waitFor(email, TR.linkSubject);
    const link = linkIn(mail.text, `${server.baseURL}/signin/link?token=`);
    assert.ok(link, `the sign-in mail has a link:\n${mail.text}`);

    // Opening the link does not sign in by itself: one button does.
    const landing = await page.goto(link);
    assert.equal(landing.status(), 200);
    assert.equal(await page.locator('form[action="/signin/link/use"]').count(), 1);
    assert.equal(await page.locator(USE_LINK).count(), 1, 'one button');
    assert.equal(await page.locator(AVATAR).count(), 0, 'not signed in before the button');
    await page.goto(server.url('/'));
    assert.equal(await page.locator(AVATAR).count(), 0, 'merely opening the link did not sign in');

    await page.goto(link);
    const used = await clickAndNavigate(page, USE_LINK);
    assert.equal(used.status(), 200);
    assert.equal(pathOf(page), '/overview', 'members land on their overview');
    await assertSignedIn(page);

    // The second time the link is dead.
    const again = await page.goto(link);
    assert.equal(again.status(), 410);
    const error = await texts(page, '.flash.flash--error');
    assert.ok(error.some((t) => t.includes(TR.linkUsed)), `error: ${JSON.stringify(error)}`);
    assert.equal(await page.locator(USE_LINK).count(), 0, 'no button on a used link');
    await done(context);
  });

  it('recovers a forgotten password, which signs out every other session', async () => {
    const email = uniqueEmail('reset');
    const first = await open();
    await join(first.page, email);
    await signOut(first.page);

    // Another browser, signed in before the reset.
    const other = await open();
    const signedIn = await signIn(other.page, email, PASSWORD);
    assert.equal(signedIn.status(), 200);
    await assertSignedIn(other.page);

    const { page } = first;
    await page.goto(server.url('/forgotpassword'));
    const unknown = uniqueEmail('nobody');
    await page.fill('#email', unknown);
    const refused = await clickAndNavigate(page, 'form.form button[type=submit]');
    assert.equal(refused.status(), 422);
    const errors = await texts(page, 'p.field__error');
    assert.ok(errors.includes(TR.forgotNoUser), `errors: ${JSON.stringify(errors)}`);
    assert.equal(await page.inputValue('#email'), unknown);

    await page.fill('#email', email);
    const sent = await clickAndNavigate(page, 'form.form button[type=submit]');
    assert.equal(sent.status(), 200);
    const notice = await texts(page, '.flash.flash--success');
    assert.ok(notice.some((t) => t.includes(TR.forgotSent)), `notice: ${JSON.stringify(notice)}`);

    const mail = await sink.waitFor(email, TR.resetSubject);
    const link = linkIn(mail.text, `${server.baseURL}/resetpassword?token=`);
    assert.ok(link, `the reset mail has a link:\n${mail.text}`);
    assert.equal(sink.count(unknown), 0, 'nothing is sent to an unknown address');

    const form = await page.goto(link);
    assert.equal(form.status(), 200);
    await page.fill('#password', NEW_PASSWORD);
    await page.fill('#password_confirm', NEW_PASSWORD);
    const reset = await clickAndNavigate(page, 'form[action="/resetpassword"] button[type=submit]');
    assert.equal(reset.status(), 200);
    assert.equal(pathOf(page), '/signin');
    const flash = await texts(page, '.flash.flash--success');
    assert.ok(flash.some((t) => t.includes(TR.resetDone)), `flash: ${JSON.stringify(flash)}`);

    // The other browser's session ended with the reset.
    await other.page.goto(server.url('/'));
    assert.equal(await other.page.locator(AVATAR).count(), 0, 'the other session was signed out');
    await done(other.context);

    const old = await signIn(page, email, PASSWORD);
    assert.equal(old.status(), 422, 'the old password no longer works');
    const fresh = await signIn(page, email, NEW_PASSWORD);
    assert.equal(fresh.status(), 200);
    assert.equal(pathOf(page), '/overview', 'members land on their overview');
    await assertSignedIn(page);

    const reused = await page.goto(link);
    assert.equal(reused.status(), 410, 'the reset link is single-use');
    await done(first.context);
  });

  it('the English sign-up form explains every missing answer', async () => {
    const { context, page } = await open('en-US');
    const form = await page.goto(server.url('/signup'));
    assert.equal(form.status(), 200);
    assert.equal(await page.getAttribute('html', 'lang'), 'en');
    for (const [id, label] of Object.entries(EN.labels)) {
      assert.equal((await page.textContent(`label[for="${id}"]`)).trim(), label, `#${id}'s label`);
    }

    const rejected = await clickAndNavigate(page, SIGNUP_SUBMIT);
    assert.equal(rejected.status(), 422);
    assert.equal(pathOf(page), '/signup');
    const errors = await texts(page, 'p.field__error');
    for (const message of [EN.required, EN.terms, EN.userType]) {
      assert.ok(errors.includes(message), `"${message}" in ${JSON.stringify(errors)}`);
    }
    // Each message sits under its own field.
    for (const [id, message] of [
      ['first_name', EN.required],
      ['email', EN.required],
      ['password', EN.required],
      ['investor_type', EN.userType],
      ['terms', EN.terms],
    ]) {
      const describedBy = await page.getAttribute(`#${id}`, 'aria-describedby');
      assert.ok(describedBy, `#${id} points to its error`);
      assert.equal((await page.textContent(`p.field__error#${describedBy}`)).trim(), message, `#${id}'s error`);
    }
    assert.equal(await page.locator(AVATAR).count(), 0);
    await done(context);
  });

  it('signs in with the keyboard only', async () => {
    const email = uniqueEmail('keys');
    {
      const { context, page } = await open();
      await join(page, email);
      await context.close();
    }

    const { context, page } = await open();
    await page.goto(server.url('/signin'));
    const focused = () => page.evaluate(() => document.activeElement?.id || document.activeElement?.tagName);
    let steps = 0;
    while ((await focused()) !== 'email') {
      assert.ok(++steps <= 30, 'Tab reaches the e-mail field within 30 presses');
      await page.keyboard.press('Tab');
    }
    await page.keyboard.type(email);
    await page.keyboard.press('Tab');
    assert.equal(await focused(), 'password', 'Tab goes from the e-mail to the password field');
    await page.keyboard.type(PASSWORD);
    const [response] = await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
    assert.equal(response.status(), 200);
    assert.equal(pathOf(page), '/overview', 'members land on their overview');
    await assertSignedIn(page);
    await done(context);
  });

  it('a visitor opening a staff page is sent to sign in and comes back after the second factor', async () => {
    const { context, page } = await open();
    const response = await page.goto(server.url('/dashboard/mailbox'));
    assert.equal(response.status(), 200);
    assert.equal(pathAndQuery(page), '/signin?next=/dashboard/mailbox');
    assert.equal(await page.inputValue('form[action="/signin"] input[name="next"]'), '/dashboard/mailbox');

    // The demo superadmin (its password is printed at start) comes back to the mailbox.
    const [, admin, password] = /e-mail:\s+(\S+)\s*\n\s*password:\s+(\S+)/.exec(server.output()) ?? [];
    assert.ok(admin && password, `the demo admin's address and password are printed:\n${server.output()}`);
    await page.fill('#email', admin);
    await page.fill('#password', password);
    await clickAndNavigate(page, SIGNIN_SUBMIT);
    // Staff sign in with two factors: the first time, an authenticator is enrolled.
    assert.equal(pathOf(page), '/signin/2fa/setup', 'the password alone opens only the enrolment');
    const back = await secondFactor(page, server, admin);
    assert.equal(back.status(), 200);
    assert.equal(pathOf(page), '/dashboard/mailbox', 'signed in, back where the visitor started');
    assert.equal(await page.locator('form[action="/signin"]').count(), 0, 'the mailbox, not the sign-in form');
    await done(context);
  });

  // Browsers drop tabs from URLs, so a Location of "/<TAB>/example.com/x" would be followed as
  // "//example.com/x": the server must refuse such a ?next= and stay on the site.
  it(
    'a signed-in user is never sent off the site by ?next=',
    async () => {
      const { context, page } = await open();
      const email = uniqueEmail('next');
      await join(page, email);
      const target = server.url('/signin?next=/%09/example.com/x');
      const response = await page.goto(target).catch((err) => err);
      assert.deepEqual(context.offsite, [], 'no request left 127.0.0.1');
      assert.ok(!(response instanceof Error), `opening ${target} failed: ${response.message?.split('\n')[0]}`);
      assert.equal(new URL(page.url()).host, new URL(server.baseURL).host, `stayed on the site: ${page.url()}`);
      await done(context);
    },
  );
});
