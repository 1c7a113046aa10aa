// The startup application (/projectFlow/1 to /projectFlow/4, then /projectFlow/done) in a real
// browser: the four steps in Turkish and in English, with JavaScript (the `char-counter` and
// `upload-progress` islands) and without it (the plain multipart form).
//
//   - the description counter counts as the user types ("12 / 1000 karakter", code points) and
//     turns to the error style past 1000;
//   - the presentation: a small PDF is kept, a 5.25 MB file and a renamed .exe are refused with the
//     server's message, the typed fields stay and the saved draft survives; with JavaScript the
//     upload goes through XHR and shows a <progress> while it runs (the response is delayed by
//     a route so the assertion does not race the loopback), a network failure says so;
//   - the "Geri"/"Back" link goes back without losing saved answers; a reload, and a new page
//     of the same browser, resume the draft; a step beyond the draft redirects to the next one;
//   - the last step lands on /projectFlow/done, and the confirmation mail (to the contact
//     address) and the staff notice (to staff@ortak.local) reach the SMTP sink.
//
// One server for the file (fresh data folder, demo content, mail to a local SMTP sink); each
// test has its own browser context (so its own draft cookie). Nothing may leave 127.0.0.1.
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  assertOnlyLoopback,
  clickAndNavigate,
  launchBrowser,
  newContext,
  startServer,
  uniqueEmail,
  waitForIsland,
  withLang,
} from './helpers.mjs';
import { pathOf } from './journeys.mjs';
import { startSmtpSink } from './smtp.mjs';

const SUBMIT = 'form.form button[type=submit]';
const BACK = 'form.form .form__actions a';
/** The startup's web site. (Step 1's honeypot is an <input id="website" type="text"> too.) */
const WEBSITE = 'input#website[type=url]';
const COUNTER = '[data-island="char-counter"] #description-hint';
const UPLOAD = '[data-island="upload-progress"]';
const STAFF = 'staff@ortak.local';

const TEXT = {
  tr: {
    steps: ['Şirket bilgileri', 'Finansal bilgiler', 'Girişimin geçmişi', 'İletişim bilgileri'],
    back: 'Geri',
    next: 'Devam et',
    submit: 'Başvuruyu gönder',
    unit: 'karakter',
    hint: 'En fazla 1000 karakter.',
    required: 'Bu alan zorunludur',
    noPresentation: 'Lütfen bir sunum dosyası yükleyin!',
    tooBig: 'Sunum dosyası en fazla 5 MB olabilir.',
    badType: 'PDF, PPTX ya da PPT olmalıdır',
    number: 'Lütfen geçerli bir sayı girin.',
    descriptionLong: 'Açıklama en fazla 1000 karakter olabilir.',
    current: 'Yüklü sunum',
    uploading: 'Yükleniyor…',
    failed: 'Bir hata oluştu. Lütfen daha sonra tekrar deneyin.',
    doneTitle: 'Başvurunuz alındı',
    mailSubject: 'girişim başvurunuz alındı',
  },
  en: {
    steps: ['Company information', 'Financial details', 'Startup history', 'Contact information'],
    back: 'Back',
    next: 'Continue',
    submit: 'Send the application',
    unit: 'characters',
    hint: 'At most 1000 characters.',
    required: 'This field is required',
    noPresentation: 'Please upload a presentation file!',
    tooBig: 'at most 5 MB',
    badType: 'PDF, PPTX or PPT',
    number: 'Please enter a valid number.',
    descriptionLong: 'The description can be at most 1000 characters.',
    current: 'Uploaded presentation',
    uploading: 'Uploading…',
    failed: 'Something went wrong. Please try again later.',
    doneTitle: 'Your application was received',
    mailSubject: 'your startup application was received',
  },
};

/** The staff notice's subject (always Turkish): "Yeni Girişim başvurusu: FOUNDER". */
const staffSubject = (founder) => `Yeni Girişim başvurusu: ${founder}`;

const SELECTS = new Set(['sector', 'stage']);
const RADIOS = new Set(['established', 'has_income', 'accelerator', 'prior_investment']);

