//! Issue 26's attacks on the rules around the money, performed against the real server. Each
//! passed before the fix: an individual lifted the yearly limit by re-sending MKK data as a
//! "company"; one oversized request froze a round's waitlist for everyone; one person got a
//! second yearly limit by moving their identity to another account; rejected MKK data left the
//! member's requests standing; a request landed in a round that had started closing.

use crate::common;

use common::journeys::{ADMIN_PASSWORD, create_admin, csrf, post_form, sign_in, sign_up};
use common::money::{
    investor, mkk, qualified_investor, request_of, send_request, staff_move, status_of, tckn,
    verify_email, verify_mkk,
};
use common::{Server, scalar};
use tempfile::TempDir;

fn start(env: &[(&str, &str)]) -> Server {
    let data = TempDir::new().unwrap();
    create_admin(&data, "super@example.com", true);
    let mut all = vec![("ORTAK_DEMO", "1")];
    all.extend_from_slice(env);
    Server::start_in(data, &all)
}

/// A corporate investor's MKK form (VKN `vkn`, organisation `name`).
fn corporate(email: &str, vkn: &str, name: &str) -> Vec<(&'static str, String)> {
    let mut fields = mkk(email, vkn, "0");
    for (key, value) in [
        ("investor_type", "corporate"),
        ("id_type", "vkn"),
        ("organisation", name),
    ] {
        fields.retain(|(k, _)| *k != key);
        fields.push((key, value.to_owned()));
    }
    fields
}

async fn mkk_status(server: &Server, email: &str) -> (String, Option<String>) {
    sqlx::query_as(
        "SELECT m.status, m.verified_investor_type FROM mkk_profiles m
         JOIN users u ON u.id = m.user_id WHERE u.email = ?",
    )
    .bind(email)
    .fetch_one(&server.db().await)
    .await
    .unwrap()
}

#[tokio::test]
async fn saying_i_am_a_company_lifts_no_limit_until_staff_verify_it() {
    let server = start(&[]);
    let staff = sign_in(&server, "super@example.com", ADMIN_PASSWORD).await;
    let email = "paravan@example.com";
    // An individual with a 100.000 TL income: a 50.000 TL yearly limit, below the minimum.
    let (browser, token) = investor(&server, email, 201, "100.000").await;
    let refused = send_request(&server, &browser, &token, "kalkan-siber", "100.000", "p-1").await;
    assert_eq!(refused.status(), 409);

    // The attack: the same member re-sends the MKK form as a "corporate" investor with any
    // checksum-valid tax number, then asks for 1.000.000 TL. Before the fix: 303.
    let company = corporate(email, "0085010405", "Paravan Holding A.Ş.");
    let sent = post_form(&browser, server.url("/mkk"), &token, &company).await;
    assert_eq!(sent.status(), 303);
    assert_eq!(
        mkk_status(&server, email).await,
        ("submitted".into(), Some("individual".into())),
        "the change waits for review; the verified class stays"
    );
    let page = common::text(&browser, server.url("/mkk")).await;
    assert!(page.contains("Değişiklikleriniz inceleniyor"));
    for (amount, key) in [("1.000.000", "p-2"), ("100.000", "p-3")] {
        let sent = send_request(&server, &browser, &token, "kalkan-siber", amount, key).await;
        assert_eq!(sent.status(), 409, "{amount}: still the individual's limit");
    }
    assert_eq!(
        scalar(
            &server,
            "SELECT COUNT(*) FROM investment_requests r JOIN users u ON u.id = r.user_id
             WHERE u.email = 'paravan@example.com'"
        )
        .await,
        0
    );

    // Once staff verify the company, it invests as one, and the request keeps that snapshot.
    let user = scalar(
        &server,
        "SELECT id FROM users WHERE email = 'paravan@example.com'",
    )
    .await;
    // Staff see what they verify: the class and number, the declared income, the birth date.
    let member = common::text(&staff, server.url(&format!("/dashboard/users/{user}"))).await;
    assert!(member.contains("Kurumsal") && member.contains("VKN 0085010405"));
    assert!(member.contains("Yıllık gelir (TL)") && member.contains("0 TL"));
    assert!(member.contains("Doğum tarihi") && member.contains("29.02.1984"));
    let board = csrf(&staff, &server, "/dashboard/users").await;
    let verified = post_form(
        &staff,
        server.url(&format!("/dashboard/users/{user}/mkk")),
        &board,
        &[("decision", "verified".into())],
    )
    .await;
    assert_eq!(verified.status(), 303);
    let sent = send_request(
        &server,
        &browser,
        &token,
        "kalkan-siber",
        "1.000.000",
        "p-4",
    )
    .await;
    assert_eq!(sent.status(), 303);
    let id = request_of(&server, email).await;
    let snapshot: (String, String, Option<i64>) = sqlx::query_as(
        "SELECT investor_class, identity_key, limit_kurus FROM investment_requests WHERE id = ?",
    )
    .bind(id)
    .fetch_one(&server.db().await)
    .await
    .unwrap();
    assert_eq!(
        snapshot,
        ("corporate".into(), "vkn:0085010405".into(), None)
    );
    // The identity is locked now: switching back to the individual's TCKN is refused.
    let back = mkk(email, &tckn(201), "100.000");
    let locked = post_form(&browser, server.url("/mkk"), &token, &back).await;
    assert_eq!(locked.status(), 422);
    assert!(
        locked
            .text()
            .await
            .unwrap()
            .contains("kimlik numaranız değiştirilemez")
    );

    // The staff request page shows the class, the MKK state and the limit.
    let page = common::text(&staff, server.url(&format!("/dashboard/investments/{id}"))).await;
    assert!(page.contains("Gönderildiği sıfat") && page.contains("VKN 0085010405"));
    assert!(page.contains("Yatırımcı sınıfı şu an") && page.contains("Tüzel"));
    assert!(page.contains("Yıllık limit şu an") && page.contains("Sınırsız"));
}

