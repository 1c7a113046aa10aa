// Account steps several browser test files share: signing up through the form and following
// the mailed verification link (its page, then its one button: sign-up itself signs nobody in),
// signing in and out (staff, and members who enrolled, give the second factor: the helpers
// enrol an authenticator the first time, reading the secret the page shows, and compute its
// codes afterwards, as a phone would), and checking the header's avatar menu.
//
// The functions take the running server (and, where mail is read, the SMTP sink) explicitly:
//
//   await join(page, { server, sink }, uniqueEmail('x'));   // signed in, on /boardingFlow/1
//   await signOut(page, server);
//   await signIn(page, server, email, PASSWORD);
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import path from 'node:path';
import { clickAndNavigate } from './helpers.mjs';
import { linkIn } from './smtp.mjs';

export const PASSWORD = 'Gizli-Sifre-2024!';

/** A sign-up that passes validation (Turkish letters on purpose: they must survive forms and pages). */
export const PERSON = {
  first_name: 'Ayşe',
  last_name: 'Yılmaz',
  phone: '0532 123 45 67',
  country: 'Türkiye',
  city: 'İstanbul',
  investor_type: 'individual',
  language: 'tr',
};

/** Subject fragment of the (Turkish) verification mail. */
export const VERIFY_SUBJECT = 'doğrulayın';
export const SIGNIN_FAILED_TR = 'E-posta adresi veya şifre hatalı.';

export const AVATAR = 'details.avatar-menu';
export const LOGOUT = 'form.avatar-menu__logout button';
export const SIGNUP_SUBMIT = 'form.form button[type=submit]';
export const SIGNIN_SUBMIT = 'form[action="/signin"] button[type=submit]';

/** A valid TCKN built from the nine digits of `n` (100000000 + n): the checksum rules. */
export function tckn(n) {
  const base = String(100_000_000 + (n % 800_000_000));
  const d = [...base].map(Number);
  const d10 = ((((d[0] + d[2] + d[4] + d[6] + d[8]) * 7 - (d[1] + d[3] + d[5] + d[7])) % 10) + 10) % 10;
  const d11 = (d.reduce((a, b) => a + b, 0) + d10) % 10;
  return `${base}${d10}${d11}`;
}

let tcknSeq = Math.floor(Math.random() * 1_000_000) * 100;

/**
 * The MKK form's text fields, valid for an individual citizen. One identity number belongs to
 * one account, so each spread (`{ ...MKK }`) gives a new valid TCKN.
 */
export const MKK = {
  first_name: 'Ayşe',
  last_name: 'Yılmaz',
  phone: '0532 123 45 67',
  get identity_number() {
    tcknSeq += 1;
    return tckn(tcknSeq);
  },
  // A tenth is 200.000 TL: an annual limit (SPK) above the 100.000 TL minimum investment.
  annual_income: '2.000.000',
  birth_date: '1984-02-29',
};

/**
 * The payer's details on the escrow transfer step. The payer's name is no field: the page shows
 * the investor's verified MKK name, the only payer escrow accepts.
 */
export const PAYER = {
  address: 'Bağdat Caddesi 1',
  country: 'Türkiye',
  city: 'İstanbul',
  post_code: '34728',
  phone: '0532 123 45 67',
  // The payer's account: where a refund goes (the clearing bank's refund list).
  iban: 'TR47 0000 1001 0000 0350 9300 01',
};

/** Fills each field `#id` with its value. */
export async function fillById(page, fields) {
  for (const [id, value] of Object.entries(fields)) await page.fill(`#${id}`, value);
}

/** Fills the escrow transfer step: PAYER, and the required box saying the IBAN is the payer's own. */
export async function fillPayer(page) {
  await fillById(page, PAYER);
  await page.check('#iban_own');
}

/**
 * Marks `email`'s submitted MKK data verified in the database, as staff's review does (investing
 * needs verified data; the dashboard test verifies through the staff page instead). A trigger
 * copies the record into its verified snapshot.
 */
export function verifyMkk(server, email) {
  const script = [
    'import sqlite3, sys',
    'db = sqlite3.connect(sys.argv[1], timeout=10)',
    'n = db.execute("UPDATE mkk_profiles SET status = \'verified\', verified_by = \'staff\', reviewed_at = \'2026-01-01T00:00:00Z\' '
      + 'WHERE user_id = (SELECT id FROM users WHERE email = ?)", (sys.argv[2],)).rowcount',
    'db.commit()',
    'sys.exit(0 if n == 1 else 1)',
  ].join('\n');
  execFileSync('python3', ['-c', script, path.join(server.dataDir, 'ortak.db'), email]);
}

