//! The attacks on the fee (issue 12, item 2) performed against the real server with the
//! sandbox provider: two challenges completed for one request, a challenge completed after the
//! investor cancelled or after staff rejected. And the sandbox's own guard (item 4): it refuses
//! an https install unless allowed, and then says so in the log and on its pages.

use crate::common;
use crate::payments_support;

use common::Server;
use common::journeys::{csrf, post_form};
use payments_support::{
    approved_request, eventually, fee_mails, fee_paid, location, move_request, pay, payments,
    staff, start,
};
use tempfile::TempDir;

/// Answers the sandbox's challenge at `challenge` with the right code; returns the answer.
async fn answer_challenge(
    server: &Server,
    browser: &reqwest::Client,
    challenge: &str,
) -> reqwest::Response {
    let token = csrf(browser, server, "/newsletter").await;
    post_form(
        browser,
        server.url(challenge),
        &token,
        &[("code", "123456".into()), ("action", "approve".into())],
    )
    .await
}

/// Follows the signed callback the sandbox's challenge sent the browser to.
async fn follow(browser: &reqwest::Client, answered: reqwest::Response) -> String {
    assert_eq!(answered.status(), 303);
    let back = browser.get(location(&answered)).send().await.unwrap();
    assert_eq!(back.status(), 303);
    location(&back)
}

#[tokio::test]
async fn a_second_card_post_reuses_the_open_challenge_so_one_fee_is_charged_once() {
    let server = start(&[("ORTAK_JOBS_INTERVAL_SECONDS", "3600")]);
    let (browser, id) = approved_request(&server, "iki@example.com", 11).await;

    // The attack: two card posts, two challenges, both completed.
    let first = pay(&server, &browser, id, "4242 4242 4242 4242").await;
    let second = pay(&server, &browser, id, "5555 5555 5555 4444").await;
    assert_eq!(
        (first.status().as_u16(), second.status().as_u16()),
        (303, 303)
    );
    let (first, second) = (location(&first), location(&second));
    assert_eq!(
        first, second,
        "the second post goes back to the open challenge"
    );
    assert_eq!(payments(&server, id).await.len(), 1, "one payment");
    // Two tabs at the same moment: the database lets one payment be open.
    let (a, b) = tokio::join!(
        pay(&server, &browser, id, "4242 4242 4242 4242"),
        pay(&server, &browser, id, "4242 4242 4242 4242")
    );
    assert_eq!((location(&a), location(&b)), (first.clone(), first.clone()));
    assert_eq!(payments(&server, id).await.len(), 1);

    let landed = follow(&browser, answer_challenge(&server, &browser, &first).await).await;
    assert_eq!(landed, format!("/invFlow?request={id}"));
    let again = answer_challenge(&server, &browser, &second).await;
    assert_eq!(
        location(&again),
        format!("/invFlow?request={id}"),
        "the challenge is over: it leads to where it landed"
    );
    let after = pay(&server, &browser, id, "4242 4242 4242 4242").await;
    assert_eq!(after.status(), 409, "a paid fee is not payable again");
    let rows = payments(&server, id).await;
    assert_eq!(rows.len(), 1);
    assert_eq!(
        (rows[0].status.as_str(), rows[0].charged),
        ("succeeded", true)
    );
    assert_eq!(fee_mails(&server).await, 1);

    // The index itself refuses a second open or succeeded payment, whatever the code does.
    let db = server.db().await;
    let second_row = sqlx::query(
        "INSERT INTO payments (public_id, request_id, provider, amount_kurus, status, card_brand, card_last4)
         VALUES ('forced', ?, 'sandbox', 1000000, 'challenge', 'visa', '4242')",
    )
    .bind(id)
    .execute(&db)
    .await;
    assert!(second_row.unwrap_err().to_string().contains("UNIQUE"));
}

/// Opens a challenge for request `id`, then lets `end` end the request, then completes the
/// challenge: nothing may be charged or counted.
async fn complete_after(server: &Server, browser: &reqwest::Client, id: i64, end: &str) {
    let challenge = location(&pay(server, browser, id, "4242 4242 4242 4242").await);
    assert!(challenge.starts_with("/sandbox/3ds/"), "{challenge}");
    match end {
        "cancelled" => {
            let token = csrf(browser, server, "/pendingInvestments").await;
            let url = server.url(&format!("/pendingInvestments/{id}/cancel"));
            let cancelled = post_form(browser, url, &token, &[]).await;
            assert_eq!(cancelled.status(), 303, "the investor cancels");
        }
        _ => {
            let staff = staff(server).await;
            assert_eq!(move_request(server, &staff, id, "rejected").await, 303);
        }
    }
    // The challenge was voided with the request: its answer only says where it landed.
    let answered = answer_challenge(server, browser, &challenge).await;
    assert_eq!(answered.status(), 303);
    let landed = location(&answered);
    assert_eq!(
        landed,
        format!("/paymentFail?request={id}&reason=not_payable")
    );
    let fail = common::text(browser, server.url(&landed)).await;
    assert!(fail.contains("Bu talep artık ödenemez"), "{fail}");
    let rows = payments(server, id).await;
    assert_eq!(rows.len(), 1);
    assert_eq!((rows[0].status.as_str(), rows[0].charged), ("void", false));
    assert!(!fee_paid(server, id).await, "no fee on a {end} request");
    assert_eq!(fee_mails(server).await, 0, "no 'fee paid' mail");
}

