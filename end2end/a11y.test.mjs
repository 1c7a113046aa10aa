// Accessibility and HTML validity of every page, for every role that can open it:
//
//   axe-core       run in the browser on the live page (islands mounted) with the WCAG 2.0, 2.1
//                  and 2.2 A/AA rules: no violation allowed;
//   html-validate  on the HTML the server sent (the response body, not the live DOM), with the
//                  recommended preset: no error allowed;
//   layout         on every page, at 390 px and 1440 px, nothing makes the page wider than the
//                  screen or sticks out of its card (end2end/layout.mjs; screenshots of each
//                  page at both widths are written to the folder the test prints);
//   keyboard       on every page, Tab reaches every visible control (each radio group once);
//                  the sign-in, newsletter, investment-request and staff-table journeys are
//                  completed with the keyboard only.
//
// Roles: a visitor; an investor (joined through the form, onboarding done step by step, the MKK
// form sent and its data marked verified in the database, as staff's review does, one
// investment request made, the round's information form opened first); an admin and a
// superadmin (`ortak create-admin` before the server starts; the superadmin also sits on the
// investment committee, seated in the database beside two of the demo's members); a fund-team
// member (an investor the superadmin adds to fund 1's team). Each role visits the public pages,
// and the member, staff, committee and fund pages it may open (the campaign pages included).
// Forms are also checked after a refused submit (422 with the errors shown).
//
// axe is injected with page.evaluate (a DevTools evaluation, which the site's CSP does not
// govern; the CSP itself is left as the server sends it). Problems are collected per role and
// reported together: page, rule id, impact or line, and the elements concerned.
//
// One server for the file (fresh data folder, demo content, SMTP sink). Nothing may leave
// 127.0.0.1.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { after, before, describe, it } from 'node:test';
import { HtmlValidate } from 'html-validate';
import {
  assertOnlyLoopback,
  clickAndNavigate,
  launchBrowser,
  newContext,
  startServer,
  uniqueEmail,
} from './helpers.mjs';
import {
  fillById,
  fillPayer,
  join,
  MKK,
  nextCode,
  openInformationForm,
  pathOf,
  PAYER,
  rememberAuthenticator,
  seatCommittee,
  SIGNIN_SUBMIT,
  signIn,
  sqliteValue,
  texts,
  verifyMkk,
} from './journeys.mjs';
import { LAYOUT_SHOTS, layoutProblems } from './layout.mjs';
import { startSmtpSink } from './smtp.mjs';

const require = createRequire(import.meta.url);
const AXE_SOURCE = await readFile(require.resolve('axe-core/axe.min.js'), 'utf8');
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

const validator = new HtmlValidate({
  extends: ['html-validate:recommended'],
  rules: {
    // Not off, narrowed: a group of checkboxes shares one name on purpose (the form posts each
    // ticked value under it, e.g. the onboarding's interests), as radio buttons do.
    'form-dup-name': ['error', { shared: ['radio', 'checkbox', 'button', 'reset', 'submit'] }],
  },
});

/**
 * Known problems of the application, waived here until the application is fixed (each is
 * listed as a diagnostic of the test that met it; remove the entry with the fix). None today.
 */
const KNOWN_APP_ISSUES = [];

const SUPER = { email: 'super@example.com', password: 'parola-1234' };
const ADMIN = { email: 'admin@example.com', password: 'parola-5678' };

/** An open startup of the demo content (investment period) and a fund-1 startup is found live. */
const OPEN_STARTUP = 'cemre-enerji';

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

/** Pages anyone may open (a blog post is added once found); `[path, expected status]`. */
const PUBLIC = [
  ['/', 200],
  ['/?lang=en', 200],
  ['/faq', 200],
  ['/blog', 200],
  ...POLICIES.map((slug) => [`/politikalar/${slug}`, 200]),
  ['/techinvestor', 200],
  ['/startups', 200],
  ['/startups?lang=en', 200],
  ['/newsletter', 200],
  ['/newsletter/confirm?token=expired', 410],
  ['/unsubscribe?token=1.digest.forged', 400],
  ['/gsyf', 200],
  ['/academy', 200],
  ['/forgotpassword', 200],
  ['/verification', 200],
  ['/projectFlow/1', 200],
  ['/projectFlow/done', 200],
  // Who runs Ortak, the yearly limit and the track record (issue 28).
  ['/about', 200],
  ['/about?lang=en', 200],
  ['/contactUs', 200],
  ['/limits', 200],
  ['/limits?income=2.000.000&lang=en', 200],
  ['/limits?income=bir milyon', 422],
  ['/track-record', 200],
  ['/track-record?lang=en', 200],
  ['/no-such-page', 404],
];
/** How the audited pages open: in Turkish, at the layout check's desktop width. */
const AUDITED = { locale: 'tr-TR', viewport: { width: 1440, height: 900 } };
/**
 * The public pages staff and fund members are audited on. A public page differs between signed-in
 * members only in its header, which each role's own pages show too; every public page is
 * audited for the visitor and for the investor.
 */