/** Answers that pass every step; `tag` keeps names and addresses apart between tests. */
function applicant(tag) {
  return {
    1: {
      name: `Kuzey Mobilite ${tag}`,
      sector: 'mobility',
      subcategory: 'Mikromobilite',
      country: 'Türkiye',
      city: 'İzmir',
      description: 'Şehir içi elektrikli scooter paylaşımı; İzmir’de üç ilçede çalışıyoruz. 🛴',
      instagram: 'https://instagram.com/kuzeymobilite',
      twitter: 'https://x.com/kuzeymobilite',
      youtube: 'https://www.youtube.com/@kuzeymobilite',
    },
    2: {
      team_size: '6',
      established: 'yes',
      established_on: '2023-05-02',
      stage: 'seed',
      has_income: 'yes',
      monthly_income: '120.000',
      monthly_expense: '95.000',
      valuation_tl: '80.000.000',
      amount_sought_tl: '8.000.000',
    },
    3: {
      accelerator: 'yes',
      accelerator_date: '2024-03-01',
      accelerator_program: 'Hızlandır İzmir',
      accelerator_country: 'Türkiye',
      prior_investment: 'no',
    },
    4: {
      founder_1_name: `Ece Şahin ${tag}`,
      founder_1_position: 'Kurucu ortak, CEO',
      founder_1_phone: '0532 123 45 67',
      founder_1_linkedin: 'https://www.linkedin.com/in/ecesahin',
      contact_email: uniqueEmail(`project-${tag}`),
      how_heard: 'Bir arkadaşım önerdi',
    },
  };
}

/** Fills the fields `values` names (radios by their `#NAME-VALUE` id, selects by value). */
async function fillFields(page, values) {
  for (const [name, value] of Object.entries(values)) {
    if (RADIOS.has(name)) await page.check(`#${name}-${value}`);
    else if (SELECTS.has(name)) await page.selectOption(`#${name}`, value);
    else await page.fill(`#${name}`, value);
  }
}

/** Every field `values` names holds that value (radios: that option is checked). */
async function assertFields(page, values, where = '') {
  for (const [name, value] of Object.entries(values)) {
    if (RADIOS.has(name)) {
      assert.ok(await page.isChecked(`#${name}-${value}`), `${where} #${name}-${value} is checked (at ${page.url()})`);
    } else {
      assert.equal(await page.inputValue(`#${name}`), value, `${where} #${name} (at ${page.url()})`);
    }
  }
}

const h1 = async (page) => (await page.textContent('h1')).trim();

async function assertStep(page, lang, step) {
  assert.equal(pathOf(page), `/projectFlow/${step}`);
  assert.equal(await h1(page), TEXT[lang].steps[step - 1]);
}

/** Submits the step's form and waits for the page the server answers with. */
async function submit(page) {
  return clickAndNavigate(page, SUBMIT);
}

/** Follows the step's "Geri"/"Back" link, checking its text. */
async function back(page, lang) {
  assert.equal((await page.textContent(BACK)).trim(), TEXT[lang].back);
  const response = await clickAndNavigate(page, BACK);
  assert.equal(response.status(), 200);
}

/** Step 1 with both islands mounted. */
async function islandsReady(page) {
  await waitForIsland(page, 'char-counter');
  await waitForIsland(page, 'upload-progress');
}

/**
 * Submits step 1 with a file chosen and JavaScript on: the island sends it with XHR and, the
 * server answering 422, writes the re-rendered page into the document (no navigation). Waits
 * for `message` under the file field and for the islands of the written page.
 */
async function submitRefusedUpload(page, message) {
  const [request] = await Promise.all([
    page.waitForRequest((r) => r.method() === 'POST' && new URL(r.url()).pathname === '/projectFlow/1'),
    page.click(SUBMIT),
  ]);
  assert.equal(request.resourceType(), 'xhr', 'the island sent the upload');
  await page.locator('#presentation-error', { hasText: message }).waitFor();
  assert.equal(pathOf(page), '/projectFlow/1');
  await islandsReady(page);
}

