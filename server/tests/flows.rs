//! Dead ends and one source of truth (issue 28, items 11-14): a visitor asks for a new
//! verification link by address and learns nothing about it; a used link offers one; the
//! overview tells an unverified member; the profile's investor tab shows the MKK data sent;
//! budgets are in lira and an answer given in dollars still reads as one; a deletion is
//! confirmed by a mail the outbox then forgets.

use crate::common;

use common::journeys::{csrf, post_form, sign_up, signup_fields};
use common::money::{investor, mkk, tckn, verify_email};
use common::smtp::{SmtpSink, link_in};
use common::{Server, client, exec, scalar};
use tempfile::TempDir;

fn start(sink: &SmtpSink) -> Server {
    Server::start_in(
        TempDir::new().unwrap(),
        &[("ORTAK_DEMO", "1"), ("ORTAK_SMTP_URL", &sink.url())],
    )
}

#[tokio::test]
async fn a_visitor_asks_for_a_new_verification_link_by_address() {
    let sink = SmtpSink::start().await;
    let server = start(&sink);
    let email = "bekleyen@example.com";
    let joining = client();
    let token = csrf(&joining, &server, "/signup").await;
    let joined = post_form(
        &joining,
        server.url("/signup"),
        &token,
        &signup_fields(email),
    )
    .await;
    assert_eq!(joined.headers()["location"], "/verification");
    sink.wait_for(email, "doğrulayın").await;

    // Signed out, the page asks for the address.
    let visitor = client();
    let page = common::text(&visitor, server.url("/verification")).await;
    assert!(page.contains("action=\"/verification\"") && page.contains("name=\"email\""));
    let token = common::csrf_of(&page);
    let resend = |address: &str| {
        let (visitor, server, token) = (&visitor, &server, &token);
        let address = address.to_owned();
        async move {
            post_form(
                visitor,
                server.url("/verification"),
                token,
                &[("email", address)],
            )
            .await
        }
    };

    // A bad address: its message, what was typed, 422.
    let bad = resend("bekleyen@").await;
    assert_eq!(bad.status(), 422);
    let html = bad.text().await.unwrap();
    assert!(
        html.contains("Lütfen geçerli bir e-posta girin") && html.contains("value=\"bekleyen@\"")
    );

    // An unknown address and a waiting one get the same answer; only the waiting one a mail.
    let unknown = resend("yok@example.com").await;
    assert_eq!(unknown.status(), 200);
    let unknown = unknown.text().await.unwrap();
    let known = resend(email).await;
    assert_eq!(known.status(), 200);
    let known = known.text().await.unwrap();
    let said = "Bu adresle doğrulama bekleyen bir hesap varsa yeni bağlantı yolda.";
    assert!(unknown.contains(said) && known.contains(said));
    for _ in 0..100 {
        if sink.count_to(email) == 2 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert_eq!(
        sink.count_to(email),
        2,
        "the sign-up's mail and the new one"
    );
    assert_eq!(sink.count_to("yok@example.com"), 0);
    let newest = sink.all().into_iter().rfind(|m| m.to == email).unwrap();
    let second = link_in(&newest.text, &server.url("/verificationtoken?token="));

    // A used link offers a new one, by address.
    let used = common::journeys::follow_verification_link(&server, &client(), &second).await;
    assert_eq!(used.status(), 303);
    let again = client().get(&second).send().await.unwrap();
    assert_eq!(again.status(), 410);
    let again = again.text().await.unwrap();
    assert!(again.contains("action=\"/verification\"") && again.contains("name=\"email\""));

    // Like every mail anyone can ask for, it is limited per address (three in 15 minutes),
    // whether or not an account waits.
    let mut last = 200;
    for _ in 0..3 {
        last = resend(email).await.status().as_u16();
    }
    assert_eq!(last, 429);
}

#[tokio::test]
async fn the_overview_tells_an_unverified_member_and_the_profile_shows_the_mkk_data() {
    let server = Server::start();
    let unverified = sign_up(&server, "yeni@example.com").await;
    let overview = common::text(&unverified, server.url("/overview")).await;
    assert!(overview.contains("E-posta adresiniz henüz doğrulanmadı."));
    assert!(overview.contains("action=\"/verification\""));
    verify_email(&server, "yeni@example.com").await;
    // A write from outside the server (here, the test's own) ends what was kept: the next
    // overview shows it.
    let overview = common::text(&unverified, server.url("/overview")).await;
    assert!(!overview.contains("E-posta adresiniz henüz doğrulanmadı."));

    // Before the MKK data: the tab says it is missing and where to send it.
    let tab = common::text(&unverified, server.url("/profile?tab=investor")).await;
    assert!(
        tab.contains("MKK üyelik bilgilerinizi henüz göndermediniz")
            && tab.contains("href=\"/mkk\"")
    );
    // After: the data sent, read-only, changed on the MKK form.
    let (browser, _) = investor(&server, "mkk@example.com", 7, "1.500.000").await;
    let tab = common::text(&browser, server.url("/profile?tab=investor")).await;
    for shown in [
        &tckn(7),
        "1.500.000 TL",
        "29.02.1984",
        "Ayşe Yılmaz",
        "Doğrulandı",
    ] {
        assert!(tab.contains(shown), "{shown} on the investor tab");
    }
    assert!(
        !tab.contains("action=\"/profile/investor\""),
        "one record, not a second form"
    );
    assert!(tab.contains("href=\"/mkk?next=/profile%3Ftab%3Dinvestor\""));
    // The old form's address changes nothing once the MKK data is sent.
    let token = csrf(&browser, &server, "/profile?tab=investor").await;
    let posted = post_form(
        &browser,
        server.url("/profile/investor"),
        &token,
        &mkk("mkk@example.com", &tckn(8), "2.000.000"),
    )
    .await;
    assert_eq!(posted.headers()["location"], "/mkk");
}

#[tokio::test]
async fn budgets_are_in_lira_and_a_dollar_answer_still_reads_as_one() {
    let server = Server::start();
    let browser = sign_up(&server, "butce@example.com").await;
    // The favourites' filter knows every funding status, "not funded" too.
    let saved = common::text(&browser, server.url("/favorites")).await;
    assert!(saved.contains("<option value=\"failed\"") && saved.contains("Fonlanamadı"));
    let tab = common::text(&browser, server.url("/profile?tab=preferences")).await;
    assert!(tab.contains("Yatırım bütçeniz (TL)") && tab.contains("100.000 - 250.000 TL"));
    assert!(!tab.contains("USD"));
    // An answer given in the spec's dollar bands (migration 0064 marks them).
    exec(
        &server,
        "UPDATE users SET budget_range = 'usd:10000-25000' WHERE email = 'butce@example.com'",
    )
    .await;
    let tab = common::text(&browser, server.url("/profile?tab=preferences")).await;
    assert!(tab.contains("Daha önceki yanıtınız (dolar cinsinden): 10.000 - 25.000 USD."));
    // A dollar band is no longer a choice.
    let token = csrf(&browser, &server, "/profile?tab=preferences").await;
    let refused = post_form(
        &browser,
        server.url("/profile/preferences"),
        &token,
        &[
            ("purpose", "invest".into()),
            ("budget", "10000-25000".into()),
            ("interests", "fintech".into()),
        ],
    )
    .await;
    assert_eq!(refused.status(), 422);
}

#[tokio::test]
async fn a_deleted_membership_is_confirmed_by_a_mail_the_outbox_forgets() {
    let sink = SmtpSink::start().await;
    let server = start(&sink);
    let email = "gidiyor@example.com";
    let browser = common::journeys::join(&server, &sink, email).await;
    let token = csrf(&browser, &server, "/profile?tab=delete").await;
    let deleted = post_form(
        &browser,
        server.url("/profile/delete"),
        &token,
        &[
            ("current_password", "gizli-sifre-123".into()),
            ("confirm", "on".into()),
        ],
    )
    .await;
    assert_eq!(deleted.status(), 303);
    let mail = sink.wait_for(email, "üyeliğiniz silindi").await;
    assert!(mail.text.contains("kişisel verilerinizle birlikte silindi"));
    // Sent, then forgotten: nothing in the outbox keeps the address.
    let mut left = 1;
    for _ in 0..50 {
        left = scalar(
            &server,
            &format!("SELECT COUNT(*) FROM outbox WHERE to_email = '{email}'"),
        )
        .await;
        if left == 0 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert_eq!(left, 0);
}
