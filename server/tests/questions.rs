//! Questions to founders (issue 17): who may ask, who may answer (founders staff invited, with
//! a verified address, and the fund's team; never for another startup), the thread every
//! member reads, staff moderation with a recorded reason, the limits and the mails of an answer.

use crate::common;

use common::journeys::{ADMIN_PASSWORD, create_admin, csrf, post_form, sign_in, sign_up};
use common::money::verify_email;
use common::smtp::SmtpSink;
use common::{Server, client, exec, scalar};
use tempfile::TempDir;

async fn slug_of(server: &Server, id: i64) -> String {
    sqlx::query_scalar("SELECT slug FROM startups WHERE id = ?")
        .bind(id)
        .fetch_one(&server.db().await)
        .await
        .unwrap()
}

async fn send(
    server: &Server,
    browser: &reqwest::Client,
    page: &str,
    action: &str,
    fields: &[(&'static str, String)],
) -> reqwest::Response {
    let token = csrf(browser, server, page).await;
    post_form(browser, server.url(action), &token, fields).await
}

#[tokio::test]
async fn members_ask_founders_answer_once_and_staff_hide_with_a_reason() {
    let sink = SmtpSink::start().await;
    let data = TempDir::new().unwrap();
    create_admin(&data, "super@example.com", true);
    let server = Server::start_in(
        data,
        &[("ORTAK_DEMO", "1"), ("ORTAK_SMTP_URL", &sink.url())],
    );
    let ids: Vec<i64> =
        sqlx::query_scalar("SELECT id FROM startups WHERE published = 1 ORDER BY id LIMIT 2")
            .fetch_all(&server.db().await)
            .await
            .unwrap();
    let (a, b) = (ids[0], ids[1]);
    let (slug_a, slug_b) = (slug_of(&server, a).await, slug_of(&server, b).await);
    let page_a = format!("/startups/{slug_a}/questions");

    // Visitors are sent to sign in; members see the page, linked from the startup's page.
    let visitor = client().get(server.url(&page_a)).send().await.unwrap();
    assert_eq!(visitor.status(), 303);
    let mut members = Vec::new();
    for email in ["ayse@example.com", "bora@example.com", "cem@example.com"] {
        let browser = sign_up(&server, email).await;
        verify_email(&server, email).await;
        members.push(browser);
    }
    let (ayse, bora, cem) = (&members[0], &members[1], &members[2]);
    let startup_page = common::text(ayse, server.url(&format!("/startups/{slug_a}"))).await;
    assert!(startup_page.contains(&format!("href=\"{page_a}\"")));
    let saved = send(
        &server,
        bora,
        &page_a,
        &format!("/favorites/{slug_a}"),
        &[("favorite", "1".into()), ("return_to", "/".into())],
    )
    .await;
    assert_eq!(saved.status(), 303);

    // Asking: each bad input has its message, keeps what was typed, 422, nothing stored.
    let long = "ç".repeat(1001);
    for (typed, message) in [
        ("   ", "Bu alan zorunludur"),
        (long.as_str(), "Bu alan çok uzun"),
    ] {
        let refused = send(
            &server,
            ayse,
            &page_a,
            &page_a,
            &[("question", typed.to_owned())],
        )
        .await;
        assert_eq!(refused.status(), 422);
        let html = refused.text().await.unwrap();
        assert!(html.contains(message), "{message}");
        if typed == long {
            assert!(html.contains(&long), "keeps what was typed");
        }
    }
    assert_eq!(scalar(&server, "SELECT COUNT(*) FROM questions").await, 0);
    let asked = send(
        &server,
        ayse,
        &page_a,
        &page_a,
        &[(
            "question",
            "<script>alert(1)</script> Gelir modeli nedir?".into(),
        )],
    )
    .await;
    assert_eq!(asked.status(), 303);
    let thread = common::text(cem, server.url(&page_a)).await;
    assert!(thread.contains("&lt;script&gt;alert(1)&lt;/script&gt; Gelir modeli nedir?"));
    assert!(!thread.contains("<script>alert(1)"));
    assert!(thread.contains("Bir üye sordu") && !thread.contains("ayse@example.com"));
    let question = scalar(&server, "SELECT id FROM questions").await;

    // Five questions an hour: the sixth is refused with its message, and not stored.
    for n in 2..=5 {
        let ok = send(
            &server,
            ayse,
            &page_a,
            &page_a,
            &[("question", format!("Soru {n}?"))],
        )
        .await;
        assert_eq!(ok.status(), 303);
    }
    let limited = send(
        &server,
        ayse,
        &page_a,
        &page_a,
        &[("question", "Altıncı soru?".into())],
    )
    .await;
    assert_eq!(limited.status(), 429);
    let html = limited.text().await.unwrap();
    assert!(html.contains("Kısa sürede birkaç soru sordunuz.") && html.contains("Altıncı soru?"));
    assert_eq!(scalar(&server, "SELECT COUNT(*) FROM questions").await, 5);

    // Staff invite the founder: a bad address is refused on the page, a good one mailed.
    let staff = sign_in(&server, "super@example.com", ADMIN_PASSWORD).await;
    let invite = format!("/dashboard/startups/{a}/founders");
    let refused = send(
        &server,
        &staff,
        &page_a,
        &invite,
        &[("founder_email", "kurucu@".into())],
    )
    .await;
    assert_eq!(refused.status(), 422);
    let html = refused.text().await.unwrap();
    assert!(
        html.contains("Lütfen geçerli bir e-posta girin") && html.contains("value=\"kurucu@\"")
    );
    assert_eq!(
        scalar(&server, "SELECT COUNT(*) FROM founder_accounts").await,
        0
    );
    let invited = send(
        &server,
        &staff,
        &page_a,
        &invite,
        &[("founder_email", "Kurucu@Example.com".into())],
    )
    .await;
    assert_eq!(invited.status(), 303);
    // One mail, in both languages: the address has no account, so its language is unknown.
    let invitation = sink
        .wait_for("kurucu@example.com", "girişim paneliniz hazır")
        .await;
    assert!(
        invitation
            .subject
            .contains("your startup's dashboard is ready")
    );
    assert!(invitation.text.contains("/signup?next=/vc-dashboard"));
    assert_eq!(
        scalar(
            &server,
            "SELECT COUNT(*) FROM audit_log WHERE action = 'founder.invite'"
        )
        .await,
        1
    );

    // Only the startup's founders and fund team answer: not other members, not a founder whose
    // address is unproved, never for another startup.
    let answer_a = format!("/startups/{slug_a}/questions/{question}/answer");
    let text = || vec![("answer", "Abonelik ve işlem ücreti.".to_owned())];
    assert_eq!(
        send(&server, cem, &page_a, &answer_a, &text())
            .await
            .status(),
        403
    );
    let founder = sign_up(&server, "kurucu@example.com").await;
    assert_eq!(
        send(&server, &founder, &page_a, &answer_a, &text())
            .await
            .status(),
        403
    );
    verify_email(&server, "kurucu@example.com").await;
    let elsewhere = format!("/startups/{slug_b}/questions/{question}/answer");
    assert_eq!(
        send(&server, &founder, &page_a, &elsewhere, &text())
            .await
            .status(),
        403
    );
    let mine = common::text(&founder, server.url(&page_a)).await;
    assert!(
        mine.contains("Bu girişim adına yanıt veriyorsunuz.")
            && mine.contains(&format!("href=\"/vc-dashboard/startups/{a}\""))
            && !mine.contains("Yatırımcı: "),
        "the team is pointed to its dashboard; the round's figures are not on this page"
    );
    for email in ["ayse@example.com", "bora@example.com", "cem@example.com"] {
        assert!(!mine.contains(email), "a founder never sees who asked");
    }
    let empty = send(
        &server,
        &founder,
        &page_a,
        &answer_a,
        &[("answer", "".into())],
    )
    .await;
    assert_eq!(empty.status(), 422);
    assert!(empty.text().await.unwrap().contains("Bu alan zorunludur"));
    let answered = send(&server, &founder, &page_a, &answer_a, &text()).await;
    assert_eq!(answered.status(), 303);
    // Once: a second answer changes nothing.
    let again = send(
        &server,
        &founder,
        &page_a,
        &answer_a,
        &[("answer", "Başka yanıt.".into())],
    )
    .await;
    assert_eq!(again.status(), 409);
    let stored: String = sqlx::query_scalar("SELECT answer FROM questions WHERE id = ?")
        .bind(question)
        .fetch_one(&server.db().await)
        .await
        .unwrap();
    assert_eq!(stored, "Abonelik ve işlem ücreti.");

    // The asker and the member who saved the startup are told; nobody else.
    for email in ["ayse@example.com", "bora@example.com"] {
        let mail = sink.wait_for(email, "bir soru yanıtlandı").await;
        assert!(mail.text.contains("Abonelik ve işlem ücreti."));
        assert!(mail.header("List-Unsubscribe").is_some());
    }
    for email in ["cem@example.com", "kurucu@example.com"] {
        let count: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM outbox WHERE to_email = ? AND subject LIKE '%yanıtlandı%'",
        )
        .bind(email)
        .fetch_one(&server.db().await)
        .await
        .unwrap();
        assert_eq!(count, 0, "{email}");
    }
    let thread = common::text(cem, server.url(&page_a)).await;
    assert!(thread.contains("Abonelik ve işlem ücreti."));
    assert!(
        thread.contains("Ayşe Yılmaz, kurucu"),
        "an answer says who gave it"
    );

    // Staff hide a question: a reason is required, recorded and audited; members no longer see
    // it, staff do with the reason, and it cannot be answered any more.
    let second = scalar(&server, "SELECT id FROM questions WHERE body = 'Soru 2?'").await;
    let hide = format!("/dashboard/questions/{second}/hide");
    assert_eq!(
        send(&server, cem, &page_a, &hide, &[("reason", "Reklam".into())])
            .await
            .status(),
        403
    );
    let no_reason = send(&server, &staff, &page_a, &hide, &[("reason", " ".into())]).await;
    assert_eq!(no_reason.status(), 422);
    assert!(
        no_reason
            .text()
            .await
            .unwrap()
            .contains("Bu alan zorunludur")
    );
    let hidden = send(
        &server,
        &staff,
        &page_a,
        &hide,
        &[("reason", "Konu dışı".into())],
    )
    .await;
    assert_eq!(hidden.status(), 303);
    assert_eq!(
        scalar(
            &server,
            "SELECT COUNT(*) FROM audit_log WHERE action = 'question.hide'"
        )
        .await,
        1
    );
    assert!(
        !common::text(ayse, server.url(&page_a))
            .await
            .contains("Soru 2?")
    );
    let moderated = common::text(&staff, server.url(&page_a)).await;
    assert!(
        moderated.contains("Soru 2?") && moderated.contains("Ortak tarafından gizlendi: Konu dışı")
    );
    let late = format!("/startups/{slug_a}/questions/{second}/answer");
    assert_eq!(
        send(&server, &founder, &page_a, &late, &text())
            .await
            .status(),
        409
    );

    // The founder's area is their startup's `/vc-dashboard` page: updates and reports for A,
    // requests by status without names; B does not exist for them, and other members have none.
    let (name_a, name_b): (String, String) = sqlx::query_as(
        "SELECT (SELECT name FROM startups WHERE id = ?), (SELECT name FROM startups WHERE id = ?)",
    )
    .bind(a)
    .bind(b)
    .fetch_one(&server.db().await)
    .await
    .unwrap();
    let home = common::text(&founder, server.url("/vc-dashboard")).await;
    assert!(home.contains(&name_a) && !home.contains(&name_b));
    let area = format!("/vc-dashboard/startups/{a}");
    let update = [
        ("body_tr", "Yeni ofis.".to_owned()),
        ("body_en", "New office.".to_owned()),
    ];
    let posted = send(
        &server,
        &founder,
        &area,
        &format!("{area}/updates"),
        &update,
    )
    .await;
    assert_eq!(posted.status(), 303);
    let visitor = client().get(server.url(&area)).send().await.unwrap();
    assert_eq!(visitor.status(), 303, "visitors sign in");
    let b_page = founder
        .get(server.url(&format!("/vc-dashboard/startups/{b}")))
        .send()
        .await
        .unwrap();
    assert_eq!(b_page.status(), 404);
    let cem_area = cem.get(server.url(&area)).send().await.unwrap();
    assert_eq!(cem_area.status(), 403);

    // A founder who also joins the fund's team sees their startup once, not once per role.
    let once = home.matches(name_a.as_str()).count();
    exec(
        &server,
        &format!(
            "INSERT INTO fund_members (fund_id, user_id) SELECT s.fund_id, u.id \
             FROM startups s, users u WHERE s.id = {a} AND u.email = 'kurucu@example.com'"
        ),
    )
    .await;
    let both = common::text(&founder, server.url("/vc-dashboard")).await;
    assert_eq!(both.matches(name_a.as_str()).count(), once, "{both}");
}