#[tokio::test]
async fn approval_checks_the_limit_and_rejected_mkk_data_holds_requests() {
    let server = start(&[]);
    let staff = sign_in(&server, "super@example.com", ADMIN_PASSWORD).await;
    let email = "gelir@example.com";
    // 2.000.000 TL income: a 200.000 TL limit.
    let (browser, token) = investor(&server, email, 202, "2.000.000").await;
    assert_eq!(
        send_request(&server, &browser, &token, "cemre-enerji", "200.000", "g-1")
            .await
            .status(),
        303
    );
    let id = request_of(&server, email).await;
    let page = common::text(&staff, server.url(&format!("/dashboard/investments/{id}"))).await;
    assert!(page.contains("200.000 TL · kullanılan 200.000 TL · kalan 0 TL"));

    // The member declares a lower income and staff verify it: the limit is now 50.000 TL and
    // approving the 200.000 TL request would break it.
    let lower = mkk(email, &tckn(202), "500.000");
    assert_eq!(
        post_form(&browser, server.url("/mkk"), &token, &lower)
            .await
            .status(),
        303
    );
    verify_mkk(&server, email).await;
    assert_eq!(staff_move(&server, &staff, id, "approved", "").await, 409);
    assert_eq!(status_of(&server, id).await, "submitted");

    // Back to the higher income (verified): approval goes through. Then staff reject the MKK
    // data: the member is told, with the reason and that their request is on hold.
    let higher = mkk(email, &tckn(202), "2.000.000");
    post_form(&browser, server.url("/mkk"), &token, &higher).await;
    verify_mkk(&server, email).await;
    let user = scalar(
        &server,
        "SELECT id FROM users WHERE email = 'gelir@example.com'",
    )
    .await;
    let board = csrf(&staff, &server, "/dashboard/users").await;
    let review = |decision: &'static str, note: &'static str| {
        let (staff, server, board) = (&staff, &server, &board);
        async move {
            post_form(
                staff,
                server.url(&format!("/dashboard/users/{user}/mkk")),
                board,
                &[("decision", decision.into()), ("note", note.into())],
            )
            .await
            .status()
            .as_u16()
        }
    };
    // (Sent data can be reviewed: re-send a change so there is something to review.)
    let phone_changed = {
        let mut f = mkk(email, &tckn(202), "2.000.000");
        f.retain(|(k, _)| *k != "phone");
        f.push(("phone", "0533 111 22 33".into()));
        f
    };
    post_form(&browser, server.url("/mkk"), &token, &phone_changed).await;
    assert_eq!(
        review("rejected", "").await,
        400,
        "a rejection needs a reason"
    );
    assert_eq!(review("rejected", "Kimlik belgesi okunmuyor").await, 303);
    let (subject, body): (String, String) = sqlx::query_as(
        "SELECT subject, text_body FROM outbox WHERE to_email = ? ORDER BY id DESC LIMIT 1",
    )
    .bind(email)
    .fetch_one(&server.db().await)
    .await
    .unwrap();
    assert!(
        subject.contains("MKK bilgilerinizin düzeltilmesi gerekiyor"),
        "{subject}"
    );
    assert!(
        body.contains("Kimlik belgesi okunmuyor") && body.contains("bekletilir"),
        "{body}"
    );
    // Held: staff cannot approve it, the database refuses it too, and the investor is told.
    assert_eq!(staff_move(&server, &staff, id, "approved", "").await, 409);
    let sneaky = sqlx::query(
        "UPDATE investment_requests SET status = 'approved', fee_due_at = '2030-01-01T00:00:00Z'
         WHERE id = ?",
    )
    .bind(id)
    .execute(&server.db().await)
    .await;
    assert!(
        sneaky
            .unwrap_err()
            .to_string()
            .contains("MKK data is not verified")
    );
    let blocked = common::text(&browser, server.url("/investmentFlow?startup=cemre-enerji")).await;
    assert!(blocked.contains("MKK bilgileriniz reddedildi"));
    let page = common::text(&staff, server.url(&format!("/dashboard/investments/{id}"))).await;
    assert!(page.contains("Reddedildi: talep bekletiliyor"));
}