/** The escrow account (the server's default ORTAK_ESCROW_IBAN): statements must be of it. */
export const ESCROW_IBAN = 'TR470000100100000350930001';

let statementSeq = 0;

/**
 * A camt.053 statement of the escrow account with one credit per entry of `credits`
 * ([{ reference, amount (lira), name, iban, date (YYYY-MM-DD) }]). The server refuses a bank
 * reference (AcctSvcrRef) it has seen, so each line gets a new one.
 */
export function camt053(credits, { id = 'E2E' } = {}) {
  const esc = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const run = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
  const entries = credits.map(({ reference, amount, name, iban, date }) => {
    statementSeq += 1;
    return (
      `<Ntry><Amt Ccy="TRY">${amount.toFixed(2)}</Amt><CdtDbtInd>CRDT</CdtDbtInd>` +
      `<BookgDt><Dt>${date}</Dt></BookgDt><AcctSvcrRef>E2E-${run}-${statementSeq}</AcctSvcrRef>` +
      `<NtryDtls><TxDtls><RltdPties><Dbtr><Nm>${esc(name)}</Nm></Dbtr>` +
      `<DbtrAcct><Id><IBAN>${iban.replace(/\s/g, '')}</IBAN></Id></DbtrAcct></RltdPties>` +
      `<RmtInf><Ustrd>${esc(reference)}</Ustrd></RmtInf></TxDtls></NtryDtls></Ntry>`
    );
  });
  return (
    '<?xml version="1.0" encoding="UTF-8"?>' +
    '<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt><Stmt>' +
    `<Id>${esc(id)}</Id><Acct><Id><IBAN>${ESCROW_IBAN}</IBAN></Id></Acct>` +
    entries.join('') +
    '</Stmt></BkToCstmrStmt></Document>'
  );
}

/** Today in Istanbul, as YYYY-MM-DD (the booking date a statement line carries). */
export const istanbulToday = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Istanbul' }).format(new Date());

export const pathOf = (page) => new URL(page.url()).pathname;
export const pathAndQuery = (page) => {
  const u = new URL(page.url());
  return u.pathname + u.search;
};
/** The trimmed text of every element `selector` matches. */
export const texts = async (page, selector) => (await page.locator(selector).allTextContents()).map((t) => t.trim());

/** Fills the sign-up form's fields that `fields` names (terms: true ticks the box). */
export async function fillSignup(page, fields) {
  for (const id of ['first_name', 'last_name', 'email', 'phone', 'country', 'city', 'password', 'password_confirm']) {
    if (fields[id] !== undefined) await page.fill(`#${id}`, fields[id]);
  }
  if (fields.investor_type !== undefined) await page.selectOption('#investor_type', fields.investor_type);
  if (fields.language !== undefined) await page.selectOption('#language', fields.language);
  if (fields.terms) await page.check('#terms');
}

/**
 * Signs up `email` through the form and follows the mailed verification link; the page is
 * left where the link leads (a new investor: /boardingFlow/1), signed in. Returns the link.
 * @param {import('playwright-core').Page} page
 * @param {{server: {url: (p: string) => string, baseURL: string}, sink: {waitFor: Function}}} env
 */
export async function join(page, { server, sink }, email, { person = PERSON, password = PASSWORD } = {}) {
  await page.goto(server.url('/signup'));
  await fillSignup(page, { ...person, email, password, password_confirm: password, terms: true });
  const response = await clickAndNavigate(page, SIGNUP_SUBMIT);
  assert.equal(response.status(), 200, `sign-up ended with ${response.status()} at ${page.url()}`);
  assert.equal(pathOf(page), '/verification');
  const mail = await sink.waitFor(email, VERIFY_SUBJECT);
  const link = linkIn(mail.text, `${server.baseURL}/verificationtoken?token=`);
  assert.ok(link, `the verification mail has a link:\n${mail.text}`);
  const verified = await followVerificationLink(page, link);
  assert.equal(verified.status(), 200);
  return link;
}

export const VERIFY_BUTTON = 'form[action="/verificationtoken"] button[type=submit]';

/** Opens a mailed verification link and presses its one button; returns that navigation's response. */
export async function followVerificationLink(page, link) {
  const opened = await page.goto(link);
  assert.equal(opened.status(), 200, `the verification link opens its page (${opened.status()})`);
  return clickAndNavigate(page, VERIFY_BUTTON);
}