/** The counter's text and whether it has the error style. */
async function counter(page) {
  const el = page.locator(COUNTER);
  return { text: (await el.textContent()).trim(), over: (await el.getAttribute('class')).split(/\s+/).includes('field__error') };
}

/** Waits until the counter reads `text`. */
async function waitForCounter(page, text) {
  await page.locator(COUNTER, { hasText: text }).waitFor();
  return counter(page);
}

/** While `body` runs, POSTs to /projectFlow/1 reach the server `ms` later. */
async function withDelayedUpload(page, ms, body) {
  const match = (url) => url.pathname === '/projectFlow/1';
  const handler = async (route) => {
    if (route.request().method() === 'POST') await new Promise((r) => setTimeout(r, ms));
    await route.continue();
  };
  await page.route(match, handler);
  try {
    return await body();
  } finally {
    await page.unroute(match, handler);
  }
}

/** Records the uncaught script errors of the context's pages; `assertNoErrors` checks there were none. */
function recordErrors(context) {
  const errors = [];
  context.on('weberror', (e) => errors.push(e.error().message));
  return () => assert.deepEqual(errors, [], 'no uncaught script errors');
}

/** The confirmation to the applicant and the staff notice arrived, in the applicant's language. */
async function assertMails(sink, lang, answers) {
  const { contact_email: email, founder_1_name: founder } = answers[4];
  const mail = await sink.waitFor(email, TEXT[lang].mailSubject);
  assert.ok(mail.text.trim().length > 0, 'the confirmation has a text part');
  const staff = await sink.waitFor(STAFF, staffSubject(founder));
  for (const line of [`Girişim: ${answers[1].name}`, `Sektör: ${answers[1].sector}`, `Şehir: ${answers[1].city}`, `Kurucu: ${founder}`, `E-posta: ${email}`, `Aranan yatırım: ${answers[2].amount_sought_tl} TL`]) {
    assert.ok(staff.text.includes(line), `the staff notice says "${line}":\n${staff.text}`);
  }
}