#[tokio::test]
async fn one_person_has_one_yearly_limit_whatever_the_accounts() {
    let server = start(&[]);
    let staff = sign_in(&server, "super@example.com", ADMIN_PASSWORD).await;
    // A: TCKN X, a 200.000 TL limit, used up.
    let (a, ta) = investor(&server, "a-kisi@example.com", 203, "2.000.000").await;
    assert_eq!(
        send_request(&server, &a, &ta, "cemre-enerji", "200.000", "x-1")
            .await
            .status(),
        303
    );
    assert_eq!(
        send_request(&server, &a, &ta, "cemre-enerji", "100.000", "x-2")
            .await
            .status(),
        409,
        "the limit is used up"
    );
    // The attack, step 1: A moves to another TCKN. Refused now: the identity is locked.
    let moved = mkk("a-kisi@example.com", &tckn(204), "2.000.000");
    let locked = post_form(&a, server.url("/mkk"), &ta, &moved).await;
    assert_eq!(locked.status(), 422);
    let db = server.db().await;
    let direct = sqlx::query(
        "UPDATE mkk_profiles SET identity_number = '10000000146'
         WHERE user_id = (SELECT id FROM users WHERE email = 'a-kisi@example.com')",
    )
    .execute(&db)
    .await;
    assert!(
        direct
            .unwrap_err()
            .to_string()
            .contains("identity is locked")
    );

    // A superadmin allows one correction (a reason is required; audited); A moves to Y.
    let user_a = scalar(
        &server,
        "SELECT id FROM users WHERE email = 'a-kisi@example.com'",
    )
    .await;
    let board = csrf(&staff, &server, &format!("/dashboard/users/{user_a}")).await;
    let unlock = |note: &'static str| {
        let (staff, server, board) = (&staff, &server, &board);
        async move {
            post_form(
                staff,
                server.url(&format!("/dashboard/users/{user_a}/identity-unlock")),
                board,
                &[("note", note.into())],
            )
            .await
            .status()
            .as_u16()
        }
    };
    assert_eq!(unlock("").await, 400);
    assert_eq!(unlock("Yanlış yazılmış kimlik numarası").await, 303);
    assert_eq!(
        post_form(&a, server.url("/mkk"), &ta, &moved)
            .await
            .status(),
        303
    );
    let history: Vec<(String, Option<i64>)> = sqlx::query_as(
        "SELECT identity_number, unlocked_by FROM identity_history WHERE user_id = ? ORDER BY id",
    )
    .bind(user_a)
    .fetch_all(&db)
    .await
    .unwrap();
    assert_eq!(history.len(), 2);
    assert_eq!(history[0].0, tckn(203));
    assert_eq!(history[1].0, tckn(204));
    assert!(history[1].1.is_some(), "the unlock is recorded");
    assert_eq!(
        scalar(
            &server,
            "SELECT COUNT(*) FROM audit_log WHERE action = 'mkk.identity_unlock'"
        )
        .await,
        1
    );

    // Step 2: account B registers A's old number. Before the fix it could, and invested a
    // second full limit. Refused: another account invested under it.
    let b = sign_up(&server, "b-kisi@example.com").await;
    verify_email(&server, "b-kisi@example.com").await;
    let tb = csrf(&b, &server, "/mkk").await;
    let taken = post_form(
        &b,
        server.url("/mkk"),
        &tb,
        &mkk("b-kisi@example.com", &tckn(203), "2.000.000"),
    )
    .await;
    assert_eq!(taken.status(), 409);
    assert!(
        taken
            .text()
            .await
            .unwrap()
            .contains("başka bir hesapta kayıtlı")
    );

    // And A, once Y is verified, still has nothing left: the limit follows the person (their
    // account's requests count, whatever identity they were made under).
    verify_mkk(&server, "a-kisi@example.com").await;
    assert_eq!(
        send_request(&server, &a, &ta, "cemre-enerji", "100.000", "x-3")
            .await
            .status(),
        409
    );
}

