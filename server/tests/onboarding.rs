//! Onboarding after the first sign-in: five saved, resumable, validated steps.

use crate::common;

use common::journeys::{csrf, join, post_form, start_with_mail};

#[tokio::test]
async fn a_new_investor_completes_onboarding_step_by_step() {
    let (server, sink) = start_with_mail().await;
    let browser = join(&server, &sink, "onboard@example.com").await;

    // Verification sent the new investor to step 1; later steps wait their turn.
    let home = common::text(&browser, server.url("/")).await;
    assert!(
        home.contains("href=\"/boardingFlow/1\""),
        "home invites to finish onboarding"
    );
    let early = browser
        .get(server.url("/boardingFlow/3"))
        .send()
        .await
        .unwrap();
    assert_eq!(early.headers()["location"], "/boardingFlow/1");
    let step1 = common::text(&browser, server.url("/boardingFlow/1")).await;
    // What sign-up asked is shown, the phone as people read it, and changed only on request.
    assert!(
        step1.contains("<dd>+90 532 123 45 67</dd>")
            && step1.contains("value=\"+90 532 123 45 67\"")
            && step1.contains("<details class=\"disclosure\">"),
        "prefilled from sign-up"
    );
    // A flow: the site header (sign out, the way out) and the slim footer, no call to invest.
    assert!(step1.contains("<header class=\"site-header\">"));
    assert!(
        step1.contains("<footer class=\"site-footer site-footer--slim\">")
            && !step1.contains("footer-cta")
            && !step1.contains("newsletter-box"),
        "the slim footer in a flow"
    );

    let token = csrf(&browser, &server, "/boardingFlow/1").await;
    let post = |step: u8, fields: Vec<(&'static str, String)>| {
        let (browser, server, token) = (&browser, &server, &token);
        async move {
            post_form(
                browser,
                server.url(&format!("/boardingFlow/{step}")),
                token,
                &fields,
            )
            .await
        }
    };

    let bad = post(
        1,
        vec![
            ("phone", "0532".into()),
            ("country", "Türkiye".into()),
            ("city", "".into()),
        ],
    )
    .await;
    assert_eq!(bad.status(), 422);
    let html = bad.text().await.unwrap();
    assert!(html.contains("Lütfen telefon numaranızı eksiksiz girin."));
    assert!(html.contains("Bu alan zorunludur"));
    assert!(html.contains("value=\"Türkiye\""), "keeps what was typed");
    let ok = post(
        1,
        vec![
            ("phone", "0555 111 22 33".into()),
            ("country", "Türkiye".into()),
            ("city", "Bursa".into()),
        ],
    )
    .await;
    assert_eq!(ok.headers()["location"], "/boardingFlow/2");

    let bad = post(
        2,
        vec![
            ("investor_type", "corporate".into()),
            ("company_name", "".into()),
        ],
    )
    .await;
    assert_eq!(bad.status(), 422);
    let bad = post(2, vec![("investor_type", "".into())]).await;
    assert!(
        bad.text()
            .await
            .unwrap()
            .contains("Kullanıcı tipi seçilmelidir")
    );
    let ok = post(
        2,
        vec![
            ("investor_type", "corporate".into()),
            ("company_name", "Anadolu Holding A.Ş.".into()),
            ("tax_office", "Zincirlikuyu".into()),
            ("position", "CFO".into()),
        ],
    )
    .await;
    assert_eq!(ok.headers()["location"], "/boardingFlow/3");

    assert_eq!(
        post(3, vec![("purpose", "invest".into())]).await.status(),
        422
    );
    let ok = post(
        3,
        vec![
            ("purpose", "invest".into()),
            ("budget", "250000-500000".into()),
        ],
    )
    .await;
    assert_eq!(ok.headers()["location"], "/boardingFlow/4");

    let bad = post(4, vec![("how_heard", "friend".into())]).await;
    assert!(
        bad.text()
            .await
            .unwrap()
            .contains("Lütfen en az birini seçin.")
    );
    let ok = post(
        4,
        vec![
            ("interests", "fintech".into()),
            ("interests", "energy".into()),
            ("how_heard", "friend".into()),
        ],
    )
    .await;
    assert_eq!(ok.headers()["location"], "/boardingFlow/5");

    // Going back shows what was saved.
    let back = common::text(&browser, server.url("/boardingFlow/2")).await;
    assert!(back.contains("value=\"Anadolu Holding A.Ş.\""));

    let bad = post(
        5,
        vec![("experience", "no".into()), ("specific", "yes".into())],
    )
    .await;
    assert_eq!(bad.status(), 422);
    let ok = post(
        5,
        vec![
            ("experience", "no".into()),
            ("specific", "yes".into()),
            ("specific_startup", "Çiçek Tarım".into()),
        ],
    )
    .await;
    assert_eq!(ok.headers()["location"], "/boardingFlow/success");
    let done = browser
        .get(server.url("/boardingFlow/success"))
        .send()
        .await
        .unwrap();
    assert_eq!(done.status(), 200);
    assert!(done.text().await.unwrap().contains("Hoş geldiniz!"));

    let row: (String, String, String, String, String, i64, String, String) = sqlx::query_as(
        "SELECT phone, investor_type, company_name, budget_range, interests, specific_investment, specific_startup,
                COALESCE(onboarding_completed_at, '')
         FROM users WHERE email = 'onboard@example.com'",
    )
    .fetch_one(&server.db().await)
    .await
    .unwrap();
    assert_eq!(row.0, "+905551112233");
    assert_eq!(row.1, "corporate");
    assert_eq!(row.2, "Anadolu Holding A.Ş.");
    assert_eq!(row.3, "250000-500000");
    assert_eq!(row.4, "energy,fintech");
    assert_eq!(row.5, 1);
    assert_eq!(row.6, "Çiçek Tarım");
    assert!(!row.7.is_empty());
    let home = common::text(&browser, server.url("/")).await;
    assert!(
        !home.contains("href=\"/boardingFlow/1\""),
        "no banner once done"
    );

    // Visitors are sent to sign in first.
    let visitor = common::client()
        .get(server.url("/boardingFlow/1"))
        .send()
        .await
        .unwrap();
    assert_eq!(
        visitor.headers()["location"],
        "/signin?next=/boardingFlow/1"
    );
}