#[tokio::test]
async fn a_challenge_completed_after_the_investor_cancelled_charges_nothing() {
    let server = start(&[("ORTAK_JOBS_INTERVAL_SECONDS", "3600")]);
    let (browser, id) = approved_request(&server, "iptal@example.com", 12).await;
    complete_after(&server, &browser, id, "cancelled").await;
}

#[tokio::test]
async fn a_challenge_completed_after_staff_rejected_charges_nothing() {
    let server = start(&[("ORTAK_JOBS_INTERVAL_SECONDS", "3600")]);
    let (browser, id) = approved_request(&server, "ret@example.com", 13).await;
    complete_after(&server, &browser, id, "rejected").await;
}

#[tokio::test]
async fn the_job_voids_open_challenges_of_ended_requests_and_refunds_fees_owed_back() {
    let server = start(&[("ORTAK_JOBS_INTERVAL_SECONDS", "1")]);
    // A challenge left open when staff reject: the job voids it; its page is gone.
    let (browser, id) = approved_request(&server, "acik@example.com", 14).await;
    let challenge = location(&pay(&server, &browser, id, "4242 4242 4242 4242").await);
    let staff = staff(&server).await;
    assert_eq!(move_request(&server, &staff, id, "rejected").await, 303);
    // Voided by the rejection itself (a trigger), not only at the job's next run.
    assert_eq!(payments(&server, id).await[0].status, "void");
    // The investor still on the bank's page is told why, and nothing is charged.
    let answered = answer_challenge(&server, &browser, &challenge).await;
    assert_eq!(
        location(&answered),
        format!("/paymentFail?request={id}&reason=not_payable")
    );
    assert!(!payments(&server, id).await[0].charged);

    // A fee paid, then the investor cancels: the job gives the fee back, once.
    let (browser, id) = approved_request(&server, "geri@example.com", 15).await;
    let challenge = location(&pay(&server, &browser, id, "4242 4242 4242 4242").await);
    follow(
        &browser,
        answer_challenge(&server, &browser, &challenge).await,
    )
    .await;
    assert!(fee_paid(&server, id).await);
    let token = csrf(&browser, &server, "/pendingInvestments").await;
    let url = server.url(&format!("/pendingInvestments/{id}/cancel"));
    assert_eq!(post_form(&browser, url, &token, &[]).await.status(), 303);
    eventually("the fee is refunded", || async {
        payments(&server, id).await[0].refund_status.as_deref() == Some("refunded")
    })
    .await;
    server.run_jobs().await;
    server.run_jobs().await;
    let notes: Vec<String> = sqlx::query_scalar(
        "SELECT note FROM request_events WHERE request_id = ? AND note LIKE '%refunded%'",
    )
    .bind(id)
    .fetch_all(&server.db().await)
    .await
    .unwrap();
    assert_eq!(notes.len(), 1, "refunded once: {notes:?}");
    // Staff read the payment's state in their own language.
    let page = common::text(&staff, server.url(&format!("/dashboard/investments/{id}"))).await;
    assert!(
        page.contains("Başarılı · ")
            && page.contains("karttan çekildi")
            && page.contains("iade: iade edildi")
            && page.contains("sandbox-refund-"),
        "{page}"
    );
    let page = common::text(
        &staff,
        server.url(&format!("/dashboard/investments/{id}?lang=en")),
    )
    .await;
    assert!(
        page.contains("Succeeded · ")
            && page.contains("card charged")
            && page.contains("refund: refunded"),
        "{page}"
    );
}

fn run_serve(data: &TempDir, env: &[(&str, &str)]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_ortak"))
        .arg("serve")
        .env("ORTAK_ADDR", "127.0.0.1:0")
        .env("ORTAK_DATA_DIR", data.path())
        .envs(env.iter().copied())
        .output()
        .unwrap()
}

#[tokio::test]
async fn the_sandbox_refuses_an_https_install_unless_allowed_and_then_says_so() {
    let data = TempDir::new().unwrap();
    let refused = run_serve(&data, &[("ORTAK_PUBLIC_URL", "https://ortak.example")]);
    assert!(
        !refused.status.success(),
        "an https install with the sandbox does not start"
    );
    let said = String::from_utf8_lossy(&refused.stderr);
    assert!(said.contains("ORTAK_ALLOW_SANDBOX_PAYMENTS"), "{said}");
    assert!(
        !data.path().join("ortak.db").exists(),
        "it stops before touching the database"
    );
    // iyzico without its keys does not start either.
    let keyless = run_serve(&data, &[("ORTAK_PAYMENT_PROVIDER", "iyzico")]);
    assert!(!keyless.status.success());
    assert!(String::from_utf8_lossy(&keyless.stderr).contains("ORTAK_IYZICO_API_KEY"));

    // Allowed: it starts, warns loudly in the log, and its pages carry the banner.
    let server = start(&[
        ("ORTAK_PUBLIC_URL", "https://ortak.example"),
        ("ORTAK_ALLOW_SANDBOX_PAYMENTS", "1"),
    ]);
    let log = server.output.lock().unwrap().join("\n");
    assert!(
        log.contains("SANDBOX PAYMENTS ON AN HTTPS INSTALL"),
        "{log}"
    );
    let (browser, id) = approved_request(&server, "https@example.com", 16).await;
    let card_step = common::text(&browser, server.url(&format!("/invFlow?request={id}"))).await;
    assert!(card_step.contains("Deneme ödemeleri.") && card_step.contains("sandbox-banner"));
    let challenge = location(&pay(&server, &browser, id, "4242 4242 4242 4242").await);
    let bank = common::text(&browser, server.url(&challenge)).await;
    assert!(bank.contains("sandbox-banner"));
}