#[tokio::test]
async fn one_oversized_request_cannot_freeze_a_round() {
    // No overfunding margin: the capacity is the goal.
    let server = start(&[("ORTAK_OVERFUNDING_BP", "0")]);
    let staff = sign_in(&server, "super@example.com", ADMIN_PASSWORD).await;
    let cemre = scalar(
        &server,
        "SELECT id FROM startups WHERE slug = 'cemre-enerji'",
    )
    .await;
    let committed = scalar(
        &server,
        &format!(
            "SELECT SUM(investment_kurus) FROM investment_requests WHERE startup_id = {cemre}
             AND status IN ('submitted','under_review','approved','fee_paid','funded','allocated')"
        ),
    )
    .await;
    // 150.000 TL of room.
    common::exec(
        &server,
        &format!(
            "UPDATE startups SET funding_goal_kurus = {} WHERE id = {cemre}",
            committed + 15_000_000
        ),
    )
    .await;

    let (attacker, t0) = qualified_investor(&server, "saldirgan@example.com", 210).await;
    let (w, tw) = qualified_investor(&server, "bekleyen@example.com", 211).await;
    let (v1, t1) = qualified_investor(&server, "kurban1@example.com", 212).await;
    let (v2, t2) = qualified_investor(&server, "kurban2@example.com", 213).await;

    // More than the round could ever take: refused, with the reason on the form.
    let huge = send_request(&server, &attacker, &t0, "cemre-enerji", "50.000.000", "o-1").await;
    assert_eq!(huge.status(), 422);
    assert!(
        huge.text()
            .await
            .unwrap()
            .contains("Bu tur bu tutarı alamaz")
    );

    // 200.000 TL does not fit now but could: waitlisted.
    send_request(&server, &w, &tw, "cemre-enerji", "200.000", "o-2").await;
    let waiting = request_of(&server, "bekleyen@example.com").await;
    assert_eq!(status_of(&server, waiting).await, "waitlisted");
    // 100.000 TL fits: sent, however long the line. Before the fix: waitlisted behind it.
    send_request(&server, &v1, &t1, "cemre-enerji", "100.000", "o-3").await;
    let first = request_of(&server, "kurban1@example.com").await;
    assert_eq!(status_of(&server, first).await, "submitted");
    // Now 50.000 TL of room: the next 100.000 TL waits.
    send_request(&server, &v2, &t2, "cemre-enerji", "100.000", "o-4").await;
    let second = request_of(&server, "kurban2@example.com").await;
    assert_eq!(status_of(&server, second).await, "waitlisted");

    // The first victim withdraws: 150.000 TL of room. The 200.000 TL at the head of the line
    // still does not fit; the 100.000 TL behind it does, and is promoted (before the fix the
    // line stopped at its head).
    let cancelled = post_form(
        &v1,
        server.url(&format!("/pendingInvestments/{first}/cancel")),
        &t1,
        &[],
    )
    .await;
    assert_eq!(cancelled.status(), 303);
    assert_eq!(status_of(&server, waiting).await, "waitlisted");
    assert_eq!(status_of(&server, second).await, "submitted");

    // Staff may end a waitlisted request, with a reason (before the fix: 400 whatever).
    assert_eq!(
        staff_move(&server, &staff, waiting, "cancelled", "").await,
        400
    );
    assert_eq!(
        staff_move(
            &server,
            &staff,
            waiting,
            "rejected",
            "Tur kapasitesini aşıyor"
        )
        .await,
        303
    );
    assert_eq!(status_of(&server, waiting).await, "rejected");
    send_request(&server, &w, &tw, "cemre-enerji", "100.000", "o-5").await;
    let again = request_of(&server, "bekleyen@example.com").await;
    assert_eq!(status_of(&server, again).await, "waitlisted");
    assert_eq!(
        staff_move(&server, &staff, again, "cancelled", "Yatırımcı vazgeçti").await,
        303
    );
    assert_eq!(status_of(&server, again).await, "cancelled");
    let (subject,): (String,) = sqlx::query_as(
        "SELECT subject FROM outbox WHERE to_email = 'bekleyen@example.com' ORDER BY id DESC LIMIT 1",
    )
    .fetch_one(&server.db().await)
    .await
    .unwrap();
    assert!(subject.contains("iptal"), "{subject}");
}