const PUBLIC_SIGNED_IN = [
  ['/', 200],
  ['/?lang=en', 200],
  ['/startups', 200],
  ['/no-such-page', 404],
];
/** Only for visitors: signed-in members are sent on. */
const SIGNED_OUT = [
  ['/signin', 200],
  ['/signin?lang=en', 200],
  ['/signup', 200],
];

const MEMBER = [
  '/overview',
  `/startups/${OPEN_STARTUP}`,
  `/startups/${OPEN_STARTUP}?lang=en`,
  `/startups/${OPEN_STARTUP}/questions`,
  '/favorites',
  '/documents',
  '/mkk',
  `/investmentFlow?startup=${OPEN_STARTUP}`,
  '/pendingInvestments',
  '/userInvestments',
  '/reports',
  '/profile',
  '/profile?tab=security',
  '/profile/2fa',
  '/profile?tab=preferences',
  '/profile?tab=investor',
  '/profile?tab=notifications',
  '/profile?tab=delete',
  '/profile?tab=info&lang=en',
  '/contactUs',
  '/qualifiedInvestor',
];

/** The island modules a server page loads (`/assets/islands/NAME-HASH.js`). */
const islandsOf = (html) => [...html.matchAll(/<script type="module" src="\/assets\/islands\/([a-z0-9-]+)-[^"]*\.js"/g)].map((m) => m[1]);

/** Runs axe on the page as it is now; resolves to its violations. */
async function axeViolations(page) {
  if (!(await page.evaluate(() => typeof window.axe === 'object'))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(
    (tags) => window.axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] }).then((r) => r.violations),
    AXE_TAGS,
  );
}

/** Presses Tab until `selector` has the focus (at most 100 times); returns the presses. */
async function tabTo(page, selector) {
  for (let n = 1; n <= 100; n += 1) {
    await page.keyboard.press('Tab');
    if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return n;
  }
  const at = await page.evaluate(() => document.activeElement?.outerHTML.slice(0, 120));
  assert.fail(`${selector} is not reachable with Tab (the focus ended on ${at})`);
}

/**
 * Keyboard reach: presses Tab through the page and returns the controls it never reached
 * (links, buttons, fields, and each radio group once, as Tab enters a group at one radio and
 * the arrow keys move within it). Native controls are operable once focused, so a reachable
 * control is a usable one. Disabled controls (their own attribute, or a disabled fieldset's,
 * as the startup editor's locked campaign fields are) take no focus and are not counted.
 */
async function unreachable(page) {
  const total = await page.evaluate(() => {
    const selector =
      'a[href], button:not(:disabled), input:not([type="hidden"]):not(:disabled), select:not(:disabled), textarea:not(:disabled), summary, [tabindex]';
    let n = 0;
    for (const el of document.querySelectorAll(selector)) {
      delete el.dataset.kbd;
      const box = el.getBoundingClientRect();
      const style = getComputedStyle(el);
      if (el.tabIndex < 0 || box.width === 0 || box.height === 0 || style.visibility === 'hidden') continue;
      if (el.closest('[inert], [aria-hidden="true"], details:not([open]) > :not(summary)')) continue;
      el.dataset.kbd = el.type === 'radio' ? `radio:${el.form?.id ?? ''}:${el.name}` : `el:${n}`;
      n += 1;
    }
    return new Set([...document.querySelectorAll('[data-kbd]')].map((el) => el.dataset.kbd)).size;
  });
  if (total === 0) return [];
  // The page records each control that takes the focus; the Tab presses go out a batch at a
  // time without waiting for each one's answer (DevTools handles them in order, each a real key
  // press), so a page with a hundred controls costs a few round trips, not hundreds.
  await page.evaluate(() => {
    document.activeElement?.blur();
    window.scrollTo(0, 0);
    window.kbdReached = new Set();
    if (!window.kbdListening) {
      window.kbdListening = true;
      document.addEventListener('focusin', (e) => e.target?.dataset?.kbd && window.kbdReached.add(e.target.dataset.kbd), true);
    }
  });
  const cdp = await page.context().newCDPSession(page);
  const key = (type) => cdp.send('Input.dispatchKeyEvent', { type, key: 'Tab', code: 'Tab', windowsVirtualKeyCode: 9 });
  try {
    const limit = total * 2 + 10;
    for (let pressed = 0; pressed < limit; ) {
      const batch = Math.min(total + 1, limit - pressed);
      await Promise.all(Array.from({ length: batch }, () => [key('rawKeyDown'), key('keyUp')]).flat());
      pressed += batch;
      if ((await page.evaluate(() => window.kbdReached.size)) === total) return [];
    }
  } finally {
    await cdp.detach();
    // The walk may end on the skip link, which shows while it has the focus: not in the
    // screenshots that follow.
    await page.evaluate(() => document.activeElement?.blur());
  }
  return page.evaluate(
    () =>
      [...new Set([...document.querySelectorAll('[data-kbd]')].filter((el) => !window.kbdReached.has(el.dataset.kbd)).map((el) => el.outerHTML.slice(0, 100)))],
  );
}

