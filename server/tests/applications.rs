//! Contact, fund (GSYF) and academy forms: spec messages, nothing stored on bad input, one row
//! and two mails (sender and staff) on good input, honeypot and rate limits.

use crate::common;

use common::journeys::{csrf, post_form, sign_up};
use common::smtp::SmtpSink;
use common::{Server, client};
use tempfile::TempDir;

async fn count(server: &Server, table: &str) -> i64 {
    sqlx::query_scalar(&format!("SELECT COUNT(*) FROM {table}"))
        .fetch_one(&server.db().await)
        .await
        .unwrap()
}

async fn start() -> (Server, SmtpSink) {
    let sink = SmtpSink::start().await;
    let server = Server::start_in(
        TempDir::new().unwrap(),
        &[("ORTAK_DEMO", "1"), ("ORTAK_SMTP_URL", &sink.url())],
    );
    (server, sink)
}

/// Forgets the visitor's message, so the member's part counts from nothing.
async fn exec_clear(server: &Server) {
    common::exec(server, "DELETE FROM contact_messages").await;
}

#[tokio::test]
async fn contact_has_its_own_messages_and_reaches_staff_from_members_and_visitors() {
    let (server, sink) = start().await;
    // A visitor writes too (issue 28): the acknowledgement to an address nobody proved carries
    // nothing that was typed; staff read the message.
    let visitor = client();
    let form = common::text(&visitor, server.url("/contactUs")).await;
    assert!(form.contains("name=\"message\"") && !form.contains("value=\"Ayşe"));
    let token = csrf(&visitor, &server, "/contactUs").await;
    let typed = [
        ("name", "Zafer Ziyaretçi".to_owned()),
        ("email", "ziyaretci@example.com".into()),
        ("phone", "0532 765 43 21".into()),
        ("subject", "Platformu kim işletiyor?".into()),
        ("message", "Şirket bilgilerinizi öğrenebilir miyim?".into()),
    ];
    let sent = post_form(&visitor, server.url("/contactUs"), &token, &typed).await;
    assert_eq!(sent.status(), 303);
    let ack = sink
        .wait_for("ziyaretci@example.com", "mesajınız alındı")
        .await;
    for typed in ["Zafer", "Platformu kim", "Şirket bilgilerinizi"] {
        assert!(
            !ack.text.contains(typed),
            "no typed text to an unproved address: {typed}"
        );
    }
    let staff = sink.wait_for("staff@ortak.local", "Zafer Ziyaretçi").await;
    assert!(
        staff
            .text
            .contains("Şirket bilgilerinizi öğrenebilir miyim?")
    );
    assert_eq!(
        common::scalar(
            &server,
            "SELECT COUNT(*) FROM contact_messages WHERE user_id IS NULL"
        )
        .await,
        1
    );
    exec_clear(&server).await;

    let browser = sign_up(&server, "iletisim@example.com").await;
    let page = common::text(&browser, server.url("/contactUs")).await;
    assert!(
        page.contains("value=\"Ayşe Yılmaz\"") && page.contains("value=\"iletisim@example.com\""),
        "prefilled"
    );
    let token = csrf(&browser, &server, "/contactUs").await;

    let empty = post_form(
        &browser,
        server.url("/contactUs"),
        &token,
        &[
            ("email", "iletisim@example.com".into()),
            ("phone", "05321234567".into()),
        ],
    )
    .await;
    assert_eq!(empty.status(), 422);
    let html = empty.text().await.unwrap();
    for message in [
        "Lütfen adınızı ve soyadınızı girin.",
        "Lütfen mesajınızın konusunu girin.",
        "Lütfen mesajınızı yazın.",
    ] {
        assert!(html.contains(message), "{message}");
    }
    let english = post_form(
        &browser,
        server.url("/contactUs?lang=en"),
        &token,
        &[("subject", "Soru".into())],
    )
    .await;
    let html = english.text().await.unwrap();
    assert!(
        html.contains("Please enter your name and surname.") && html.contains("value=\"Soru\"")
    );
    assert_eq!(count(&server, "contact_messages").await, 0);

    let fields = |website: &str| {
        vec![
            ("name", "Ayşe Yılmaz".to_owned()),
            ("email", "iletisim@example.com".into()),
            ("phone", "0532 123 45 67".into()),
            ("subject", "MKK kaydı".into()),
            ("message", "MKK hesabımı nasıl açarım?".into()),
            ("fax", website.into()),
        ]
    };
    let bot = post_form(
        &browser,
        server.url("/contactUs?lang=tr"),
        &token,
        &fields("http://spam.example"),
    )
    .await;
    assert_eq!(bot.status(), 303, "a bot sees success");
    assert_eq!(
        count(&server, "contact_messages").await,
        0,
        "but nothing is stored"
    );

    let sent = post_form(&browser, server.url("/contactUs"), &token, &fields("")).await;
    assert_eq!(sent.status(), 303);
    let page = common::text(&browser, server.url("/contactUs")).await;
    assert!(page.contains("Mesajınız alındı."));
    assert_eq!(count(&server, "contact_messages").await, 1);
    sink.wait_for("iletisim@example.com", "mesajınız alındı")
        .await;
    let staff = sink
        .wait_for_text("staff@ortak.local", "MKK hesabımı nasıl açarım?")
        .await;
    assert!(staff.subject.contains("İletişim mesajı"));

    // Staff read the whole message in the inbox and in its CSV export.
    common::journeys::create_admin(&server.data, "okuyan@example.com", false);
    let admin = common::journeys::sign_in(
        &server,
        "okuyan@example.com",
        common::journeys::ADMIN_PASSWORD,
    )
    .await;
    let inbox = common::text(&admin, server.url("/dashboard/contacts")).await;
    assert!(inbox.contains("MKK hesabımı nasıl açarım?"), "the message");
    let csv = common::text(&admin, server.url("/dashboard/contacts.csv")).await;
    assert!(csv.contains("MKK hesabımı nasıl açarım?"));
}

