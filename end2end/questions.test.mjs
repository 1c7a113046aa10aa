// Questions to founders end to end in a real browser (issue 17), Turkish UI: a member saves a
// startup and asks on its questions page; staff invite the founder from the same page; the
// founder joins with the invited address and answers; the member gets the answer by e-mail,
// with its one-click unsubscribe link, and reads it in the thread. Nothing may leave 127.0.0.1.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertOnlyLoopback, clickAndNavigate, launchBrowser, newContext, startServer, uniqueEmail } from './helpers.mjs';
import { join, signIn } from './journeys.mjs';
import { linkIn, startSmtpSink } from './smtp.mjs';

const SUPER = { email: 'super@example.com', password: 'parola-1234' };
const SLUG = 'odeme-koprusu';
const QUESTIONS = `/startups/${SLUG}/questions`;
const QUESTION = 'Önümüzdeki yıl hangi pazarlara açılmayı planlıyorsunuz?';
const ANSWER = 'Önce Azerbaycan, ardından Kazakistan.';

describe('questions to founders', () => {
  let server;
  let sink;
  let browser;
  const contexts = [];

  before(async () => {
    sink = await startSmtpSink();
    server = await startServer({
      env: { ORTAK_SMTP_URL: sink.url },
      beforeStart: ({ run }) => run(['create-admin', '--create', '--email', SUPER.email, '--password', SUPER.password, '--super']),
    });
    browser = await launchBrowser();
  });

  after(async () => {
    for (const c of contexts) await c.close();
    await browser?.close();
    await server?.stop();
    await sink?.close();
  });

  async function page() {
    const context = await newContext(browser, { locale: 'tr-TR' });
    assertOnlyLoopback(context);
    contexts.push(context);
    return context.newPage();
  }

  it('a member asks, the founder answers, the member is told', async () => {
    const member = await page();
    const memberEmail = uniqueEmail('soran');
    await join(member, { server, sink }, memberEmail);
    await member.goto(server.url(`/startups/${SLUG}`));
    await clickAndNavigate(member, `a[href="${QUESTIONS}"]`);
    assert.equal(new URL(member.url()).pathname, QUESTIONS);
    await member.fill('#question', QUESTION);
    const asked = await clickAndNavigate(member, `form[action="${QUESTIONS}"] button[type=submit]`);
    assert.equal(asked.status(), 200);
    assert.match(await member.textContent('.flash'), /Sorunuz gönderildi/);
    assert.match(await member.textContent('.questions'), new RegExp(QUESTION));
    assert.match(await member.textContent('.questions'), /Siz sordunuz/);

    // Staff invite the founder from the startup's staff page, which the questions page links.
    const staff = await page();
    const signedIn = await signIn(staff, server, SUPER.email, SUPER.password);
    assert.equal(signedIn.status(), 200);
    await staff.goto(server.url(QUESTIONS));
    await clickAndNavigate(staff, 'main a[href$="#founder-accounts"]');
    assert.match(new URL(staff.url()).pathname, /^\/dashboard\/startups\/\d+$/);
    const founderEmail = uniqueEmail('kurucu');
    await staff.fill('#founder_email', founderEmail);
    const invited = await clickAndNavigate(staff, 'form[action$="/founders"] button[type=submit]');
    assert.equal(invited.status(), 200);
    assert.match(await staff.textContent('#founder-accounts'), new RegExp(founderEmail));
    // One mail, in Turkish and English (the address has no account yet), to sign up and come
    // back to the startup's dashboard.
    const invitation = await sink.waitFor(founderEmail, 'girişim paneliniz hazır');
    assert.ok(linkIn(invitation.text, `${server.baseURL}/signup?next=`), invitation.text);

    // The founder joins with that address and answers.
    const founder = await page();
    await join(founder, { server, sink }, founderEmail);
    await founder.goto(server.url(QUESTIONS));
    assert.match(await founder.textContent('main'), /Bu girişim adına yanıt veriyorsunuz\./);
    assert.doesNotMatch(await founder.textContent('main'), new RegExp(memberEmail));
    const form = founder.locator('form[action$="/answer"]').first();
    await form.locator('textarea').fill(ANSWER);
    const answered = await clickAndNavigate(founder, 'form[action$="/answer"] button[type=submit]');
    assert.equal(answered.status(), 200);
    assert.match(await founder.textContent('.flash'), /Yanıtınız yayımlandı/);

    // The member is told by e-mail, with the answer and a one-click unsubscribe, and reads it.
    const mail = await sink.waitFor(memberEmail, 'bir soru yanıtlandı');
    assert.match(mail.text, new RegExp(ANSWER));
    const link = linkIn(mail.text, `${server.baseURL}${QUESTIONS}`);
    assert.ok(link, mail.text);
    await member.goto(server.url('/overview'));
    const opened = await member.goto(link);
    assert.equal(opened.status(), 200, `${link}: ${opened.status()} ${await member.textContent("main")}`);
    assert.match(await member.textContent('.question__answer'), new RegExp(ANSWER));
  });
});