/** One line per node of an axe violation. */
function describeAxe(v) {
  const nodes = v.nodes
    .slice(0, 8)
    .map((n) => `      ${n.target.join(' ')}${n.failureSummary ? `\n        ${n.failureSummary.replace(/\n\s*/g, ' ')}` : ''}`)
    .join('\n');
  const more = v.nodes.length > 8 ? `\n      …and ${v.nodes.length - 8} more` : '';
  return `[axe] ${v.id} (${v.impact}): ${v.help}\n${nodes}${more}`;
}

/** Milliseconds spent in each check, over the whole suite (printed at its end). */
const spent = {};

describe('accessibility and HTML validity', () => {
  let server;
  let sink;
  let browser;
  /** Found on the way: a blog post, an investment request, fund 1's startup, the investor's id. */
  const found = { blogPost: null, requestId: null, fundStartupId: null, investorId: null };
  const fundMember = { email: uniqueEmail('fund'), context: null, page: null };
  /** The investor, kept signed in to pay once the superadmin approved the request. */
  const investor = { context: null, page: null, email: null };

  before(async () => {
    sink = await startSmtpSink();
    server = await startServer({
      env: { ORTAK_SMTP_URL: sink.url },
      beforeStart: async ({ run }) => {
        await run(['create-admin', '--create', '--email', SUPER.email, '--password', SUPER.password, '--super']);
        await run(['create-admin', '--create', '--email', ADMIN.email, '--password', ADMIN.password]);
      },
    });
    // The superadmin sits on the committee (with two of the demo's members): its pages are theirs.
    seatCommittee(server, [SUPER.email, 'komite1@demo.ortak.local', 'komite2@demo.ortak.local']);
    browser = await launchBrowser();
  });

  after(async () => {
    console.log(`# time per check, whole suite: ${Object.entries(spent).map(([k, ms]) => `${k} ${(ms / 1000).toFixed(1)} s`).join(', ')}`);
    await fundMember.context?.close();
    await investor.context?.close();
    await browser?.close();
    await server?.stop();
    await sink?.close();
  });

  /**
   * Checks what `page` shows now: the server's HTML (`html`) with html-validate, then the live
   * page with axe once its islands are mounted. Problems are added to `report`.
   */
  async function check(page, where, html, report) {
    const issues = [];
    const timed = async (phase, work) => {
      const started = performance.now();
      try {
        return await work();
      } finally {
        spent[phase] = (spent[phase] ?? 0) + performance.now() - started;
      }
    };
    // A misspelt or missing Fluent id renders the loader's placeholder instead of the text.
    for (const m of html.matchAll(/Unknown localization key: ([^<]{0,60})/g)) issues.push(`[fluent] no message: ${m[1]}`);
    const validation = await timed('html-validate', () => validator.validateString(html, where));
    for (const result of validation.results) {
      for (const m of result.messages) {
        if (m.severity < 2) continue;
        if (KNOWN_APP_ISSUES.some((k) => k.rule === m.ruleId && k.where.test(where) && k.selector.test(m.selector ?? ''))) {
          (report.waived ??= []).push(`${where}: ${m.ruleId} ${m.selector}`);
          continue;
        }
        issues.push(`[html-validate] ${m.ruleId} (line ${m.line}:${m.column}): ${m.message}${m.selector ? `\n      ${m.selector}` : ''}`);
      }
    }
    for (const name of new Set(islandsOf(html))) {
      await page.waitForSelector(`[data-island="${name}"][data-island-ready="1"]`, { state: 'attached' });
    }
    // The staff table fetches its rows: check it with them (or with its error).
    if (html.includes('data-island="staff-table"')) {
      await page.waitForSelector('[data-island="staff-table"] :is(.staff-table__count, .staff-table__status[role="alert"])');
    }
    report.pages += 1;
    for (const v of await timed('axe', () => axeViolations(page))) issues.push(describeAxe(v));
    for (const control of await timed('keyboard', () => unreachable(page))) issues.push(`[keyboard] not reachable with Tab: ${control}`);
    issues.push(...(await timed('layout', () => layoutProblems(page, `${report.role ?? ''} ${where}`))));
    if (issues.length > 0) report.problems.push(`${where}\n    ${issues.join('\n    ')}`);
  }

  /** Opens `path`, expects `status`, and checks the page. */
  async function audit(page, path, report, status = 200) {
    const response = await page.goto(server.url(path));
    const where = `${path} → ${pathOf(page)}${new URL(page.url()).search}`;
    if (response.status() !== status) {
      report.problems.push(`${where}\n    answered ${response.status()}, expected ${status}`);
      return;
    }
    const type = response.headers()['content-type'] ?? '';
    assert.ok(type.startsWith('text/html'), `${path} is a page: ${type}`);
    await check(page, `${path} (${status})`, await response.text(), report);
  }

  /** Submits with `selector` (a navigation) and checks the page it leads to. */
  async function auditSubmit(page, selector, label, report, status) {
    const response = await clickAndNavigate(page, selector);
    assert.equal(response.status(), status, `${label}: ${response.status()} at ${page.url()}`);
    await check(page, `${label} (${status})`, await response.text(), report);
  }

  /** No problem on any page the role checked (and it did check `atLeast` pages). */
  function assertNone(t, report, role, atLeast) {
    const shots = LAYOUT_SHOTS ? `; screenshots at 390 and 1440 px in ${LAYOUT_SHOTS}` : '';
    t.diagnostic(`${report.pages} page(s) checked for the ${role}${shots}`);
    for (const waived of report.waived ?? []) t.diagnostic(`waived, a known application problem (KNOWN_APP_ISSUES): ${waived}`);
    const { problems } = report;
    assert.equal(problems.length, 0, `${problems.length} page(s) with problems for the ${role}:\n  ${problems.join('\n  ')}`);
    assert.ok(report.pages >= atLeast, `only ${report.pages} pages checked for the ${role}, expected at least ${atLeast}`);
  }

  async function publicPages(page, report) {
    for (const [path, status] of PUBLIC) await audit(page, path, report, status);
    if (!found.blogPost) {
      await page.goto(server.url('/blog'));
      const href = await page.getAttribute('ul.post-list a', 'href');
      assert.ok(href, '/blog links to a post');
      found.blogPost = new URL(href, server.baseURL).pathname;
    }
    await audit(page, found.blogPost, report);
    await audit(page, `${found.blogPost}?lang=en`, report);
  }

  /** The public pages as a staff or fund member sees them (`PUBLIC_SIGNED_IN`). */
  async function publicPagesSignedIn(page, report) {
    for (const [path, status] of PUBLIC_SIGNED_IN) await audit(page, path, report, status);
  }

  async function memberPages(page, report) {
    for (const path of MEMBER) await audit(page, path, report);
  }

  /** Every staff page the signed-in staff member's navigation lists, and the editors. */
  async function staffPages(page, report, superadmin) {
    await page.goto(server.url('/dashboard'));
    const sections = await page.$$eval('nav.staff-nav ul a', (as) => as.map((a) => a.getAttribute('href')));
    assert.ok(sections.length >= (superadmin ? 15 : 10), `the staff navigation: ${sections}`);
    for (const path of sections) await audit(page, path, report);
    const editors = [
      '/dashboard/startups/new',
      '/dashboard/startups/1',
      '/dashboard/users/1',
      '/dashboard/rounds/1',
      '/dashboard/autoMail/welcome',
      '/dashboard/academy/events',
      '/dashboard/faq/new',
      '/dashboard/faq/1',
      '/dashboard/blogs/new',
      '/dashboard/blogs/1',
      '/dashboard/users?lang=en',
    ];
    // A campaign's review and its staff draft (the demo's are approved).
    editors.push('/dashboard/startups/1/campaign', '/dashboard/startups/1/campaign/draft');
    if (superadmin) {
      editors.push('/dashboard/vipgroups/new', '/dashboard/vcGroups/new');
      // A round's close confirmation page, and a version the committee decided.
      const version = sqliteValue(server, 'SELECT MAX(id) FROM campaign_versions WHERE startup_id = 1');
      editors.push('/dashboard/rounds/1/close', `/dashboard/committee/${version}`);
      assert.ok(found.requestId, 'the investor made a request');
      editors.push(`/dashboard/investments/${found.requestId}`);
      // The investor's member page: verified MKK data and the identities used.
      const users = await (await page.context().request.get(server.url('/dashboard/users.json'))).json();
      found.investorId = users.rows.find((r) => r.cells[0] === investor.email)?.id;
      assert.ok(found.investorId, `${investor.email} is on /dashboard/users`);
      editors.push(`/dashboard/users/${found.investorId}`);
    }
    for (const path of editors) await audit(page, path, report);
    // The users table island with the keyboard only: search, then sort by the first column.
    await page.goto(server.url('/dashboard/users'));
    await page.waitForSelector('[data-island="staff-table"] .staff-table__count');
    await tabTo(page, '#staff-table-q');
    await page.keyboard.type('super@');
    await page.waitForFunction(() => {
      const rows = [...document.querySelectorAll('[data-island="staff-table"] tbody tr')];
      return rows.length > 0 && rows.every((r) => r.textContent.includes('super@'));
    });
    await tabTo(page, '[data-island="staff-table"] th button.th-sort');
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-island="staff-table"] th[aria-sort]');
    // The English dashboard home, and a refused editor (the name left empty).
    await audit(page, '/dashboard?lang=en', report);
    await page.goto(server.url('/dashboard/faq/new'));
    await auditSubmit(page, 'form.editor button[type=submit], .staff__main form button[type=submit]', 'POST /dashboard/faq/new, empty', report, 422);
    if (superadmin) {
      await page.goto(server.url('/dashboard/startups/new'));
      await auditSubmit(page, 'button[name="intent"][value="save"]', 'POST /dashboard/startups/new, empty', report, 422);
    }
  }

  it('visitor: public pages, sign-in and sign-up, and refused forms', async (t) => {
    const context = await newContext(browser, AUDITED);
    const page = await context.newPage();
    const report = { pages: 0, problems: [], role: 'visitor' };
    await publicPages(page, report);
    for (const [path, status] of SIGNED_OUT) await audit(page, path, report, status);

    // Refused: sign-up with nothing filled in, a wrong password, a GSYF application, the
    // newsletter's no-JavaScript form with a bad address.
    await page.goto(server.url('/signup'));
    await auditSubmit(page, 'form.form button[type=submit]', 'POST /signup, empty', report, 422);
    await page.goto(server.url('/signin'));
    await page.fill('#email', 'nobody@example.com');
    await page.fill('#password', 'yanlis-parola-1');
    const refused = await clickAndNavigate(page, 'form[action="/signin"] button[type=submit]');
    await check(page, `POST /signin, wrong password (${refused.status()})`, await refused.text(), report);
    await page.goto(server.url('/gsyf'));
    await auditSubmit(page, 'main form button[type=submit]', 'POST /gsyf, empty', report, 422);
    await page.goto(server.url('/projectFlow/1'));
    await auditSubmit(page, 'main form button[type=submit]', 'POST /projectFlow/1, empty', report, 422);
    await page.goto(server.url('/faq'));
    await page.fill('#newsletter-email', 'not-an-address');
    await auditSubmit(page, 'form[action="/newsletter"] button[type=submit]', 'POST /newsletter, bad address', report, 422);

    assertOnlyLoopback(context);
    await context.close();
    assertNone(t, report, 'visitor', PUBLIC.length + 2 + SIGNED_OUT.length + 5);
  });

  it('investor: onboarding, MKK, an investment request, member and public pages', async (t) => {
    investor.context = await newContext(browser, AUDITED);
    const context = investor.context;
    const page = await context.newPage();
    investor.page = page;
    const report = { pages: 0, problems: [], role: 'investor' };
    const account = uniqueEmail('a11y');
    investor.email = account;
    await join(page, { server, sink }, account);
    assert.equal(pathOf(page), '/boardingFlow/1');

    // Onboarding: each step as it is reached, step 1 refused once.
    const submit = 'form.form button[type=submit]';
    await audit(page, '/boardingFlow/1', report);
    // Sign-up asked the contact details: they are shown, and changed on request.
    await page.click('details.disclosure > summary');
    await page.fill('#city', '');
    await auditSubmit(page, submit, 'POST /boardingFlow/1, no city', report, 422);
    await page.fill('#city', 'İstanbul');
    await clickAndNavigate(page, submit);
    await audit(page, '/boardingFlow/2', report);
    await page.selectOption('#investor_type', 'individual');
    await clickAndNavigate(page, submit);
    await audit(page, '/boardingFlow/3', report);
    await page.check('#purpose-invest');
    await page.check('#budget-100000-250000');
    await clickAndNavigate(page, submit);
    await audit(page, '/boardingFlow/4', report);
    await page.check('#interests-fintech');
    await page.check('#how_heard-friend');
    await clickAndNavigate(page, submit);
    await audit(page, '/boardingFlow/5', report);
    await page.check('#experience-yes');
    await page.check('#specific-no');
    await auditSubmit(page, submit, 'POST /boardingFlow/5', report, 200);
    assert.equal(pathOf(page), '/boardingFlow/success');

    // MKK: refused empty, then sent.
    await page.goto(server.url('/mkk'));
    await auditSubmit(page, 'form[action="/mkk"] button[type=submit]', 'POST /mkk, empty', report, 422);
    await page.goto(server.url('/mkk'));
    await page.selectOption('#investor_type', 'individual');
    await page.selectOption('#id_type', 'tckn');
    await page.check('#citizen-yes');
    const email = await page.inputValue('#email');
    await fillById(page, { ...MKK, email: email || uniqueEmail('mkk') });
    const mkk = await clickAndNavigate(page, 'form[action="/mkk"] button[type=submit]');
    assert.equal(mkk.status(), 200, `MKK form: ${mkk.status()}`);
    assert.equal(await page.locator('.field__error').count(), 0, `MKK form errors: ${await texts(page, '.field__error')}`);
    // The amount page while the data waits for review (409: nothing for the member to fix),
    // then the data verified.
    await audit(page, `/investmentFlow?startup=${OPEN_STARTUP}`, report, 409);
    verifyMkk(server, account);

    // A favourite, so /favorites lists something.
    await page.goto(server.url(`/startups/${OPEN_STARTUP}`));
    await clickAndNavigate(page, 'form.favorite-toggle button');

    // The round's information form, which a request needs opened (the terms card's link).
    await openInformationForm(page, server, OPEN_STARTUP);

    // A request with the amount island, with the keyboard only: Tab into the amounts, Space
    // picks one, Space ticks the risk statement, Enter sends. Its dialog is checked open, then
    // closed with Escape.
    await page.goto(server.url(`/investmentFlow?startup=${OPEN_STARTUP}`));
    await page.waitForSelector('[data-island="investment"][data-island-ready="1"]');
    await tabTo(page, '[data-island="investment"] input[name="quick"]');
    await page.keyboard.press('Space');
    assert.equal(await page.locator('[data-island="investment"] input[name="quick"]:checked').count(), 1, 'an amount picked with Space');
    await tabTo(page, '#risk');
    await page.keyboard.press('Space');
    assert.ok(await page.isChecked('#risk'), 'the risk statement ticked with Space');
    await tabTo(page, '[data-island="investment"] form.investment-form button[type="submit"]');
    const [created] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/investmentRequests'),
      page.keyboard.press('Enter'),
    ]);
    assert.equal(created.status(), 201);
    await page.waitForSelector('[data-island="investment"] dialog.modal[open]');
    assert.ok(
      await page.evaluate(() => document.querySelector('dialog.modal[open]')?.contains(document.activeElement)),
      'the dialog takes the focus',
    );
    const dialog = await axeViolations(page);
    if (dialog.length > 0) report.problems.push(`/investmentFlow, the request dialog open\n    ${dialog.map(describeAxe).join('\n    ')}`);
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-island="investment"] dialog.modal[open]', { state: 'detached' });
    // The request's id, from its cancel form.
    await page.goto(server.url('/pendingInvestments'));
    const cancel = await page.getAttribute('form[action^="/pendingInvestments/"][action$="/cancel"]', 'action');
    found.requestId = Number(/\/pendingInvestments\/(\d+)\/cancel/.exec(cancel)?.[1]);

    await memberPages(page, report);
    await audit(page, '/investmentFlow/created', report);
    await audit(page, '/boardingFlow/1', report);
    await publicPages(page, report);
    // Refused: the contact form and the profile's password form, empty.
    await page.goto(server.url('/contactUs'));
    await auditSubmit(page, 'main form button[type=submit]', 'POST /contactUs, empty', report, 422);
    await page.goto(server.url('/profile?tab=security'));
    await auditSubmit(page, 'form[action="/profile/password"] button', 'POST /profile/password, empty', report, 422);

    assertOnlyLoopback(context);
    assertNone(t, report, 'investor', 6 + 1 + 1 + MEMBER.length + 2 + PUBLIC.length + 2 + 2);
  });

  it('superadmin: every staff page and editor, member and public pages; adds a fund-team member', async (t) => {
    const context = await newContext(browser, AUDITED);
    const page = await context.newPage();
    const report = { pages: 0, problems: [], role: 'superadmin' };
    // Signing in: the password, then the authenticator's enrolment and the recovery codes.
    await page.goto(server.url('/signin'));
    await page.fill('#email', SUPER.email);
    await page.fill('#password', SUPER.password);
    await auditSubmit(page, SIGNIN_SUBMIT, 'POST /signin (staff: enrol an authenticator)', report, 200);
    assert.equal(pathOf(page), '/signin/2fa/setup');
    rememberAuthenticator(server, SUPER.email, await page.getAttribute('[data-secret]', 'data-secret'));
    await page.fill('#code', '000000');
    await auditSubmit(page, 'form.form button[type=submit]', 'POST /signin/2fa/setup, a wrong code', report, 422);
    await page.fill('#code', await nextCode(server, SUPER.email));
    await auditSubmit(page, 'form.form button[type=submit]', 'POST /signin/2fa/setup (the recovery codes)', report, 200);
    const signedIn = await clickAndNavigate(page, 'main p > a.button--primary');
    assert.equal(signedIn.status(), 200);

    // The fund member joins; the superadmin adds them to fund 1's team (the vcGroups form).
    fundMember.context = await newContext(browser, AUDITED);
    fundMember.page = await fundMember.context.newPage();
    await join(fundMember.page, { server, sink }, fundMember.email);
    await page.goto(server.url('/dashboard/vcGroups'));
    const csrf = await page.getAttribute('form[action="/dashboard/vcGroups/1/members"] input[name="csrf"]', 'value');
    const added = await context.request.post(server.url('/dashboard/vcGroups/1/members'), {
      form: { csrf, op: 'add', email: fundMember.email },
      maxRedirects: 0,
    });
    assert.equal(added.status(), 303, `adding the fund member: ${added.status()}`);

    await staffPages(page, report, true);
    // A VIP group, created with its form; its page.
    await page.goto(server.url('/dashboard/vipgroups/new'));
    await page.fill('main form:has(button[name="create"]) input[name="name"]', 'Erken yatırımcılar');
    await auditSubmit(page, 'main button[name="create"]', 'POST /dashboard/vipgroups (a new group)', report, 200);
    assert.match(pathOf(page), /^\/dashboard\/vipgroups\/\d+$/);
    await audit(page, '/dashboard/vipgroups', report);
    // The investor's request, approved, so that the investor can pay (the last test).
    await page.goto(server.url(`/dashboard/investments/${found.requestId}`));
    const approved = await context.request.post(server.url(`/dashboard/investments/${found.requestId}/status`), {
      form: { csrf: await page.getAttribute('input[name="csrf"]', 'value'), to: 'approved' },
      maxRedirects: 0,
    });
    assert.equal(approved.status(), 303, `approving the request: ${approved.status()}`);
    await audit(page, `/dashboard/investments/${found.requestId}`, report);
    await memberPages(page, report);
    await publicPagesSignedIn(page, report);

    assertOnlyLoopback(context);
    await context.close();
    assertNone(t, report, 'superadmin', 3 + 19 + 12 + 2 + 1 + MEMBER.length + PUBLIC_SIGNED_IN.length);
  });

  it('admin: the staff pages an admin may open, member and public pages', async (t) => {
    const context = await newContext(browser, AUDITED);
    const page = await context.newPage();
    const report = { pages: 0, problems: [], role: 'admin' };
    const signedIn = await signIn(page, server, ADMIN.email, ADMIN.password);
    assert.equal(signedIn.status(), 200);
    // The second sign-in asks for the authenticator's code.
    {
      const again = await newContext(browser, AUDITED);
      const other = await again.newPage();
      await other.goto(server.url('/signin'));
      await other.fill('#email', ADMIN.email);
      await other.fill('#password', ADMIN.password);
      await auditSubmit(other, SIGNIN_SUBMIT, 'POST /signin (staff: the second factor)', report, 200);
      assert.equal(pathOf(other), '/signin/2fa');
      await again.close();
    }
    await staffPages(page, report, false);
    await memberPages(page, report);
    await publicPagesSignedIn(page, report);
    assertOnlyLoopback(context);
    await context.close();
    assertNone(t, report, 'admin', 12 + 10 + 1 + 2 + MEMBER.length + PUBLIC_SIGNED_IN.length);
  });

  it('fund-team member: /vc-dashboard and its startups, member and public pages', async (t) => {
    assert.ok(fundMember.page, 'needs the member the superadmin added');
    const page = fundMember.page;
    const report = { pages: 0, problems: [], role: 'fund-team-member' };
    await audit(page, '/vc-dashboard', report);
    await audit(page, '/vc-dashboard?lang=en', report);
    const startups = await page.$$eval('a[href^="/vc-dashboard/startups/"]', (as) => [...new Set(as.map((a) => a.getAttribute('href')))]);
    assert.ok(startups.length > 0, 'fund 1 has startups');
    for (const path of startups.slice(0, 2)) await audit(page, path, report);
    // A startup's campaign editor and its disclosures.
    await audit(page, `${startups[0]}/campaign`, report);
    await audit(page, `${startups[0]}/disclosures`, report);
    // Refused: an update with no text.
    await page.goto(server.url(startups[0]));
    await auditSubmit(page, 'form[action$="/updates"] button[type=submit]', `POST ${startups[0]}/updates, empty`, report, 422);
    await memberPages(page, report);
    await publicPagesSignedIn(page, report);
    assertOnlyLoopback(fundMember.context);
    assertNone(t, report, 'fund-team member', 3 + 1 + MEMBER.length + PUBLIC_SIGNED_IN.length);
  });

  it('investor: the payment pages, from the card form to the escrow transfer details', async (t) => {
    assert.ok(investor.page, 'needs the investor of the second test');
    const page = investor.page;
    const report = { pages: 0, problems: [], role: 'investor' };
    await audit(page, `/invFlow?request=${found.requestId}`, report);
    await page.fill('#holder', 'Ayşe Yılmaz');
    await page.locator('#number').pressSequentially('4242424242424242');
    await page.fill('#month', '12');
    await page.fill('#year', '2030');
    await page.fill('#cvv', '123');
    await auditSubmit(page, '[data-island="card-payment"] form button[type="submit"]', 'the sandbox 3-D Secure page', report, 200);
    assert.match(pathOf(page), /^\/sandbox\/3ds\/[0-9a-f]+$/);
    await page.fill('#code', '123456');
    await auditSubmit(page, 'button[name="action"][value="approve"]', 'the escrow transfer form', report, 200);
    assert.equal(pathOf(page), '/invFlow');
    // Refused without the IBAN declared the payer's own, then sent.
    await fillById(page, PAYER);
    await auditSubmit(page, 'form[action="/invFlow/bank"] button[type=submit]', 'POST /invFlow/bank, IBAN not declared own', report, 422);
    await fillPayer(page);
    await auditSubmit(page, 'form[action="/invFlow/bank"] button[type=submit]', 'POST /invFlow/bank', report, 200);
    assert.equal(pathOf(page), '/paymentSuccess');
    await audit(page, `/paymentSuccess?request=${found.requestId}`, report);
    await audit(page, `/paymentFail?request=${found.requestId}&declined=1`, report);
    await audit(page, '/pendingInvestments', report);
    assertOnlyLoopback(investor.context);
    assertNone(t, report, 'investor (payment)', 8);
  });

  it('keyboard only: the sign-in and newsletter forms are reached with Tab and sent with Enter', async () => {
    const context = await newContext(browser, AUDITED);
    const page = await context.newPage();

    // Sign-in: e-mail, password, the submit button, Enter.
    await page.goto(server.url('/signin'));
    await tabTo(page, '#email');
    await page.keyboard.type(SUPER.email);
    await tabTo(page, '#password');
    await page.keyboard.type(SUPER.password);
    await tabTo(page, 'form[action="/signin"] button[type=submit]');
    const [password] = await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
    assert.equal(password.status(), 200);
    // Staff give the authenticator's code next, with the keyboard too.
    assert.equal(pathOf(page), '/signin/2fa');
    await tabTo(page, '#code');
    await page.keyboard.type(await nextCode(server, SUPER.email));
    const [signedIn] = await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
    assert.equal(signedIn.status(), 200);
    assert.ok(!pathOf(page).startsWith('/signin'), 'signed in with the keyboard');
    assert.equal(await page.locator('details.avatar-menu').count() + (pathOf(page).startsWith('/dashboard') ? 1 : 0) > 0, true);
    await context.clearCookies();

    // The newsletter island on /newsletter: the address, the button, Enter; the success message.
    await page.goto(server.url('/newsletter'));
    await page.waitForSelector('main [data-island="newsletter"][data-island-ready="1"]');
    await tabTo(page, 'main #newsletter-email, main [data-island="newsletter"] input[type=email]');
    await page.keyboard.type(uniqueEmail('keys'));
    await tabTo(page, 'main [data-island="newsletter"] button[type=submit]');
    await page.keyboard.press('Enter');
    await page.waitForSelector('main .newsletter__message--success');

    // The footer's plain form (no JavaScript on the home page): typed, then Enter in the field.
    await page.goto(server.url('/'));
    await tabTo(page, 'footer #newsletter-email');
    await page.keyboard.type(uniqueEmail('keys'));
    await tabTo(page, 'footer form.newsletter button[type=submit]');
    const [sent] = await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
    assert.equal(sent.status(), 200);
    assert.equal(await page.locator('footer .newsletter__message--success, .flash--success').count() > 0, true, 'subscribed');

    assertOnlyLoopback(context);
    await context.close();
  });
});