#[tokio::test]
async fn gsyf_applications_are_checked_stored_once_and_consent_is_recorded() {
    let (server, sink) = start().await;
    let browser = client();
    let page = common::text(&browser, server.url("/gsyf?lang=en")).await;
    assert!(page.contains("300,000 TL or more"));
    let token = common::csrf_of(&page);
    let good = vec![
        ("first_name", "John".to_owned()),
        ("last_name", "Smith".into()),
        ("email", "john@example.com".into()),
        ("phone", "+44 7911 123456".into()),
        ("fund_type", "technology".into()),
        ("range", "150-200k".into()),
        ("newsletter", "on".into()),
    ];
    for (field, bad, message) in [
        ("email", "john@", "Please enter a valid email address."),
        ("phone", "12", "Please enter your phone number completely."),
        ("range", "", "This field is required"),
    ] {
        let mut fields = good.clone();
        fields.retain(|(k, _)| *k != field);
        fields.push((field, bad.into()));
        let r = post_form(&browser, server.url("/gsyf"), &token, &fields).await;
        assert_eq!(r.status(), 422, "{field}");
        let html = r.text().await.unwrap();
        assert!(html.contains(message), "{field}: {message}");
        assert!(html.contains("value=\"Smith\""));
    }
    assert_eq!(count(&server, "gsyf_applications").await, 0);
    let ok = post_form(&browser, server.url("/gsyf"), &token, &good).await;
    assert_eq!(ok.status(), 303);
    assert_eq!(count(&server, "gsyf_applications").await, 1);
    let mail = sink
        .wait_for("john@example.com", "GSYF application was received")
        .await;
    assert!(
        mail.text.lines().next() == Some("Hello,"),
        "in the sender's language, greeting nobody by a name typed in the form"
    );
    assert!(!mail.text.contains("John") && !mail.text.contains("Smith"));
    let staff = sink.wait_for("staff@ortak.local", "GSYF başvurusu").await;
    assert!(staff.text.contains("John Smith"), "staff read the name");
    // The consent box only asked for the newsletter: the address confirms it first.
    sink.wait_for("john@example.com", "confirm your newsletter subscription")
        .await;
    let (source, version): (String, String) =
        sqlx::query_as("SELECT source, consent_text_version FROM newsletter_subscribers WHERE email = 'john@example.com'")
            .fetch_one(&server.db().await)
            .await
            .unwrap();
    assert_eq!(source, "gsyf");
    assert!(!version.is_empty());

    // Prefilled for members.
    let member = sign_up(&server, "uye@example.com").await;
    let page = common::text(&member, server.url("/gsyf")).await;
    assert!(page.contains("value=\"uye@example.com\"") && page.contains("value=\"Yılmaz\""));
}

#[tokio::test]
async fn academy_applications_use_their_own_email_message_and_are_rate_limited() {
    let (server, sink) = start().await;
    let browser = client();
    let page = common::text(&browser, server.url("/academy")).await;
    let event = page
        .split("name=\"event\" value=\"")
        .nth(1)
        .expect("demo events")
        .split('"')
        .next()
        .unwrap()
        .to_owned();
    let token = common::csrf_of(&page);
    let good = vec![
        ("event", event.clone()),
        ("email", "akademi@example.com".to_owned()),
        ("name", "Deniz Koç".into()),
        ("institution", "Koç Holding, analist".into()),
        ("phone", "0533 000 11 22".into()),
        ("city", "Ankara".into()),
        ("linkedin", "https://www.linkedin.com/in/denizkoc".into()),
        ("invested_before", "no".into()),
        ("budget", "0-10000".into()),
        ("heard_from", "newsletter".into()),
        ("note", "".into()),
    ];
    let mut bad = good.clone();
    bad.retain(|(k, _)| !matches!(*k, "email" | "phone"));
    bad.push(("email", "akademi@".into()));
    let r = post_form(&browser, server.url("/academy"), &token, &bad).await;
    assert_eq!(r.status(), 422);
    let html = r.text().await.unwrap();
    assert!(html.contains("Geçersiz e-posta adresi") && html.contains("Bu alan zorunludur"));
    let r = post_form(&browser, server.url("/academy?lang=en"), &token, &bad).await;
    assert!(r.text().await.unwrap().contains("Invalid email address"));
    let mut wrong_event = good.clone();
    wrong_event[0].1 = "999".into();
    assert_eq!(
        post_form(
            &browser,
            server.url("/academy?lang=tr"),
            &token,
            &wrong_event
        )
        .await
        .status(),
        422
    );
    assert_eq!(count(&server, "academy_applications").await, 0);

    let ok = post_form(&browser, server.url("/academy"), &token, &good).await;
    assert_eq!(ok.status(), 303);
    sink.wait_for("akademi@example.com", "Akademisi başvurunuz alındı")
        .await;
    assert_eq!(count(&server, "academy_applications").await, 1);
    // Five tries per address per quarter hour (the refused wrong-event try counted too); the
    // rest are refused with a clear message.
    let mut statuses = Vec::new();
    for _ in 0..5 {
        statuses.push(
            post_form(&browser, server.url("/academy"), &token, &good)
                .await
                .status()
                .as_u16(),
        );
    }
    assert_eq!(statuses, [303, 303, 303, 429, 429]);
    let limited = post_form(&browser, server.url("/academy"), &token, &good).await;
    assert!(
        limited
            .text()
            .await
            .unwrap()
            .contains("Çok fazla deneme yapıldı")
    );
}
