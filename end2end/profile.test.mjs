// A new investor's onboarding (/boardingFlow/1-5, resumable, validated step by step) and the
// /profile tabs: personal information and photo, password, investment preferences, investor
// information (identity numbers checked), the personal-data export and account deletion; the
// investor tab in English too.
//
// Every form here is a plain HTML post, so each submit is a full navigation whose response is
// checked. Users sign up through the form and the mailed link (end2end/journeys.mjs). A replaced
// profile photo's file is erased.
import assert from 'node:assert/strict';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { assertOnlyLoopback, clickAndNavigate, launchBrowser, newContext, startServer, uniqueEmail } from './helpers.mjs';
import {
  AVATAR,
  PASSWORD,
  PERSON,
  SIGNIN_FAILED_TR,
  assertSignedIn,
  join,
  pathAndQuery,
  pathOf,
  signIn,
  texts,
} from './journeys.mjs';
import { startSmtpSink } from './smtp.mjs';

const NEW_PASSWORD = 'Yeni-Parola-2025?';

const TR = {
  required: 'Bu alan zorunludur',
  chooseOne: 'Lütfen en az birini seçin.',
  back: 'Geri',
  welcome: 'Hoş geldiniz!',
  saved: 'Bilgileriniz güncellendi.',
  imageSaved: 'Profil fotoğrafınız güncellendi.',
  imageInvalid: 'Lütfen JPEG, PNG veya WebP biçiminde bir resim seçin.',
  imageTooLarge: 'Dosya en fazla 2 MB olabilir.',
  passwordWrong: 'Mevcut şifreniz hatalı.',
  passwordSaved: 'Şifreniz değiştirildi',
  investorServices: 'Yatırımcı Hizmetleri',
  tcknLength: 'Kimlik numarası 11 haneli olmalıdır.',
  vknLength: 'Vergi numarası 10 haneli olmalıdır.',
  idInvalid: 'Bu numara geçerli değil',
  investorSaved: 'Yatırımcı bilgileriniz güncellendi.',
  deleted: 'Üyeliğiniz silindi',
};

const EN = {
  labels: {
    investor_type: 'User type',
    id_type: 'ID type',
    identity_number: 'Identity / tax number',
    company_name: 'Company name',
    annual_income: 'Annual income (TL)',
    birth_date: 'Date of birth',
  },
  citizen: 'Are you a citizen of Türkiye?',
  tabs: { info: 'Profile information', investor: 'Investor information', delete: 'Delete membership' },
  tcknLength: 'The identity number must have 11 digits.',
};

const STEP_SUBMIT = 'form.form button[type=submit]';
const INFO_SUBMIT = 'form[action="/profile/info"] button';
const IMAGE_SUBMIT = 'form[action="/profile/image"] button';
const PASSWORD_SUBMIT = 'form[action="/profile/password"] button';
const PREFERENCES_SUBMIT = 'form[action="/profile/preferences"] button';
const INVESTOR_SUBMIT = 'form[action="/profile/investor"] button';
const DELETE_SUBMIT = 'form[action="/profile/delete"] button';
const HEADER = 'header.site-header';
/** A profile tab's link (the avatar menu in the header links to one of them too). */
const tabLink = (name) => `main nav a[href="/profile?tab=${name}"]`;
const FOOTER = 'footer.site-footer';