#[tokio::test]
async fn a_round_that_started_closing_takes_no_request() {
    let server = start(&[]);
    let (browser, token) = qualified_investor(&server, "gec@example.com", 220).await;
    common::exec(
        &server,
        "UPDATE startups SET round_status = 'closing', close_outcome = 'failed',
             closing_total_kurus = 0 WHERE slug = 'cemre-enerji'",
    )
    .await;
    let sent = send_request(&server, &browser, &token, "cemre-enerji", "100.000", "c-1").await;
    assert_eq!(sent.status(), 409);
    assert_eq!(
        scalar(
            &server,
            "SELECT COUNT(*) FROM investment_requests r JOIN users u ON u.id = r.user_id
             WHERE u.email = 'gec@example.com'"
        )
        .await,
        0
    );
}

#[tokio::test]
async fn made_up_methods_are_refused_and_leave_no_metrics_series() {
    let server = start(&[]);
    let client = common::client();
    for n in 0..200 {
        let method = reqwest::Method::from_bytes(format!("UYDURMA{n}").as_bytes()).unwrap();
        let answer = client
            .request(method, server.url("/"))
            .send()
            .await
            .unwrap();
        assert_eq!(answer.status(), 405);
        // Refused before anything else, yet with every security header.
        assert!(answer.headers().contains_key("content-security-policy"));
        assert!(answer.headers()["allow"].to_str().unwrap().contains("GET"));
    }
    // HTTP's own TRACE too: allowed nowhere.
    let trace = client
        .request(reqwest::Method::TRACE, server.url("/healthz"))
        .send()
        .await
        .unwrap();
    assert_eq!(trace.status(), 405);
    assert!(trace.headers()["allow"].to_str().unwrap().contains("GET"));
    let metrics = common::text(&client, server.url("/metrics")).await;
    // Before the fix: one series (a counter and its histogram) per made-up method, for ever.
    assert!(
        !metrics.contains("UYDURMA"),
        "made-up methods became labels"
    );
    assert!(metrics.contains("method=\"other\""));
    let methods: std::collections::BTreeSet<&str> = metrics
        .split("method=\"")
        .skip(1)
        .map(|rest| &rest[..rest.find('"').unwrap()])
        .collect();
    assert!(methods.len() <= 8, "{methods:?}");
}

