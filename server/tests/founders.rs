//! Founders (issue 28, item 10): staff invite them from the startup's staff page with one mail
//! (the invitee's language, else both); the invitation's `next` survives sign-up and the
//! address's verification, so the founder lands on their startup's dashboard without picking
//! an investor type; the dashboard says what it is and has the site's header; updates are
//! Markdown, shown as HTML on the pages and as plain text in mails; answers say who gave them.

use crate::common;

use common::journeys::{ADMIN_PASSWORD, create_admin, csrf, post_form, sign_in, signup_fields};
use common::money::verify_email;
use common::smtp::{SmtpSink, link_in};
use common::{Server, client, exec, scalar};
use tempfile::TempDir;

/// The sign-up fields without the investor type, for `email`, going on to `next`.
fn founder_fields(email: &str) -> Vec<(&'static str, String)> {
    let mut fields: Vec<(&'static str, String)> = signup_fields(email)
        .into_iter()
        .filter(|(k, _)| *k != "investor_type")
        .collect();
    fields.retain(|(k, _)| *k != "first_name" && *k != "last_name");
    fields.push(("first_name", "Ece".into()));
    fields.push(("last_name", "Kaya".into()));
    fields.push(("next", "/vc-dashboard".into()));
    fields
}

#[tokio::test]
async fn an_invited_founder_lands_on_the_startup_dashboard() {
    let sink = SmtpSink::start().await;
    let data = TempDir::new().unwrap();
    create_admin(&data, "super@example.com", true);
    let server = Server::start_in(
        data,
        &[("ORTAK_DEMO", "1"), ("ORTAK_SMTP_URL", &sink.url())],
    );
    let id = scalar(
        &server,
        "SELECT id FROM startups WHERE published = 1 ORDER BY id LIMIT 1",
    )
    .await;
    let (slug, name): (String, String) =
        sqlx::query_as("SELECT slug, name FROM startups WHERE id = ?")
            .bind(id)
            .fetch_one(&server.db().await)
            .await
            .unwrap();
    let staff = sign_in(&server, "super@example.com", ADMIN_PASSWORD).await;

    // The invitation is on the staff's startup page, not on the members' questions page.
    let editor = format!("/dashboard/startups/{id}");
    let invite = format!("/dashboard/startups/{id}/founders");
    let staff_page = common::text(&staff, server.url(&editor)).await;
    assert!(staff_page.contains(&format!("action=\"{invite}\"")));
    let questions = format!("/startups/{slug}/questions");
    let public = common::text(&staff, server.url(&questions)).await;
    assert!(!public.contains(&format!("action=\"{invite}\"")));

    // A bad address: its message, what was typed, 422, nothing stored.
    let token = csrf(&staff, &server, &editor).await;
    let refused = post_form(
        &staff,
        server.url(&invite),
        &token,
        &[("founder_email", "ece@".into())],
    )
    .await;
    assert_eq!(refused.status(), 422);
    let html = refused.text().await.unwrap();
    assert!(html.contains("Lütfen geçerli bir e-posta girin") && html.contains("value=\"ece@\""));
    assert_eq!(
        scalar(&server, "SELECT COUNT(*) FROM founder_accounts").await,
        0
    );

    // An address without an account: one mail, in both languages, whose link joins.
    let sent = post_form(
        &staff,
        server.url(&invite),
        &token,
        &[("founder_email", "Ece@Kuzey.example.com".into())],
    )
    .await;
    assert_eq!(sent.status(), 303);
    let email = "ece@kuzey.example.com";
    let mail = sink.wait_for(email, "girişim paneliniz hazır").await;
    assert!(mail.subject.contains("your startup's dashboard is ready"));
    assert!(
        mail.text.contains("Girişim panelinizde")
            && mail.text.contains("On your startup dashboard")
    );
    assert!(mail.text.contains(&name), "it names the startup");
    assert!(
        !mail.text.contains("Ortak hesabınızla ilgili"),
        "nobody's account yet: {}",
        mail.text
    );
    let link = link_in(&mail.text, &server.url("/signup?next="));
    assert_eq!(link, server.url("/signup?next=/vc-dashboard"));
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    assert_eq!(sink.count_to(email), 1, "one mail, not one per language");
    let listed = common::text(&staff, server.url(&editor)).await;
    assert!(listed.contains(email) && listed.contains("davet edildi, henüz katılmadı"));

    // The sign-up the link opens keeps `next` and asks no investor type.
    let founder = client();
    let form = common::text(&founder, &link).await;
    assert!(!form.contains("name=\"investor_type\""));
    assert!(form.contains("name=\"next\" value=\"/vc-dashboard\""));
    let token = csrf(&founder, &server, "/signup?next=/vc-dashboard").await;
    let joined = post_form(
        &founder,
        server.url("/signup"),
        &token,
        &founder_fields(email),
    )
    .await;
    assert_eq!(joined.status(), 303);
    assert_eq!(
        joined.headers()["location"],
        "/verification?next=/vc-dashboard"
    );
    let investor_type: Option<String> =
        sqlx::query_scalar("SELECT investor_type FROM users WHERE email = ?")
            .bind(email)
            .fetch_one(&server.db().await)
            .await
            .unwrap();
    assert_eq!(investor_type, None, "a founder picks no investor type");

    // The verification link keeps it too, and its button lands on the dashboard.
    let verify = sink.wait_for(email, "doğrulayın").await;
    let link = link_in(&verify.text, &server.url("/verificationtoken?token="));
    assert!(link.ends_with("&next=/vc-dashboard"), "{link}");
    let page = common::text(&founder, &link).await;
    assert!(page.contains("name=\"next\" value=\"/vc-dashboard\""));
    let secret = link
        .split("token=")
        .nth(1)
        .unwrap()
        .split('&')
        .next()
        .unwrap()
        .to_owned();
    let verified = post_form(
        &founder,
        server.url("/verificationtoken"),
        &common::csrf_of(&page),
        &[("token", secret), ("next", "/vc-dashboard".into())],
    )
    .await;
    assert_eq!(verified.status(), 303);
    assert_eq!(verified.headers()["location"], "/vc-dashboard");

    // The dashboard: titled for a founder, with the site's header (and sign-out), the slim
    // footer (no call to invest), the startup and its questions.
    let home = common::text(&founder, server.url("/vc-dashboard")).await;
    assert_eq!(common::h1_of(&home), "Girişim paneli");
    assert!(home.contains("<header class=\"site-header\">") && home.contains("action=\"/logout\""));
    assert!(!home.contains("footer-cta") && !home.contains("Fon paneli"));
    assert!(home.contains(&name));
    let area = format!("/vc-dashboard/startups/{id}");
    let startup = common::text(&founder, server.url(&area)).await;
    assert!(startup.contains(&format!("href=\"{questions}\"")));

    // An address with an account: one mail in its language, whose link signs in.
    let member = common::journeys::sign_up(&server, "en@example.com").await;
    exec(
        &server,
        "UPDATE users SET language = 'en' WHERE email = 'en@example.com'",
    )
    .await;
    let token = csrf(&staff, &server, &editor).await;
    let again = post_form(
        &staff,
        server.url(&invite),
        &token,
        &[("founder_email", "en@example.com".into())],
    )
    .await;
    assert_eq!(again.status(), 303);
    let english = sink
        .wait_for("en@example.com", "your startup's dashboard is ready")
        .await;
    assert!(!english.subject.contains("girişim"), "{}", english.subject);
    assert!(english.text.contains("/signin?next=/vc-dashboard"));

    // A fund's team member is told they are on the fund's dashboard.
    exec(
        &server,
        &format!(
            "INSERT INTO fund_members (fund_id, user_id) SELECT s.fund_id, u.id \
             FROM startups s, users u WHERE s.id = {id} AND u.email = 'en@example.com'"
        ),
    )
    .await;
    verify_email(&server, "en@example.com").await;
    let home = common::text(&member, server.url("/vc-dashboard?lang=tr")).await;
    assert_eq!(common::h1_of(&home), "Fon paneli");
}

#[tokio::test]
async fn updates_are_markdown_and_answers_are_signed() {
    let sink = SmtpSink::start().await;
    let data = TempDir::new().unwrap();
    create_admin(&data, "super@example.com", true);
    let server = Server::start_in(
        data,
        &[("ORTAK_DEMO", "1"), ("ORTAK_SMTP_URL", &sink.url())],
    );
    let id = scalar(
        &server,
        "SELECT id FROM startups WHERE published = 1 ORDER BY id LIMIT 1",
    )
    .await;
    let (slug, fund): (String, String) = sqlx::query_as(
        "SELECT s.slug, f.name FROM startups s JOIN funds f ON f.id = s.fund_id WHERE s.id = ?",
    )
    .bind(id)
    .fetch_one(&server.db().await)
    .await
    .unwrap();
    // A founder (invited, verified) and a member of the fund's team.
    exec(
        &server,
        &format!(
            "INSERT INTO founder_accounts (startup_id, email, invited_at) \
             VALUES ({id}, 'kurucu@example.com', '2026-01-01T00:00:00Z')"
        ),
    )
    .await;
    let founder = common::journeys::sign_up(&server, "kurucu@example.com").await;
    verify_email(&server, "kurucu@example.com").await;
    let team = common::journeys::sign_up(&server, "fon@example.com").await;
    verify_email(&server, "fon@example.com").await;
    exec(
        &server,
        &format!(
            "INSERT INTO fund_members (fund_id, user_id) SELECT s.fund_id, u.id \
             FROM startups s, users u WHERE s.id = {id} AND u.email = 'fon@example.com'"
        ),
    )
    .await;
    exec(
        &server,
        "UPDATE users SET first_name = 'Ece', last_name = 'Kaya' WHERE email = 'kurucu@example.com'",
    )
    .await;
    exec(
        &server,
        "UPDATE users SET first_name = 'Ali', last_name = 'Demir' WHERE email = 'fon@example.com'",
    )
    .await;
    let member = common::journeys::sign_up(&server, "uye@example.com").await;
    verify_email(&server, "uye@example.com").await;
    let page = format!("/startups/{slug}");
    let token = csrf(&member, &server, &page).await;
    let saved = post_form(
        &member,
        server.url(&format!("/favorites/{slug}")),
        &token,
        &[("favorite", "1".into()), ("return", "/".into())],
    )
    .await;
    assert_eq!(saved.status(), 303);

    // The founder posts an update in Markdown.
    let area = format!("/vc-dashboard/startups/{id}");
    let token = csrf(&founder, &server, &area).await;
    let posted = post_form(
        &founder,
        server.url(&format!("{area}/updates")),
        &token,
        &[
            (
                "body_tr",
                "**Kasım güncellemesi:** yeni ofis\n\n- ilk madde".into(),
            ),
            ("body_en", "**November update:** a new office".into()),
        ],
    )
    .await;
    assert_eq!(posted.status(), 303);
    let shown = common::text(&member, server.url(&page)).await;
    assert!(shown.contains("<strong>Kasım güncellemesi:</strong> yeni ofis"));
    assert!(shown.contains("<li>ilk madde</li>") && !shown.contains("**Kasım"));
    assert!(shown.contains("Güncellemeler") && !shown.contains("Fondan güncellemeler"));
    let dashboard = common::text(&founder, server.url(&area)).await;
    assert!(dashboard.contains("<strong>Kasım güncellemesi:</strong>"));
    let mail = sink
        .wait_for_text("uye@example.com", "Kasım güncellemesi")
        .await;
    assert!(mail.text.contains("Kasım güncellemesi: yeni ofis") && !mail.text.contains("**"));

    // Answers say who gave them: a founder, or the fund's team.
    let questions = format!("/startups/{slug}/questions");
    for text in ["Gelir modeli nedir?", "Ekip kaç kişi?"] {
        let token = csrf(&member, &server, &questions).await;
        let asked = post_form(
            &member,
            server.url(&questions),
            &token,
            &[("question", text.into())],
        )
        .await;
        assert_eq!(asked.status(), 303);
    }
    let ids: Vec<i64> = sqlx::query_scalar("SELECT id FROM questions ORDER BY id")
        .fetch_all(&server.db().await)
        .await
        .unwrap();
    for (browser, question, answer) in [
        (&founder, ids[0], "Abonelik."),
        (&team, ids[1], "On iki kişi."),
    ] {
        let token = csrf(browser, &server, &questions).await;
        let answered = post_form(
            browser,
            server.url(&format!("{questions}/{question}/answer")),
            &token,
            &[("answer", answer.into())],
        )
        .await;
        assert_eq!(answered.status(), 303);
    }
    let thread = common::text(&member, server.url(&questions)).await;
    assert!(thread.contains("Ece Kaya, kurucu"), "the founder is named");
    assert!(
        thread.contains(&format!("Ali Demir, {fund} ekibi")),
        "the fund's team is named"
    );
    let told = sink.wait_for_text("uye@example.com", "On iki kişi.").await;
    assert!(
        told.text
            .contains(&format!("Yanıt (Ali Demir, {fund} ekibi)"))
    );
    let english = common::text(&member, server.url(&format!("{questions}?lang=en"))).await;
    assert!(english.contains("Ece Kaya, founder"));
}