/** A 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

describe('onboarding and profile', () => {
  let sink;
  let server;
  let browser;
  let files; // a temporary folder for the files uploaded

  before(async () => {
    files = await mkdtemp(path.join(os.tmpdir(), 'ortak-e2e-files-'));
    sink = await startSmtpSink();
    server = await startServer({ env: { ORTAK_SMTP_URL: sink.url } });
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
    await sink?.close();
    if (files) await rm(files, { recursive: true, force: true });
  });

  async function open(locale = 'tr-TR') {
    const context = await newContext(browser, { locale });
    return { context, page: await context.newPage() };
  }

  async function done(context) {
    assertOnlyLoopback(context);
    await context.close();
  }

  /** A new investor, signed in, on the page the verification link leads to. */
  async function member(page, tag) {
    const email = uniqueEmail(tag);
    await join(page, { server, sink }, email);
    return email;
  }

  /** The message under field `name` (p.field__error#name-error), or null. */
  const fieldError = async (page, name) => {
    const error = page.locator(`p.field__error#${name}-error`);
    return (await error.count()) === 0 ? null : (await error.textContent()).trim();
  };

  /** Fetches `url` in the page (with its cookies, bypassing the browser's cache). */
  const fetchIt = (page, url) =>
    page.evaluate(async (u) => {
      const r = await fetch(u, { cache: 'no-store' });
      return { status: r.status, type: r.headers.get('content-type'), size: (await r.arrayBuffer()).byteLength };
    }, url);

  /** Uploads the file at `file` as the profile photo from the info tab. */
  async function upload(page, file) {
    await page.goto(server.url('/profile?tab=info'));
    await page.setInputFiles('#image', file);
    return clickAndNavigate(page, IMAGE_SUBMIT);
  }

  /** The files in the server's profile-photo folder. */
  const avatars = () => readdir(path.join(server.dataDir, 'avatars')).catch(() => []);

  const flashes = (page, kind) => texts(page, `.flash.flash--${kind}`);

  async function assertFlash(page, kind, message) {
    const shown = await flashes(page, kind);
    assert.ok(shown.some((t) => t.includes(message)), `"${message}" in the ${kind} flashes: ${JSON.stringify(shown)}`);
  }

  async function tab(page, name) {
    const response = await page.goto(server.url(`/profile?tab=${name}`));
    assert.equal(response.status(), 200);
    assert.equal(await page.getAttribute(tabLink(name), 'aria-current'), 'page', `the ${name} tab is current`);
    return response;
  }

  /** Onboarding is a flow (issue 28): the site header, so the member can leave or sign out,
   *  and the slim footer (policies and small print, no call to invest). */
  async function chrome(page, where) {
    assert.equal(await page.locator(HEADER).count(), 1, `${where}: site header`);
    assert.equal(await page.locator(`${FOOTER}.site-footer--slim`).count(), 1, `${where}: the slim footer`);
    assert.equal(await page.locator('.footer-cta').count(), 0, `${where}: no call to invest`);
  }

  // ---- onboarding ---------------------------------------------------------------------------

  it('onboarding: five validated steps in order, resumable, then a welcome and no banner', async () => {
    const { context, page } = await open();
    await member(page, 'onboarding');

    // Step 1, straight from the verification link: the flow's chrome; the phone is prefilled.
    assert.equal(pathOf(page), '/boardingFlow/1');
    await chrome(page, 'step 1');
    const phone = await page.inputValue('#phone');
    assert.ok(phone.replace(/\D/g, '').endsWith('5321234567'), `the phone from sign-up is prefilled: "${phone}"`);

    // Unfinished: the home page has a banner leading back to the current step, and the
    // success page is not reachable yet.
    await page.goto(server.url('/'));
    const banner = '.flash.flash--info a[href^="/boardingFlow/"]';
    assert.equal(await page.locator(banner).count(), 1, 'the home page shows the onboarding banner');
    assert.equal(await page.getAttribute(banner, 'href'), '/boardingFlow/1');
    await page.goto(server.url('/boardingFlow/success'));
    assert.equal(pathOf(page), '/boardingFlow/1', 'success before the steps sends back to step 1');

    // Sign-up asked the contact details: they are shown, and changed on request.
    assert.equal(await page.isVisible('#city'), false, 'known details are not asked again');
    await page.click('details.disclosure > summary');
    // An emptied city: 422, the message under the city, the other typed values kept.
    await page.fill('#phone', '0533 765 43 21');
    await page.fill('#country', 'Kuzey Kıbrıs');
    await page.fill('#city', '');
    const step1Refused = await clickAndNavigate(page, STEP_SUBMIT);
    assert.equal(step1Refused.status(), 422);
    assert.equal(pathOf(page), '/boardingFlow/1');
    assert.equal(await fieldError(page, 'city'), TR.required);
    assert.equal(await fieldError(page, 'country'), null);
    assert.equal(await page.inputValue('#country'), 'Kuzey Kıbrıs', 'the typed country is kept');
    assert.ok((await page.inputValue('#phone')).replace(/\D/g, '').endsWith('5337654321'), 'the typed phone is kept');
    assert.equal(await page.inputValue('#city'), '');
    await chrome(page, 'step 1 (refused)');

    await page.fill('#city', 'Girne');
    const step1 = await clickAndNavigate(page, STEP_SUBMIT);
    assert.equal(step1.status(), 200);
    assert.equal(pathOf(page), '/boardingFlow/2');
    await chrome(page, 'step 2');

    // Step 2: corporate without a company name is refused.
    await page.selectOption('#investor_type', 'corporate');
    await page.fill('#company_name', '');
    await page.fill('#tax_office', 'Kadıköy');
    await page.fill('#position', 'Finans Direktörü');
    const step2Refused = await clickAndNavigate(page, STEP_SUBMIT);
    assert.equal(step2Refused.status(), 422);
    assert.equal(pathOf(page), '/boardingFlow/2');
    assert.equal(await fieldError(page, 'company_name'), TR.required);
    assert.equal(await page.inputValue('#investor_type'), 'corporate');
    assert.equal(await page.inputValue('#tax_office'), 'Kadıköy');
    assert.equal(await page.inputValue('#position'), 'Finans Direktörü');

    await page.fill('#company_name', 'Anadolu Girişim A.Ş.');
    const step2 = await clickAndNavigate(page, STEP_SUBMIT);
    assert.equal(step2.status(), 200);
    assert.equal(pathOf(page), '/boardingFlow/3');
    await chrome(page, 'step 3');

    // Steps are taken in order: a later one sends to the first unsaved step.
    await page.goto(server.url('/boardingFlow/5'));
    assert.equal(pathOf(page), '/boardingFlow/3', '/boardingFlow/5 before step 3 is saved');
    await page.goto(server.url('/'));
    assert.equal(await page.getAttribute('.flash.flash--info a[href^="/boardingFlow/"]', 'href'), '/boardingFlow/3', 'the banner follows');
    await clickAndNavigate(page, '.flash.flash--info a[href^="/boardingFlow/"]');
    assert.equal(pathOf(page), '/boardingFlow/3');

    // "Geri" goes back to step 2 with the saved answers.
    const back = page.locator('form.form a[href="/boardingFlow/2"]');
    assert.equal((await back.textContent()).trim(), TR.back);
    await clickAndNavigate(page, 'form.form a[href="/boardingFlow/2"]');
    assert.equal(pathOf(page), '/boardingFlow/2');
    assert.equal(await page.inputValue('#company_name'), 'Anadolu Girişim A.Ş.', 'the saved company name');
    assert.equal(await page.inputValue('#investor_type'), 'corporate');
    await clickAndNavigate(page, STEP_SUBMIT);
    assert.equal(pathOf(page), '/boardingFlow/3');

    // Step 3: purpose and budget.
    const step3Refused = await clickAndNavigate(page, STEP_SUBMIT);
    assert.equal(step3Refused.status(), 422, 'nothing chosen');
    assert.equal(await fieldError(page, 'purpose'), TR.required);
    assert.equal(await fieldError(page, 'budget'), TR.required);
    await page.check('#purpose-invest');
    await page.check('#budget-100000-250000');
    const step3 = await clickAndNavigate(page, STEP_SUBMIT);
    assert.equal(step3.status(), 200);
    assert.equal(pathOf(page), '/boardingFlow/4');
    await chrome(page, 'step 4');
    assert.equal(await page.locator('input[name="interests"][type=checkbox]').count(), 8, 'eight interest categories');

    // Step 4: at least one interest.
    await page.check('#how_heard-friend');
    const step4Refused = await clickAndNavigate(page, STEP_SUBMIT);
    assert.equal(step4Refused.status(), 422);
    assert.equal(await fieldError(page, 'interests'), TR.chooseOne);
    assert.equal(await page.isChecked('#how_heard-friend'), true, 'the chosen answer is kept');
    await page.check('#interests-fintech');
    await page.check('#interests-energy');
    const step4 = await clickAndNavigate(page, STEP_SUBMIT);
    assert.equal(step4.status(), 200);
    assert.equal(pathOf(page), '/boardingFlow/5');
    await chrome(page, 'step 5');

    // Step 5: "yes, a specific start-up" needs its name.
    await page.check('#experience-yes');
    await page.check('#specific-yes');
    await page.fill('#specific_startup', '');
    const step5Refused = await clickAndNavigate(page, STEP_SUBMIT);
    assert.equal(step5Refused.status(), 422);
    assert.equal(pathOf(page), '/boardingFlow/5');
    assert.equal(await fieldError(page, 'specific_startup'), TR.required);
    assert.equal(await page.isChecked('#experience-yes'), true);
    assert.equal(await page.isChecked('#specific-yes'), true);
    await page.fill('#specific_startup', 'Güneş Enerji Teknolojileri');
    const finished = await clickAndNavigate(page, STEP_SUBMIT);
    assert.equal(finished.status(), 200);
    assert.equal(pathOf(page), '/boardingFlow/success');
    assert.equal((await page.textContent('h1')).trim(), TR.welcome);
    await chrome(page, 'success');

    // Finished: no banner; the answers show in the profile.
    await page.goto(server.url('/'));
    await assertSignedIn(page);
    assert.equal(await page.locator('.flash.flash--info a[href^="/boardingFlow/"]').count(), 0, 'no onboarding banner after finishing');
    await tab(page, 'preferences');
    assert.equal(await page.isChecked('#purpose-invest'), true);
    assert.equal(await page.isChecked('#budget-100000-250000'), true);
    const interests = await page.locator('input[name="interests"]:checked').evaluateAll((els) => els.map((e) => e.value));
    assert.deepEqual(interests.sort(), ['energy', 'fintech']);
    await tab(page, 'investor');
    assert.equal(await page.inputValue('#investor_type'), 'corporate');
    assert.equal(await page.inputValue('#company_name'), 'Anadolu Girişim A.Ş.');
    assert.equal(await page.inputValue('#tax_office'), 'Kadıköy');
    await tab(page, 'info');
    assert.equal(await page.inputValue('#city'), 'Girne');
    assert.equal(await page.inputValue('#position'), 'Finans Direktörü');
    await done(context);
  });

  // ---- profile ------------------------------------------------------------------------------

  it('profile info: the name and position change, and the header follows', async () => {
    const { context, page } = await open();
    const email = await member(page, 'info');
    await tab(page, 'info');
    assert.ok((await page.textContent('section.profile-tab')).includes(email), 'the tab shows the sign-in address');
    assert.equal(await page.inputValue('#first_name'), PERSON.first_name);
    assert.equal(await page.inputValue('#last_name'), PERSON.last_name);
    for (const name of ['info', 'security', 'preferences', 'investor', 'delete']) {
      assert.equal(await page.locator(tabLink(name)).count(), 1, `a link to the ${name} tab`);
    }
    // The tabs are links: following one opens it.
    await clickAndNavigate(page, tabLink('security'));
    assert.equal(pathAndQuery(page), '/profile?tab=security');
    assert.equal(await page.locator('#current_password').count(), 1);
    await clickAndNavigate(page, tabLink('info'));
    assert.equal(await page.getAttribute(tabLink('info'), 'aria-current'), 'page');

    // A required field emptied: refused with the other typed values kept.
    await page.fill('#last_name', 'Kaya');
    await page.fill('#city', '');
    const refused = await clickAndNavigate(page, INFO_SUBMIT);
    assert.equal(refused.status(), 422);
    assert.equal(await fieldError(page, 'city'), TR.required);
    assert.equal(await page.inputValue('#last_name'), 'Kaya');

    await page.fill('#city', 'Ankara');
    await page.fill('#position', 'Yatırım Direktörü');
    const saved = await clickAndNavigate(page, INFO_SUBMIT);
    assert.equal(saved.status(), 200);
    assert.equal(pathAndQuery(page), '/profile?tab=info');
    await assertFlash(page, 'success', TR.saved);
    assert.equal(await page.inputValue('#last_name'), 'Kaya');
    assert.equal(await page.inputValue('#position'), 'Yatırım Direktörü');
    assert.equal(await page.inputValue('#city'), 'Ankara');
    await assertSignedIn(page, `${PERSON.first_name} Kaya`);

    // The flash is shown once.
    await page.reload();
    assert.equal(await page.locator('.flash.flash--success').count(), 0);
    await assertSignedIn(page, `${PERSON.first_name} Kaya`);
    await done(context);
  });

  it('profile photo: a PNG is shown in the header and served to its owner only; other files are refused', async () => {
    const { context, page } = await open();
    await member(page, 'photo');
    await tab(page, 'info');
    assert.equal(await page.getAttribute(`${HEADER} img.avatar`, 'src'), '/avatar.svg', 'the default avatar at first');

    const png = path.join(files, 'avatar.png');
    await writeFile(png, PNG);
    await page.setInputFiles('#image', png);
    const uploaded = await clickAndNavigate(page, IMAGE_SUBMIT);
    assert.equal(uploaded.status(), 200);
    assert.equal(pathAndQuery(page), '/profile?tab=info');
    await assertFlash(page, 'success', TR.imageSaved);
    const src = await page.getAttribute(`${HEADER} img.avatar`, 'src');
    assert.match(src, /^\/api\/file\/[0-9a-f]{32}\.png$/, 'a random name, not the uploaded one');
    assert.equal(await page.getAttribute('img.avatar--large', 'src'), src, 'the tab shows the same photo');
    const served = await fetchIt(page, src);
    assert.deepEqual(served, { status: 200, type: 'image/png', size: PNG.length });
    assert.equal(await page.evaluate(() => document.querySelector('header.site-header img.avatar').naturalWidth), 1, 'the browser shows it');

    // Nobody else gets it: another member (403), a visitor (401).
    const other = await open();
    await member(other.page, 'photo-other');
    assert.equal((await fetchIt(other.page, src)).status, 403, 'another member');
    await done(other.context);
    const visitor = await open();
    await visitor.page.goto(server.url('/'));
    assert.equal((await fetchIt(visitor.page, src)).status, 401, 'a visitor');
    await done(visitor.context);

    // A text file named like a picture: refused by its content.
    const fake = path.join(files, 'photo.png');
    await writeFile(fake, 'this is not a picture\n'.repeat(20));
    await page.setInputFiles('#image', fake);
    const notImage = await clickAndNavigate(page, IMAGE_SUBMIT);
    assert.equal(notImage.status(), 422);
    assert.equal(await fieldError(page, 'image'), TR.imageInvalid);
    assert.equal(await page.getAttribute(`${HEADER} img.avatar`, 'src'), src, 'the photo is unchanged');

    // Over 2 MB (a real PNG signature, so only the size is wrong).
    const big = path.join(files, 'big.png');
    await writeFile(big, Buffer.concat([PNG, Buffer.alloc(3 * 1024 * 1024 - PNG.length, 7)]));
    await page.goto(server.url('/profile?tab=info'));
    await page.setInputFiles('#image', big);
    const tooLarge = await clickAndNavigate(page, IMAGE_SUBMIT);
    assert.equal(tooLarge.status(), 422);
    assert.equal(await fieldError(page, 'image'), TR.imageTooLarge);
    assert.equal(await page.getAttribute(`${HEADER} img.avatar`, 'src'), src, 'the photo is unchanged');
    assert.deepEqual(await fetchIt(page, src), served, 'and still served');
    await done(context);
  });

  it(
    'a new profile photo replaces the old one, whose file is erased',
    async () => {
      const { context, page } = await open();
      await member(page, 'photo-again');
      const png = path.join(files, 'first.png');
      await writeFile(png, PNG);
      assert.equal((await upload(page, png)).status(), 200);
      const first = await page.getAttribute(`${HEADER} img.avatar`, 'src');
      assert.equal((await upload(page, png)).status(), 200);
      await assertFlash(page, 'success', TR.imageSaved);
      const second = await page.getAttribute(`${HEADER} img.avatar`, 'src');
      assert.match(second, /^\/api\/file\/[0-9a-f]{32}\.png$/);
      assert.notEqual(second, first, 'a new name');
      assert.equal((await fetchIt(page, second)).status, 200);
      assert.equal((await fetchIt(page, first)).status, 404, 'the old photo is no longer served');
      const stored = await avatars();
      assert.ok(stored.includes(path.basename(second)), `the new photo is stored: ${JSON.stringify(stored)}`);
      await done(context);
      assert.ok(!stored.includes(path.basename(first)), `the old photo's file is erased: ${JSON.stringify(stored)}`);
    },
  );

  it('security: the current password is checked; a change signs out other sessions', async () => {
    const { context, page } = await open();
    const email = await member(page, 'security');
    // Another browser, signed in before the change.
    const other = await open();
    assert.equal((await signIn(other.page, server, email, PASSWORD)).status(), 200);
    await assertSignedIn(other.page);

    await tab(page, 'security');
    assert.ok((await page.textContent('section.profile-tab')).includes(TR.investorServices), 'explains how to change the e-mail');
    assert.equal(await page.locator('section.profile-tab a[href="/contactUs"]').count(), 1, 'links to contact');

    await page.fill('#current_password', `${PASSWORD}-wrong`);
    await page.fill('#password', NEW_PASSWORD);
    await page.fill('#password_confirm', NEW_PASSWORD);
    const wrong = await clickAndNavigate(page, PASSWORD_SUBMIT);
    assert.equal(wrong.status(), 422);
    assert.equal(await fieldError(page, 'current_password'), TR.passwordWrong);
    for (const id of ['current_password', 'password', 'password_confirm']) {
      assert.equal(await page.inputValue(`#${id}`), '', `#${id} is not sent back`);
    }

    await page.fill('#current_password', PASSWORD);
    await page.fill('#password', NEW_PASSWORD);
    await page.fill('#password_confirm', NEW_PASSWORD);
    const changed = await clickAndNavigate(page, PASSWORD_SUBMIT);
    assert.equal(changed.status(), 200);
    assert.equal(pathAndQuery(page), '/profile?tab=security');
    await assertFlash(page, 'success', TR.passwordSaved);
    await assertSignedIn(page); // this browser stays signed in

    await other.page.goto(server.url('/'));
    assert.equal(await other.page.locator(AVATAR).count(), 0, 'the other session was signed out');
    assert.equal((await signIn(other.page, server, email, PASSWORD)).status(), 422, 'the old password no longer works');
    assert.equal((await signIn(other.page, server, email, NEW_PASSWORD)).status(), 200, 'the new one does');
    await assertSignedIn(other.page);
    await done(other.context);
    await done(context);
  });

  it('preferences: purpose, budget and interests are saved; at least one interest is required', async () => {
    const { context, page } = await open();
    await member(page, 'preferences');
    await tab(page, 'preferences');
    assert.equal(await page.locator('input[name="purpose"][type=radio]').count(), 3);
    assert.equal(await page.locator('input[name="budget"][type=radio]').count(), 4);
    assert.equal(await page.locator('input[name="interests"][type=checkbox]').count(), 8);

    await page.check('#purpose-technology');
    await page.check('#budget-250000-500000');
    await page.check('#interests-fintech');
    await page.check('#interests-healthcare');
    const saved = await clickAndNavigate(page, PREFERENCES_SUBMIT);
    assert.equal(saved.status(), 200);
    assert.equal(pathAndQuery(page), '/profile?tab=preferences');
    await assertFlash(page, 'success', TR.saved);
    assert.equal(await page.isChecked('#purpose-technology'), true);
    assert.equal(await page.isChecked('#budget-250000-500000'), true);
    assert.equal(await page.isChecked('#interests-fintech'), true);
    assert.equal(await page.isChecked('#interests-healthcare'), true);
    assert.equal(await page.isChecked('#interests-energy'), false);

    // Every interest unticked: refused, the other choices kept.
    await page.check('#purpose-ecosystem');
    await page.uncheck('#interests-fintech');
    await page.uncheck('#interests-healthcare');
    const refused = await clickAndNavigate(page, PREFERENCES_SUBMIT);
    assert.equal(refused.status(), 422);
    assert.equal(await fieldError(page, 'interests'), TR.chooseOne);
    assert.equal(await page.isChecked('#purpose-ecosystem'), true, 'the new purpose is kept on the form');
    assert.equal(await page.isChecked('#budget-250000-500000'), true);

    // Nothing was saved by the refused post.
    await tab(page, 'preferences');
    assert.equal(await page.isChecked('#purpose-technology'), true);
    assert.equal(await page.isChecked('#interests-fintech'), true);
    await done(context);
  });

  it('investor information: identity numbers are checked by type and checksum', async () => {
    const { context, page } = await open();
    await member(page, 'investor');
    await tab(page, 'investor');

    async function fill(fields) {
      if (fields.investor_type) await page.selectOption('#investor_type', fields.investor_type);
      if (fields.id_type) await page.selectOption('#id_type', fields.id_type);
      if (fields.citizen) await page.check(`#citizen-${fields.citizen}`);
      for (const id of ['identity_number', 'company_name', 'tax_office', 'annual_income', 'birth_date']) {
        if (fields[id] !== undefined) await page.fill(`#${id}`, fields[id]);
      }
    }
    const valid = {
      investor_type: 'individual',
      id_type: 'tckn',
      citizen: 'yes',
      identity_number: '10000000146',
      annual_income: '1.500.000',
      birth_date: '1985-04-23',
    };

    const cases = [
      [{ identity_number: '1000000014' }, TR.tcknLength],
      [{ id_type: 'vkn', identity_number: '454053692' }, TR.vknLength],
      [{ id_type: 'tckn', identity_number: '10000000147' }, TR.idInvalid],
    ];
    for (const [change, message] of cases) {
      await fill({ ...valid, ...change });
      const refused = await clickAndNavigate(page, INVESTOR_SUBMIT);
      assert.equal(refused.status(), 422, `${JSON.stringify(change)} is refused`);
      assert.equal(pathOf(page), '/profile/investor');
      const error = await fieldError(page, 'identity_number');
      assert.ok(error?.startsWith(message), `${JSON.stringify(change)}: "${message}", got "${error}"`);
      // The typed values stay on the form.
      assert.equal(await page.inputValue('#identity_number'), change.identity_number);
      assert.equal(await page.inputValue('#id_type'), change.id_type ?? valid.id_type);
      assert.equal(await page.inputValue('#annual_income'), valid.annual_income);
      assert.equal(await page.inputValue('#birth_date'), valid.birth_date);
      assert.equal(await page.isChecked('#citizen-yes'), true);
    }

    await fill(valid);
    const saved = await clickAndNavigate(page, INVESTOR_SUBMIT);
    assert.equal(saved.status(), 200);
    assert.equal(pathAndQuery(page), '/profile?tab=investor');
    await assertFlash(page, 'success', TR.investorSaved);
    assert.equal(await page.inputValue('#investor_type'), 'individual');
    assert.equal(await page.inputValue('#id_type'), 'tckn');
    assert.equal(await page.isChecked('#citizen-yes'), true);
    assert.equal(await page.inputValue('#identity_number'), '10000000146');
    assert.equal(await page.inputValue('#annual_income'), '1.500.000');
    assert.equal(await page.inputValue('#birth_date'), '1985-04-23');
    await done(context);
  });

  it('delete: the data export, then deletion with password and confirmation signs out for good', async () => {
    const { context, page } = await open();
    const email = await member(page, 'delete');
    // A photo, and another browser signed in: both must go with the membership.
    const png = path.join(files, 'to-delete.png');
    await writeFile(png, PNG);
    assert.equal((await upload(page, png)).status(), 200);
    const photo = path.basename(await page.getAttribute(`${HEADER} img.avatar`, 'src'));
    assert.ok((await avatars()).includes(photo));
    const other = await open();
    assert.equal((await signIn(other.page, server, email, PASSWORD)).status(), 200);
    await assertSignedIn(other.page);

    await tab(page, 'delete');

    // The export: a JSON download naming the account.
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('a[href="/profile/export"]')]);
    assert.match(download.suggestedFilename(), /\.json$/);
    const exported = JSON.parse(await readFile(await download.path(), 'utf8'));
    assert.equal(exported.account.email, email);
    assert.equal(exported.profile.first_name, PERSON.first_name);
    assert.equal(exported.profile.last_name, PERSON.last_name);
    assert.equal(exported.profile.has_profile_image, true);

    // The password without the confirmation: refused.
    await page.fill('#current_password', PASSWORD);
    const unconfirmed = await clickAndNavigate(page, DELETE_SUBMIT);
    assert.equal(unconfirmed.status(), 422);
    assert.equal(await fieldError(page, 'confirm'), TR.required);
    assert.equal(await page.isChecked('#confirm'), false);
    // The confirmation with a wrong password: refused.
    await page.fill('#current_password', `${PASSWORD}-wrong`);
    await page.check('#confirm');
    const wrong = await clickAndNavigate(page, DELETE_SUBMIT);
    assert.equal(wrong.status(), 422);
    assert.equal(await fieldError(page, 'current_password'), TR.passwordWrong);
    await page.goto(server.url('/'));
    await assertSignedIn(page); // still a member

    await tab(page, 'delete');
    await page.fill('#current_password', PASSWORD);
    await page.check('#confirm');
    const deleted = await clickAndNavigate(page, DELETE_SUBMIT);
    assert.equal(deleted.status(), 200);
    assert.equal(pathOf(page), '/');
    await assertFlash(page, 'success', TR.deleted);
    assert.equal(await page.locator(AVATAR).count(), 0, 'signed out');
    assert.equal(await page.locator(`${HEADER} a[href="/signin"]`).count(), 1);

    // Gone for good: the photo's file, the other browser's session; the profile asks to sign
    // in, and the old credentials fail.
    assert.ok(!(await avatars()).includes(photo), 'the photo file was erased');
    await other.page.goto(server.url('/'));
    assert.equal(await other.page.locator(AVATAR).count(), 0, 'the other browser was signed out');
    await done(other.context);
    await page.goto(server.url('/profile'));
    assert.equal(pathOf(page), '/signin');
    const again = await signIn(page, server, email, PASSWORD);
    assert.equal(again.status(), 422);
    await assertFlash(page, 'error', SIGNIN_FAILED_TR);
    assert.equal(await page.locator(AVATAR).count(), 0);
    await done(context);
  });

  it('the investor tab in English', async () => {
    const { context, page } = await open('en-US');
    await member(page, 'english');
    await tab(page, 'investor');
    assert.equal(await page.getAttribute('html', 'lang'), 'en');
    for (const [id, label] of Object.entries(EN.labels)) {
      assert.equal((await page.textContent(`label[for="${id}"]`)).trim(), label, `#${id}'s label`);
    }
    const legends = await texts(page, 'section.profile-tab legend');
    assert.ok(legends.includes(EN.citizen), `legends: ${JSON.stringify(legends)}`);
    for (const [name, text] of Object.entries(EN.tabs)) {
      assert.equal((await page.textContent(tabLink(name))).trim(), text);
    }

    await page.selectOption('#investor_type', 'individual');
    await page.selectOption('#id_type', 'tckn');
    await page.check('#citizen-yes');
    await page.fill('#identity_number', '1000000014');
    await page.fill('#annual_income', '1.500.000');
    await page.fill('#birth_date', '1985-04-23');
    const refused = await clickAndNavigate(page, INVESTOR_SUBMIT);
    assert.equal(refused.status(), 422);
    assert.equal(await page.getAttribute('html', 'lang'), 'en');
    assert.equal(await fieldError(page, 'identity_number'), EN.tcknLength);
    await done(context);
  });
});