#[tokio::test]
async fn a_large_body_meets_the_routes_limit_before_anything_parses_it() {
    let server = start(&[]);
    let browser = common::client();
    let token = csrf(&browser, &server, "/").await;
    // 900 KB of JSON with a control character: before the fix the screen read and parsed all
    // of it (and answered 400); now the route's 64 KB limit answers first, unread.
    let body = format!(
        "{{\"email\": \"a@example.com\", \"x\": [{}\"\\u0001\"]}}",
        "\"aaaaaaaa\",".repeat(90_000)
    );
    let answer = browser
        .post(server.url("/api/newsletter"))
        .header("content-type", "application/json")
        .header("x-csrf-token", &token)
        .header("origin", &server.base)
        .body(body)
        .send()
        .await
        .unwrap();
    assert_eq!(answer.status(), 413);
    // Under the limit, control characters are still refused in the member's language. (A new
    // connection: the refused body was left unread and that one closed.)
    let browser = common::client();
    let token = csrf(&browser, &server, "/").await;
    let small = browser
        .post(server.url("/api/newsletter"))
        .header("content-type", "application/json")
        .header("x-csrf-token", &token)
        .header("origin", &server.base)
        .body("{\"email\": \"a@example.com\", \"consent\": true, \"x\": \"\\u0001\"}")
        .send()
        .await
        .unwrap();
    assert_eq!(small.status(), 400);
    // And a form's the same way.
    let form = post_form(
        &browser,
        server.url("/signup"),
        &token,
        &[("first_name", "A\u{1}".into())],
    )
    .await;
    assert_eq!(form.status(), 400);
}