/**
 * Posts the sign-in form at `path`, then gives the second factor when one is asked for;
 * returns the response of the last navigation.
 */
export async function signIn(page, server, email, password, path = '/signin') {
  await page.goto(server.url(path));
  await page.fill('#email', email);
  await page.fill('#password', password);
  const response = await clickAndNavigate(page, SIGNIN_SUBMIT);
  if (pathOf(page).startsWith('/signin/2fa')) return secondFactor(page, server, email);
  return response;
}

// Two-factor sign-in: RFC 6238 TOTP (HMAC-SHA-1, 6 digits, 30 s), computed here as an
// authenticator app would from the secret the enrolment page shows.
const authenticators = new Map(); // `${baseURL}|${email}` -> { secret, last }

function base32Decode(text) {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const c of text.replace(/[\s=]/g, '').toUpperCase()) bits += alphabet.indexOf(c).toString(2).padStart(5, '0');
  const bytes = [];
  for (let i = 0; i + 8 <= bits.length; i += 8) bytes.push(parseInt(bits.slice(i, i + 8), 2));
  return Buffer.from(bytes);
}

/** The code `secret` gives at time step `step`. */
export function totpCode(secret, step) {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(step));
  const mac = createHmac('sha1', base32Decode(secret)).update(counter).digest();
  const at = mac[mac.length - 1] & 0x0f;
  const value = ((mac[at] & 0x7f) << 24) | (mac[at + 1] << 16) | (mac[at + 2] << 8) | mac[at + 3];
  return String(value % 1_000_000).padStart(6, '0');
}

/** Remembers the authenticator secret enrolled for `email` on `server`. */
export function rememberAuthenticator(server, email, secret) {
  authenticators.set(`${server.baseURL}|${email}`, { secret, last: 0 });
}

/**
 * A fresh code for `email`: the server takes each code once and accepts the neighbouring time
 * steps, so a step after the last one used is picked (waiting when two went in 30 s). The
 * previous step is never picked: the clock may pass a step boundary before the server checks
 * the code, and the code would then be two steps old (a CI run failed so).
 */