describe('startup application (/projectFlow)', () => {
  let server;
  let sink;
  let browser;
  let dir;
  const files = {};

  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'ortak-project-'));
    // Three files all named deck.pdf: a small real PDF, one over 5 MB, and a renamed program.
    for (const sub of ['ok', 'big', 'exe']) await mkdir(path.join(dir, sub));
    files.pdf = path.join(dir, 'ok', 'deck.pdf');
    await writeFile(files.pdf, '%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
    files.big = path.join(dir, 'big', 'deck.pdf');
    // Over the 5 MB limit, within the route's 6 MB body: read to its end, refused by size.
    const big = Buffer.alloc(5 * 1024 * 1024 + 256 * 1024, 0x20);
    big.write('%PDF-1.4\n');
    await writeFile(files.big, big);
    files.exe = path.join(dir, 'exe', 'deck.pdf');
    const exe = Buffer.alloc(4096, 0);
    exe.write('MZ\x90\x00\x03\x00\x00\x00This program cannot be run in DOS mode.', 'latin1');
    await writeFile(files.exe, exe);

    sink = await startSmtpSink();
    server = await startServer({ env: { ORTAK_SMTP_URL: sink.url } });
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
    await sink?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('Turkish, with JavaScript: live counter, refused uploads, upload progress, back and forth, resume, submit and mails', async () => {
    const T = TEXT.tr;
    const a = applicant('tr');
    const context = await newContext(browser, { locale: 'tr-TR' });
    const assertNoErrors = recordErrors(context);
    try {
      const page = await context.newPage();

      // No draft yet: a later step sends back to the first.
      await page.goto(server.url('/projectFlow/3'));
      await assertStep(page, 'tr', 1);
      await islandsReady(page);
      assert.equal((await page.textContent(SUBMIT)).trim(), T.next);
      assert.equal(await page.locator(BACK).count(), 0, 'no back link on the first step');

      // The counter replaces the static hint and counts code points as the user types.
      assert.deepEqual(await counter(page), { text: `0 / 1000 ${T.unit}`, over: false });
      assert.equal(await page.getAttribute(COUNTER, 'aria-live'), 'polite');
      assert.equal(await page.getAttribute('#description', 'aria-describedby'), 'description-hint');
      await page.locator('#description').pressSequentially('Elek');
      assert.deepEqual(await waitForCounter(page, `4 / 1000 ${T.unit}`), { text: `4 / 1000 ${T.unit}`, over: false });
      await page.locator('#description').pressSequentially('trikli 🚲');
      assert.deepEqual(await waitForCounter(page, `12 / 1000 ${T.unit}`), { text: `12 / 1000 ${T.unit}`, over: false });
      await page.fill('#description', 'ç'.repeat(1001));
      assert.deepEqual(await waitForCounter(page, `1001 / 1000 ${T.unit}`), { text: `1001 / 1000 ${T.unit}`, over: true });
      await page.fill('#description', '🚀'.repeat(1000));
      assert.deepEqual(await waitForCounter(page, `1000 / 1000 ${T.unit}`), { text: `1000 / 1000 ${T.unit}`, over: false });

      // Without a file the island stays out of the way: the plain form posts, 422, all kept.
      await fillFields(page, a[1]);
      const noFile = await submit(page);
      assert.equal(noFile.status(), 422);
      assert.equal((await page.textContent('#presentation-error')).trim(), T.noPresentation);
      await assertFields(page, a[1], 'after the missing presentation:');
      await islandsReady(page);
      const described = `${[...a[1].description].length} / 1000 ${T.unit}`;
      assert.equal((await counter(page)).text, described, 'the counter counts the kept description');

      // A program renamed deck.pdf: refused by its bytes, through the island's XHR.
      await page.setInputFiles('#presentation', files.exe);
      await submitRefusedUpload(page, T.badType);
      await assertFields(page, a[1], 'after the refused .exe:');
      assert.equal((await counter(page)).text, described, 'the counter is back on the written page');
      assert.equal(await page.locator('#presentation-current').count(), 0, 'nothing was kept');

      // 5.25 MB: over the limit.
      await page.setInputFiles('#presentation', files.big);
      await submitRefusedUpload(page, T.tooBig);
      await assertFields(page, a[1], 'after the 5.25 MB file:');

      // The network fails: the island says so, and the form can be sent again.
      await page.setInputFiles('#presentation', files.pdf);
      const stepOne = (url) => url.pathname === '/projectFlow/1';
      const abort = (route) => (route.request().method() === 'POST' ? route.abort('failed') : route.continue());
      await page.route(stepOne, abort);
      await page.click(SUBMIT);
      await page.locator(`${UPLOAD} [role="alert"]`, { hasText: T.failed }).waitFor();
      await page.unroute(stepOne, abort);
      assert.equal(pathOf(page), '/projectFlow/1');
      await assertFields(page, a[1], 'after the network failure:');

      // A good PDF: the progress shows while the upload runs, then step 2.
      await withDelayedUpload(page, 1_500, async () => {
        const navigated = page.waitForURL('**/projectFlow/2');
        await page.click(SUBMIT);
        const bar = page.locator(`${UPLOAD} progress`);
        await bar.waitFor();
        assert.equal(await bar.getAttribute('max'), '100');
        assert.equal(await bar.getAttribute('aria-label'), T.uploading);
        assert.ok((await page.textContent(UPLOAD)).includes(T.uploading), 'the uploading label shows');
        assert.equal(await page.getAttribute(UPLOAD + ' > div', 'aria-live'), 'polite');
        await navigated;
      });
      await page.waitForLoadState();
      await assertStep(page, 'tr', 2);

      // Step 2: a number that is not one.
      await fillFields(page, { ...a[2], team_size: 'altı' });
      assert.equal((await submit(page)).status(), 422);
      assert.equal((await page.textContent('#team_size-error')).trim(), T.number);
      await assertFields(page, { ...a[2], team_size: 'altı' }, 'step 2 after the error:');
      await page.fill('#team_size', a[2].team_size);
      assert.equal((await submit(page)).status(), 200);
      await assertStep(page, 'tr', 3);

      // Reload mid-way, and a new page of the same browser: the draft is there.
      await page.reload();
      await assertStep(page, 'tr', 3);
      const other = await context.newPage();
      await other.goto(server.url('/projectFlow/1'));
      await assertStep(other, 'tr', 1);
      await assertFields(other, a[1], 'resumed in a new page:');
      assert.ok((await other.textContent('#presentation-current')).includes(`${T.current}: deck.pdf`));
      await other.goto(server.url('/projectFlow/2'));
      await assertFields(other, a[2], 'resumed in a new page:');
      // Step 3 is not saved yet: step 4 sends back to it.
      await other.goto(server.url('/projectFlow/4'));
      await assertStep(other, 'tr', 3);
      await other.close();

      // Back to the first step without losing anything.
      await page.fill('#accelerator_program', 'yazıldı ama gönderilmedi');
      await back(page, 'tr');
      await assertStep(page, 'tr', 2);
      await assertFields(page, a[2], 'back on step 2:');
      await back(page, 'tr');
      await assertStep(page, 'tr', 1);
      await islandsReady(page);
      await assertFields(page, a[1], 'back on step 1:');

      // A refused upload with a draft: what was just typed stays, the saved draft survives.
      await page.fill('#city', 'Manisa');
      await page.setInputFiles('#presentation', files.exe);
      await submitRefusedUpload(page, T.badType);
      await assertFields(page, { ...a[1], city: 'Manisa' }, 'after the refused upload with a draft:');
      assert.ok((await page.textContent('#presentation-current')).includes('deck.pdf'), 'the kept presentation still shows');
      await page.goto(server.url('/projectFlow/1'));
      await assertFields(page, a[1], 'the saved draft:');
      assert.ok((await page.textContent('#presentation-current')).includes('deck.pdf'));
      await page.goto(server.url('/projectFlow/3'));
      await assertStep(page, 'tr', 3);

      // Forward again: step 1 needs no new upload, step 2 is as saved.
      await page.goto(server.url('/projectFlow/1'));
      await islandsReady(page);
      assert.equal((await submit(page)).status(), 200);
      await assertStep(page, 'tr', 2);
      await assertFields(page, a[2], 'forward on step 2:');
      assert.equal((await submit(page)).status(), 200);
      await assertStep(page, 'tr', 3);

      // Step 3: "yes" needs its details.
      await fillFields(page, { accelerator: 'yes', accelerator_date: '', accelerator_program: '', accelerator_country: '', prior_investment: 'no' });
      assert.equal((await submit(page)).status(), 422);
      assert.equal((await page.textContent('#accelerator_program-error')).trim(), T.required);
      await fillFields(page, a[3]);
      assert.equal((await submit(page)).status(), 200);
      await assertStep(page, 'tr', 4);
      assert.equal((await page.textContent(SUBMIT)).trim(), T.submit);
      await back(page, 'tr');
      await assertStep(page, 'tr', 3);
      await assertFields(page, a[3], 'back on step 3:');
      assert.equal((await submit(page)).status(), 200);
      await assertStep(page, 'tr', 4);

      // Submit.
      await fillFields(page, a[4]);
      const done = await submit(page);
      assert.equal(done.status(), 200);
      assert.equal(pathOf(page), '/projectFlow/done');
      assert.equal(await h1(page), T.doneTitle);
      await assertMails(sink, 'tr', a);
      assertNoErrors();

      // The draft is closed: the form starts afresh.
      await page.goto(server.url('/projectFlow/2'));
      await assertStep(page, 'tr', 1);
      assert.equal(await page.inputValue('#name'), '');
      assertOnlyLoopback(context);
    } finally {
      await context.close();
    }
  });

  it('English (?lang=en), with JavaScript: labels and messages in English, back and forth, submit and mails', async () => {
    const T = TEXT.en;
    const a = applicant('en');
    const context = await newContext(browser, { locale: 'tr-TR' });
    const assertNoErrors = recordErrors(context);
    try {
      const page = await context.newPage();
      await page.goto(server.url(withLang('/projectFlow/1', 'en')));
      await assertStep(page, 'en', 1);
      assert.equal(await page.getAttribute('html', 'lang'), 'en');
      await islandsReady(page);
      assert.equal((await page.textContent(SUBMIT)).trim(), T.next);
      assert.equal((await page.textContent('label[for="description"]')).trim(), 'Short description');
      assert.deepEqual(await counter(page), { text: `0 / 1000 ${T.unit}`, over: false });
      await page.locator('#description').pressSequentially('Çiğ köfte 🌯');
      assert.deepEqual(await waitForCounter(page, `11 / 1000 ${T.unit}`), { text: `11 / 1000 ${T.unit}`, over: false });
      await page.fill('#description', 'x'.repeat(1200));
      assert.deepEqual(await waitForCounter(page, `1200 / 1000 ${T.unit}`), { text: `1200 / 1000 ${T.unit}`, over: true });

      // Too long a description and no file: the plain post, both messages in English.
      await fillFields(page, { ...a[1], description: 'x'.repeat(1001) });
      assert.equal((await submit(page)).status(), 422);
      assert.equal((await page.textContent('#description-error')).trim(), T.descriptionLong);
      assert.equal((await page.textContent('#presentation-error')).trim(), T.noPresentation);
      await islandsReady(page);
      assert.deepEqual(await counter(page), { text: `1001 / 1000 ${T.unit}`, over: true });

      await page.fill('#description', a[1].description);
      await page.setInputFiles('#presentation', files.big);
      await submitRefusedUpload(page, T.tooBig);
      await assertFields(page, a[1], 'after the 5.25 MB file:');
      await page.setInputFiles('#presentation', files.exe);
      await submitRefusedUpload(page, T.badType);
      await assertFields(page, a[1], 'after the refused .exe:');

      await page.setInputFiles('#presentation', files.pdf);
      await withDelayedUpload(page, 1_000, async () => {
        const navigated = page.waitForURL('**/projectFlow/2');
        await page.click(SUBMIT);
        await page.locator(`${UPLOAD} progress[aria-label="${T.uploading}"]`).waitFor();
        await navigated;
      });
      await page.waitForLoadState();
      await assertStep(page, 'en', 2);

      await fillFields(page, { ...a[2], amount_sought_tl: 'a lot' });
      assert.equal((await submit(page)).status(), 422);
      assert.equal((await page.textContent('#amount_sought_tl-error')).trim(), T.number);
      await page.fill('#amount_sought_tl', a[2].amount_sought_tl);
      assert.equal((await submit(page)).status(), 200);
      await assertStep(page, 'en', 3);

      await back(page, 'en');
      await assertFields(page, a[2], 'back on step 2:');
      await back(page, 'en');
      await assertStep(page, 'en', 1);
      await assertFields(page, a[1], 'back on step 1:');
      assert.ok((await page.textContent('#presentation-current')).includes(`${T.current}: deck.pdf`));
      assert.equal((await submit(page)).status(), 200);
      assert.equal((await submit(page)).status(), 200);
      await assertStep(page, 'en', 3);

      await fillFields(page, { accelerator: 'no', prior_investment: 'yes', prior_date: '2024-11-15', prior_investors: 'İzmir Melek Ağı', prior_amount_tl: '' });
      assert.equal((await submit(page)).status(), 422);
      assert.equal((await page.textContent('#prior_amount_tl-error')).trim(), T.required);
      await page.fill('#prior_amount_tl', '150.000');
      assert.equal((await submit(page)).status(), 200);
      await assertStep(page, 'en', 4);
      assert.equal((await page.textContent(SUBMIT)).trim(), T.submit);

      await fillFields(page, a[4]);
      assert.equal((await submit(page)).status(), 200);
      assert.equal(pathOf(page), '/projectFlow/done');
      assert.equal(await h1(page), T.doneTitle);
      await assertMails(sink, 'en', a);
      assertNoErrors();
      assertOnlyLoopback(context);
    } finally {
      await context.close();
    }
  });

  it('Turkish, without JavaScript: the plain multipart form does the whole walk', async () => {
    const T = TEXT.tr;
    const a = applicant('nojs');
    const context = await newContext(browser, { locale: 'tr-TR', javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      await page.goto(server.url('/projectFlow/1'));
      await assertStep(page, 'tr', 1);
      // The islands' fallbacks: the static hint, and nothing under the file field.
      assert.equal((await page.textContent('#description-hint')).trim(), T.hint);
      assert.equal(await page.getAttribute('[data-island="char-counter"]', 'data-island-ready'), null);
      assert.equal((await page.innerHTML(UPLOAD)).trim(), '');

      await fillFields(page, a[1]);
      await page.setInputFiles('#presentation', files.exe);
      assert.equal((await submit(page)).status(), 422);
      assert.ok((await page.textContent('#presentation-error')).includes(T.badType));
      await assertFields(page, a[1], 'after the refused .exe:');

      await page.setInputFiles('#presentation', files.big);
      assert.equal((await submit(page)).status(), 422);
      assert.equal((await page.textContent('#presentation-error')).trim(), T.tooBig);
      await assertFields(page, a[1], 'after the 5.25 MB file:');

      await page.setInputFiles('#presentation', files.pdf);
      assert.equal((await submit(page)).status(), 200);
      await assertStep(page, 'tr', 2);
      await fillFields(page, a[2]);
      assert.equal((await submit(page)).status(), 200);
      await assertStep(page, 'tr', 3);

      await page.reload();
      await assertStep(page, 'tr', 3);
      await page.goto(server.url('/projectFlow/4'));
      await assertStep(page, 'tr', 3);
      await back(page, 'tr');
      await assertFields(page, a[2], 'back on step 2:');
      await back(page, 'tr');
      await assertFields(page, a[1], 'back on step 1:');
      assert.ok((await page.textContent('#presentation-current')).includes('deck.pdf'));
      assert.equal((await submit(page)).status(), 200);
      assert.equal((await submit(page)).status(), 200);
      await assertStep(page, 'tr', 3);

      await fillFields(page, a[3]);
      assert.equal((await submit(page)).status(), 200);
      await assertStep(page, 'tr', 4);
      await fillFields(page, a[4]);
      assert.equal((await submit(page)).status(), 200);
      assert.equal(pathOf(page), '/projectFlow/done');
      assert.equal(await h1(page), T.doneTitle);
      await assertMails(sink, 'tr', a);
      assertOnlyLoopback(context);
    } finally {
      await context.close();
    }
  });

  it(
    'the startup web site typed on step 1 is kept',
    async () => {
      const a = applicant('web');
      const context = await newContext(browser, { locale: 'tr-TR', javaScriptEnabled: false });
      try {
        const page = await context.newPage();
        await page.goto(server.url('/projectFlow/1'));
        await fillFields(page, a[1]);
        await page.fill(WEBSITE, 'https://kuzeymobilite.example');
        await page.setInputFiles('#presentation', files.pdf);
        assert.equal((await submit(page)).status(), 200);
        await assertStep(page, 'tr', 2);
        await back(page, 'tr');
        assert.equal(await page.inputValue(WEBSITE), 'https://kuzeymobilite.example');
        assertOnlyLoopback(context);
      } finally {
        await context.close();
      }
    },
  );

  it(
    'a description of 1000 characters with a line break is accepted (the counter says 1000 / 1000)',
    async () => {
      const a = applicant('crlf');
      const context = await newContext(browser, { locale: 'tr-TR' });
      try {
        const page = await context.newPage();
        await page.goto(server.url('/projectFlow/1'));
        await islandsReady(page);
        const description = `${'a'.repeat(500)}\n${'b'.repeat(499)}`;
        await fillFields(page, { ...a[1], description });
        assert.deepEqual(await waitForCounter(page, '1000 / 1000'), { text: `1000 / 1000 ${TEXT.tr.unit}`, over: false });
        await page.setInputFiles('#presentation', files.pdf);
        await page.click(SUBMIT);
        // Either step 2 (accepted) or the 422 page written in place (refused).
        await Promise.race([page.waitForURL('**/projectFlow/2'), page.locator('#description-error').waitFor()]);
        await page.waitForLoadState();
        assert.equal(await page.locator('#description-error').count(), 0, 'no description error');
        await assertStep(page, 'tr', 2);
        assertOnlyLoopback(context);
      } finally {
        await context.close();
      }
    },
  );
});