#[tokio::test]
async fn a_chosen_csrf_cookie_cannot_deface_the_cached_page() {
    let server = start(&[]);
    let page = common::text(&common::client(), server.url("/faq")).await;
    // A run of 43 token-like characters from an SVG path on the page (the logo's wordmark).
    let piece = page
        .split(" d=\"")
        .skip(1)
        .flat_map(|rest| {
            rest[..rest.find('"').unwrap()].split(|c: char| !c.is_ascii_alphanumeric())
        })
        .find(|run| run.len() >= 43)
        .map(|run| run[..43].to_owned())
        .expect("a 43-character piece of an SVG path on the page to attack with");
    // The attacker is the first to ask for a page (a query nobody used): it is kept from their
    // render, with their chosen token.
    let attacker = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let url = server.url("/startups?sector=fintech&sort=z-a");
    let theirs = attacker
        .get(&url)
        .header("cookie", format!("ortak_csrf={piece}"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(theirs.contains(&piece));
    // Every other visitor gets the page whole (before the fix: the piece cut out).
    let victim = common::text(&common::client(), &url).await;
    assert!(
        victim.contains(&piece),
        "the kept page lost a piece of the page"
    );
}

#[tokio::test]
async fn sign_up_mails_nothing_a_visitor_typed_and_names_are_names() {
    let (server, sink) = common::journeys::start_with_mail().await;
    let browser = common::client();
    let token = csrf(&browser, &server, "/signup").await;
    let mut fields = common::journeys::signup_fields("kurban@example.com");
    fields.retain(|(k, _)| *k != "first_name");
    fields.push((
        "first_name",
        "your Ortak account is suspended. Reactivate at https://ortak-destek.example/giris".into(),
    ));
    let refused = post_form(&browser, server.url("/signup"), &token, &fields).await;
    assert_eq!(refused.status(), 422);
    let page = refused.text().await.unwrap();
    assert!(page.contains("Yalnızca harf kullanın"));
    assert!(page.contains("Reactivate at"), "keeps what was typed");
    assert_eq!(
        scalar(
            &server,
            "SELECT COUNT(*) FROM users WHERE email = 'kurban@example.com'"
        )
        .await,
        0
    );
    // A real name joins; the mail to the not-yet-proved address greets nobody by name.
    let fields = common::journeys::signup_fields("kurban@example.com");
    let joined = post_form(&browser, server.url("/signup"), &token, &fields).await;
    assert_eq!(joined.status(), 303);
    let mail = sink.wait_for("kurban@example.com", "doğrulayın").await;
    assert!(!mail.text.contains("Ayşe"), "{}", mail.text);
    assert!(mail.text.starts_with("Merhaba,"), "{}", mail.text);
}

/// A request of `email` (identity `n`) for 100.000 TL in Cemre Enerji, approved, its fee paid
/// and its transfer details given (the investor's declared IBAN); its id and reference.
async fn awaiting_transfer(
    server: &Server,
    staff: &reqwest::Client,
    email: &str,
    n: u32,
) -> (i64, String) {
    let (browser, token) = qualified_investor(server, email, n).await;
    let key = format!("escrow-{n}");
    send_request(server, &browser, &token, "cemre-enerji", "100.000", &key).await;
    let id = request_of(server, email).await;
    assert_eq!(staff_move(server, staff, id, "approved", "").await, 303);
    common::money::pay_fee(server, &browser, id).await;
    let reference =
        common::money::give_transfer(server, &browser, id, "TR470000100100000350930001").await;
    (id, reference)
}

#[tokio::test]
async fn escrow_receipts_come_only_from_the_banks_statement_and_the_investor() {
    use common::money::{camt053, import_statement, typed_receipt};
    let data = TempDir::new().unwrap();
    create_admin(&data, "super@example.com", true);
    create_admin(&data, "super2@example.com", true);
    create_admin(&data, "admin@example.com", false);
    let server = Server::start_in(data, &[("ORTAK_DEMO", "1")]);
    let staff = sign_in(&server, "super@example.com", ADMIN_PASSWORD).await;
    let second = sign_in(&server, "super2@example.com", ADMIN_PASSWORD).await;
    let admin = sign_in(&server, "admin@example.com", ADMIN_PASSWORD).await;
    let (id, reference) = awaiting_transfer(&server, &staff, "emanet@example.com", 230).await;
    let own = "TR470000100100000350930001";

    // A plain admin: no transfer list, no statement, no typed receipt (before the fix an
    // admin's typed figure made the request funded).
    for path in [
        "/dashboard/takasbank",
        "/dashboard/takasbank.json",
        "/dashboard/takasbank/statements",
    ] {
        let status = admin.get(server.url(path)).send().await.unwrap().status();
        assert_eq!(status, 403, "{path}");
    }
    let token = csrf(&admin, &server, "/newsletter").await;
    let typed = post_form(
        &admin,
        server.url(&format!("/dashboard/takasbank/{id}/receipts")),
        &token,
        &[
            ("amount", "100.000".into()),
            ("date", "2026-11-20".into()),
            ("note", "x".into()),
        ],
    )
    .await;
    assert_eq!(typed.status(), 403);
    assert_eq!(
        import_statement(
            &server,
            &admin,
            camt053(&[(&reference, "100.000", "Ayşe Yılmaz", own)])
        )
        .await
        .status(),
        403
    );

    // The statement: someone else paid (the attack of item 6), the investor paid 1 TL short,
    // a reference nobody has. All flagged; nothing moves.
    let file = camt053(&[
        (
            &reference,
            "100.000",
            "Başka Biri Holding",
            "TR330006100519786457841326",
        ),
        (&reference, "99.999", "Ayşe Yılmaz", own),
        ("ORT999999ABCDEF", "100.000", "Ayşe Yılmaz", own),
    ]);
    let imported = import_statement(&server, &staff, file.clone()).await;
    assert_eq!(imported.status(), 303);
    assert_eq!(status_of(&server, id).await, "fee_paid");
    let outcomes: Vec<String> =
        sqlx::query_scalar("SELECT outcome FROM statement_lines ORDER BY id")
            .fetch_all(&server.db().await)
            .await
            .unwrap();
    assert_eq!(
        outcomes,
        ["payer_mismatch", "amount_mismatch", "unknown_reference"]
    );
    assert_eq!(
        scalar(&server, &format!("SELECT COUNT(*) FROM money_events WHERE request_id = {id} AND kind = 'transfer_received'")).await,
        0
    );
    // The same file again, and another account's statement: refused whole.
    let again = import_statement(&server, &staff, file).await;
    assert_eq!(again.status(), 422);
    assert!(again.text().await.unwrap().contains("daha önce yüklendi"));
    let other = camt053(&[(&reference, "100.000", "Ayşe Yılmaz", own)]).replace(
        "<IBAN>TR470000100100000350930001</IBAN></Id></Acct>",
        "<IBAN>TR330006100519786457841326</IBAN></Id></Acct>",
    );
    let refused = import_statement(&server, &staff, other).await;
    assert_eq!(refused.status(), 422);
    assert!(
        refused
            .text()
            .await
            .unwrap()
            .contains("başka bir hesaba ait")
    );
    assert_eq!(status_of(&server, id).await, "fee_paid");

    // A person resolves a flagged line, with a note, once.
    let line: i64 = scalar(
        &server,
        "SELECT id FROM statement_lines WHERE outcome = 'payer_mismatch'",
    )
    .await;
    let token = csrf(&staff, &server, "/dashboard/takasbank/statements").await;
    let resolve = |note: &'static str| {
        let (staff, server, token) = (&staff, &server, &token);
        async move {
            post_form(
                staff,
                server.url(&format!("/dashboard/takasbank/lines/{line}/resolve")),
                token,
                &[("note", note.into())],
            )
            .await
            .status()
            .as_u16()
        }
    };
    assert_eq!(resolve("").await, 400);
    assert_eq!(resolve("Banka göndericiye iade etti").await, 303);
    assert_eq!(resolve("iki kez").await, 409);

    // The investor's own transfer, in MT940: funded.
    let mt940 = format!(
        ":20:TAKAS1120\r\n:25:TR470000100100000350930001\r\n:28C:00001/001\r\n\
         :60F:C261119TRY0,00\r\n:61:2611201120C100000,00NTRFNONREF//MT-1\r\n\
         :86:{reference} AYSE YILMAZ {own}\r\n:62F:C261120TRY100000,00\r\n"
    );
    assert_eq!(import_statement(&server, &staff, mt940).await.status(), 303);
    assert_eq!(status_of(&server, id).await, "funded");

    // A typed receipt needs a second superadmin: the one who typed it cannot confirm it, and
    // the database refuses it too.
    let (other_id, _) = awaiting_transfer(&server, &staff, "yazili@example.com", 231).await;
    let token = csrf(&staff, &server, "/dashboard/takasbank").await;
    let typed = post_form(
        &staff,
        server.url(&format!("/dashboard/takasbank/{other_id}/receipts")),
        &token,
        &[
            ("amount", "100.000".into()),
            ("date", "2026-11-20".into()),
            ("note", "Banka yazısı".into()),
        ],
    )
    .await;
    assert_eq!(typed.status(), 303);
    let receipt = scalar(
        &server,
        "SELECT id FROM typed_receipts ORDER BY id DESC LIMIT 1",
    )
    .await;
    let token = csrf(&staff, &server, "/dashboard/takasbank/statements").await;
    let same = post_form(
        &staff,
        server.url(&format!("/dashboard/takasbank/receipts/{receipt}/confirm")),
        &token,
        &[],
    )
    .await;
    assert_eq!(same.status(), 409);
    assert_eq!(status_of(&server, other_id).await, "fee_paid");
    let sneaky =
        sqlx::query("UPDATE typed_receipts SET confirmed_by = proposed_by, confirmed_at = 'x'")
            .execute(&server.db().await)
            .await;
    assert!(sneaky.is_err());
    let token = csrf(&second, &server, "/dashboard/takasbank/statements").await;
    let confirmed = post_form(
        &second,
        server.url(&format!("/dashboard/takasbank/receipts/{receipt}/confirm")),
        &token,
        &[],
    )
    .await;
    assert_eq!(confirmed.status(), 303);
    assert_eq!(status_of(&server, other_id).await, "funded");
    // Confirmed once only.
    let (_, twice) = typed_receipt(&server, (&staff, &staff), other_id, "1").await;
    assert_eq!(twice, 409);
    for action in [
        "statement.import",
        "statement.resolve",
        "receipt.propose",
        "transfer.received",
    ] {
        let n = scalar(
            &server,
            &format!("SELECT COUNT(*) FROM audit_log WHERE action = '{action}'"),
        )
        .await;
        assert!(n >= 1, "{action} audited");
    }
}