export async function nextCode(server, email) {
  const entry = authenticators.get(`${server.baseURL}|${email}`);
  assert.ok(entry, `an authenticator is enrolled for ${email}`);
  for (;;) {
    const now = Math.floor(Date.now() / 30_000);
    const step = Math.max(now, entry.last + 1);
    if (step <= now + 1) {
      entry.last = step;
      return totpCode(entry.secret, step);
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
}

const CODE_SUBMIT = 'form.form button[type=submit]';

/**
 * On /signin/2fa or /signin/2fa/setup: enrols an authenticator (the first time) or gives a
 * code, and goes on to where the member was going; returns the last navigation's response.
 */
export async function secondFactor(page, server, email) {
  if (pathOf(page) === '/signin/2fa/setup') {
    const secret = await page.getAttribute('[data-secret]', 'data-secret');
    rememberAuthenticator(server, email, secret);
    await page.fill('#code', await nextCode(server, email));
    const enrolled = await clickAndNavigate(page, CODE_SUBMIT);
    assert.equal(enrolled.status(), 200, `${email} enrols an authenticator`);
    assert.equal(await page.locator('ul.recovery-codes li').count(), 10, 'ten recovery codes');
    return clickAndNavigate(page, 'main p > a.button--primary');
  }
  assert.equal(pathOf(page), '/signin/2fa', `${email} is asked for a code, at ${page.url()}`);
  await page.fill('#code', await nextCode(server, email));
  return clickAndNavigate(page, CODE_SUBMIT);
}

/** Signs out with the avatar menu's button (from the home page). */
export async function signOut(page, server) {
  await page.goto(server.url('/'));
  await page.click(`${AVATAR} summary`);
  const response = await clickAndNavigate(page, LOGOUT);
  assert.equal(response.status(), 200);
  assert.equal(pathOf(page), '/');
  assert.equal(await page.locator(AVATAR).count(), 0, 'signed out: no avatar menu');
}

/** The page's header shows the avatar menu naming `who`, and no sign-in link. */
export async function assertSignedIn(page, who = `${PERSON.first_name} ${PERSON.last_name}`) {
  const menu = page.locator(AVATAR);
  assert.equal(await menu.count(), 1, `signed in: the header has the avatar menu (at ${page.url()})`);
  const text = (await menu.textContent()).replace(/\s+/g, ' ');
  assert.ok(text.includes(who), `the avatar menu names ${who}: ${text}`);
  assert.equal(await page.locator('header.site-header a[href="/signin"]').count(), 0, 'no sign-in link');
}

/** Runs `statement` with `params` on the server's database (python3's sqlite3); its JSON answer. */
function runSql(server, statement, params, answer) {
  const script = [
    'import json, sqlite3, sys',
    'db = sqlite3.connect(sys.argv[1], timeout=10)',
    'cur = db.execute(sys.argv[2], json.loads(sys.argv[3]))',
    `out = ${answer}`,
    'db.commit()',
    'print(json.dumps(out))',
  ].join('\n');
  const out = execFileSync('python3', ['-c', script, path.join(server.dataDir, 'ortak.db'), statement, JSON.stringify(params)]);
  return JSON.parse(String(out));
}

/** Runs one SQL statement on the server's database, as verifyMkk does; the rows it changed. */
export const sqlite = (server, statement, params = []) => runSql(server, statement, params, 'cur.rowcount');

/** The first column of the first row `query` gives (null when there is none). */
export const sqliteValue = (server, query, params = []) => runSql(server, query, params, '(cur.fetchone() or [None])[0]');

/**
 * Seats exactly `emails` (staff created with `ortak create-admin`) on the investment committee:
 * the demo's members, who cannot sign in, step down. Two of the three then approve a version.
 */
export function seatCommittee(server, emails) {
  const marks = emails.map(() => '?').join(', ');
  const seated = sqlite(server, `UPDATE users SET committee_member = (email IN (${marks})) WHERE role <> 'investor'`, emails);
  assert.ok(seated >= emails.length, `the committee is seated (${seated} staff rows)`);
}

/** `n` with Turkish thousands separators, as typed into a money field (`1.200.000`). */
export const lira = (n) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, '.');

/** The day `days` after the ISO date `iso`, as YYYY-MM-DD. */
export function addDays(iso, days) {
  const d = new Date(`${iso}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/**
 * A complete campaign (the editor's fields by name) raising `goal` lira from `startsOn` to
 * `endsOn`: the target between a minimum of 80% and a maximum of 120%, 100 TL shares enough for
 * the maximum, the money split 60/40 over two lines, the key figures and a pitch video.
 * `text` adds or replaces fields (the descriptions, the sections `s_{section}_{tr|en}`).
 */
export function campaignFields({ goal, startsOn, endsOn, text = {} }) {
  const product = (goal / 10) * 6;
  return {
    description_tr: 'Anında ödeme altyapısı.',
    description_en: 'Instant payments.',
    's_executive-summary_tr': 'Güçlü bir ekip.',
    's_executive-summary_en': 'A strong team.',
    ...text,
    goal: lira(goal),
    minimum_raise: lira((goal / 10) * 8),
    maximum_raise: lira((goal / 10) * 12),
    pre_money_valuation: lira(goal * 8),
    share_price: '100',
    shares_offered: String((goal / 10) * 12 / 100),
    fund_tr_0: 'Ürün geliştirme',
    fund_en_0: 'Product development',
    fund_amount_0: lira(product),
    fund_tr_1: 'Pazarlama',
    fund_en_1: 'Marketing',
    fund_amount_1: lira(goal - product),
    starts_on: startsOn,
    ends_on: endsOn,
    financials_period: '2025',
    revenue: '1.200.000',
    net_income: '-300.000',
    pitch_video: 'https://vimeo.com/76979871',
  };
}

/** Fills the campaign editor's fields (by name: section ids hold characters CSS ids need escaped). */
export async function fillCampaign(page, fields) {
  for (const [name, value] of Object.entries(fields)) await page.fill(`form [name="${name}"]`, value);
}

/**
 * Opens the round's current information form as a member does before sending a request (SPK:
 * the server refuses a request until the member opened it): the link on the startup's page,
 * fetched with the page's session. Returns the form's address.
 */
export async function openInformationForm(page, server, slug) {
  const response = await page.goto(server.url(`/startups/${slug}`));
  assert.equal(response.status(), 200, `/startups/${slug}: ${response.status()}`);
  const href = await page.getAttribute(`section.terms a[href^="/startups/${slug}/documents/"]`, 'href');
  const form = await page.context().request.get(server.url(href));
  assert.equal(form.status(), 200, `${href}: ${form.status()}`);
  assert.equal(form.headers()['content-type'], 'application/pdf');
  return href;
}
