//! Paying the service fee in the sandbox (3-D Secure, declines, replays) and the escrow step.

use crate::common;

use common::journeys::{create_admin, csrf, post_form, sign_up};
use common::{Server, csrf_of};
use tempfile::TempDir;

/// An investor with an approved request for Cemre Enerji; returns (investor, request id).
async fn approved_request(server: &Server) -> (reqwest::Client, i64) {
    let browser = sign_up(server, "odeme@example.com").await;
    common::money::verify_email(server, "odeme@example.com").await;
    common::money::make_qualified(server, "odeme@example.com").await;
    let token = csrf(&browser, server, "/mkk").await;
    let mkk = [
        ("investor_type", "individual"),
        ("citizen", "yes"),
        ("id_type", "tckn"),
        ("first_name", "Ayşe"),
        ("last_name", "Yılmaz"),
        ("email", "odeme@example.com"),
        ("phone", "05321234567"),
        ("annual_income", "900000"),
        ("identity_number", "10000000146"),
        ("birth_date", "1980-01-01"),
    ];
    let mkk: Vec<(&str, String)> = mkk.iter().map(|(k, v)| (*k, (*v).to_owned())).collect();
    assert_eq!(
        post_form(&browser, server.url("/mkk"), &token, &mkk)
            .await
            .status(),
        303
    );
    common::money::verify_mkk(server, "odeme@example.com").await;
    common::money::open_information_form(server, &browser, "cemre-enerji").await;
    let request = [
        ("startup", "cemre-enerji".to_owned()),
        ("amount", "400.000".into()),
        ("fee_added", "on".into()),
        ("risk", "on".into()),
        ("idempotency_key", "pay-1".into()),
    ];
    assert_eq!(
        post_form(&browser, server.url("/investmentFlow"), &token, &request)
            .await
            .status(),
        303
    );
    let id: i64 = sqlx::query_scalar(
        "SELECT id FROM investment_requests WHERE idempotency_key NOT LIKE 'demo-%'",
    )
    .fetch_one(&server.db().await)
    .await
    .unwrap();

    // Not payable before approval.
    assert_eq!(
        browser
            .get(server.url(&format!("/invFlow?request={id}")))
            .send()
            .await
            .unwrap()
            .status(),
        409
    );
    // Staff sign in with their second factor (the helper enrols one).
    let staff = common::journeys::sign_in(server, "super@example.com", "parola-1234").await;
    let board = common::text(&staff, server.url("/dashboard/investments")).await;
    let moved = post_form(
        &staff,
        server.url(&format!("/dashboard/investments/{id}/status")),
        &csrf_of(&board),
        &[("to", "approved".into())],
    )
    .await;
    assert_eq!(moved.status(), 303);
    (browser, id)
}

fn start() -> Server {
    let data = TempDir::new().unwrap();
    create_admin(&data, "super@example.com", true);
    Server::start_in(data, &[("ORTAK_DEMO", "1")])
}

fn card(number: &str) -> Vec<(&'static str, String)> {
    vec![
        ("holder", "Ayşe Yılmaz".into()),
        ("number", number.into()),
        ("month", "12".into()),
        ("year", "2030".into()),
        ("cvv", "123".into()),
    ]
}

fn with_request(mut fields: Vec<(&'static str, String)>, id: i64) -> Vec<(&'static str, String)> {
    fields.push(("request", id.to_string()));
    fields
}

#[tokio::test]
async fn the_fee_is_paid_through_3d_secure_then_the_escrow_step_gives_a_reference() {
    let server = start();
    let (browser, id) = approved_request(&server).await;
    let page = common::text(&browser, server.url(&format!("/invFlow?request={id}"))).await;
    assert!(
        page.contains("Hizmet bedelini kartla ödeyin") && page.contains("10.000 TL"),
        "2.5% of 400.000 TL"
    );
    let token = csrf_of(&page);

    // The spec's card messages, each for its field; nothing is charged.
    let bad = post_form(
        &browser,
        server.url("/invFlow/card"),
        &token,
        &with_request(
            vec![
                ("holder", "".into()),
                ("number", "4242 4242 4242 4241".into()),
                ("month", "13".into()),
                ("year", "1999".into()),
                ("cvv", "1".into()),
            ],
            id,
        ),
    )
    .await;
    assert_eq!(bad.status(), 422);
    let html = bad.text().await.unwrap();
    for message in [
        "Geçersiz kart numarası",
        "Geçersiz ay",
        "Geçersiz yıl",
        "Geçersiz CVV",
        "Bu alan zorunludur",
    ] {
        assert!(html.contains(message), "{message}");
    }
    let cvv = html
        .split("id=\"cvv\"")
        .nth(1)
        .unwrap()
        .split('>')
        .next()
        .unwrap();
    assert!(
        cvv.contains("value=\"\""),
        "the CVV is never sent back: {cvv}"
    );
    assert!(!html.contains("4242 4242 4242 4241"), "nor the card number");

    let started = post_form(
        &browser,
        server.url("/invFlow/card"),
        &token,
        &with_request(card("4242 4242 4242 4242"), id),
    )
    .await;
    assert_eq!(started.status(), 303);
    let challenge = started.headers()["location"].to_str().unwrap().to_owned();
    assert!(challenge.starts_with("/sandbox/3ds/"));
    let bank_page = common::text(&browser, server.url(&challenge)).await;
    assert!(bank_page.contains("Visa •••• 4242"));
    let wrong = post_form(
        &browser,
        server.url(&challenge),
        &token,
        &[("code", "000000".into()), ("action", "approve".into())],
    )
    .await;
    assert_eq!(wrong.status(), 422);
    let answered = post_form(
        &browser,
        server.url(&challenge),
        &token,
        &[("code", "123456".into()), ("action", "approve".into())],
    )
    .await;
    assert_eq!(answered.status(), 303);
    let callback = answered.headers()["location"].to_str().unwrap().to_owned();
    assert!(callback.contains("/invFlow/callback?payment="));

    // A forged outcome is refused; the real one completes once, and replaying it changes nothing.
    let forged = callback.replace("outcome=success", "outcome=failed");
    assert_eq!(browser.get(&forged).send().await.unwrap().status(), 400);
    for _ in 0..2 {
        let back = browser.get(&callback).send().await.unwrap();
        assert_eq!(back.status(), 303);
        assert_eq!(back.headers()["location"], format!("/invFlow?request={id}"));
    }
    let db = server.db().await;
    let payments: Vec<(String, String, String)> =
        sqlx::query_as("SELECT status, card_brand, card_last4 FROM payments")
            .fetch_all(&db)
            .await
            .unwrap();
    assert_eq!(
        payments,
        [("succeeded".to_owned(), "visa".to_owned(), "4242".to_owned())]
    );
    // One mail that the fee arrived (the callback was replayed above), with the next step.
    let fee_mails: Vec<String> = sqlx::query_scalar(
        "SELECT text_body FROM outbox WHERE subject LIKE '%hizmet bedeliniz alındı%'",
    )
    .fetch_all(&db)
    .await
    .unwrap();
    assert_eq!(fee_mails.len(), 1, "{fee_mails:?}");
    assert!(fee_mails[0].contains(&format!("/invFlow?request={id}")));
    let everything: String = sqlx::query_scalar(
        "SELECT group_concat(COALESCE(failure_reason, '') || public_id || card_last4) FROM payments",
    )
    .fetch_one(&db)
    .await
    .unwrap();
    assert!(
        !everything.contains("4242424242424242"),
        "the card number is never stored"
    );

    let bank = common::text(&browser, server.url(&format!("/invFlow?request={id}"))).await;
    assert!(bank.contains("Yatırım tutarını emanet hesabına aktarın"));
    let bad = post_form(
        &browser,
        server.url("/invFlow/bank"),
        &token,
        &with_request(
            vec![
                ("payer_name", "Başka Biri Holding".into()),
                ("address", "Bağdat Cad. 1".into()),
                ("phone", "12".into()),
            ],
            id,
        ),
    )
    .await;
    assert_eq!(bad.status(), 422);
    let bad = bad.text().await.unwrap();
    assert!(
        bad.contains("value=\"Bağdat Cad. 1\""),
        "keeps what was typed"
    );
    // The payer is the investor as verified, whatever was posted (issue 26, item 6), and the
    // IBAN must be declared their own.
    assert!(bad.contains("Ayşe Yılmaz") && !bad.contains("Başka Biri"));
    assert!(
        bad.contains("IBAN&#x27;ın kendi adınıza olduğunu onaylayın")
            || bad.contains("IBAN'ın kendi adınıza olduğunu onaylayın")
    );
    let sent = post_form(
        &browser,
        server.url("/invFlow/bank"),
        &token,
        &with_request(
            vec![
                ("payer_name", "Ayşe Yılmaz".into()),
                ("address", "Bağdat Cad. 1".into()),
                ("country", "Türkiye".into()),
                ("city", "İstanbul".into()),
                ("post_code", "34728".into()),
                ("phone", "0532 123 45 67".into()),
                ("iban", "TR47 0000 1001 0000 0350 9300 01".into()),
                ("iban_own", "on".into()),
            ],
            id,
        ),
    )
    .await;
    assert_eq!(
        sent.headers()["location"],
        format!("/paymentSuccess?request={id}")
    );
    let success = common::text(
        &browser,
        server.url(&format!("/paymentSuccess?request={id}")),
    )
    .await;
    assert!(
        success.contains("Yatırım tutarını havale edin")
            && success.contains("TR47 0000 1001 0000 0350 9300 01")
            && success.contains("400.000 TL")
    );
    let reference: String =
        sqlx::query_scalar("SELECT reference FROM bank_transfers WHERE request_id = ?")
            .bind(id)
            .fetch_one(&db)
            .await
            .unwrap();
    assert!(success.contains(&reference) && reference.starts_with("ORT"));
    // The transfer card: a deadline in Istanbul time, and copy buttons that stay hidden until
    // the page's script shows them (without JavaScript the values are plain text).
    // Istanbul is UTC+3 all year.
    let shown: String = sqlx::query_scalar(
        "SELECT strftime('%d.%m.%Y %H:%M', transfer_due_at, '+3 hours')
         FROM investment_requests WHERE id = ?",
    )
    .bind(id)
    .fetch_one(&db)
    .await
    .unwrap();
    assert!(
        success.contains("Son havale zamanı") && success.contains(&shown),
        "{shown}"
    );
    assert!(success.contains(&format!(
        "data-copy=\"{reference}\" data-copied=\"Kopyalandı\" hidden"
    )));
    assert!(success.contains("data-copy=\"TR"));
    assert!(success.contains("/islands/copy-buttons-"));
    let iban: String =
        sqlx::query_scalar("SELECT payer_iban FROM bank_transfers WHERE request_id = ?")
            .bind(id)
            .fetch_one(&db)
            .await
            .unwrap();
    assert_eq!(
        iban, "TR470000100100000350930001",
        "the refund account, as the bank reads it"
    );
    assert!(
        success.contains("<header class=\"site-header\">") && !success.contains("footer-cta"),
        "a step of the flow: the site header, the slim footer"
    );

    // The clearing bank's statement is imported: a line short of the investment is flagged and
    // records nothing; the exact amount from the investor funds the request.
    let staff = common::journeys::sign_in(
        &server,
        "super@example.com",
        common::journeys::ADMIN_PASSWORD,
    )
    .await;
    let board = common::text(&staff, server.url("/dashboard/takasbank")).await;
    assert!(board.contains(&reference) && board.contains("Bekleniyor"));
    assert_eq!(
        common::money::receive(&server, &staff, id, "390.000").await,
        303
    );
    let received: Option<i64> =
        sqlx::query_scalar("SELECT received_amount_kurus FROM bank_transfers WHERE request_id = ?")
            .bind(id)
            .fetch_one(&db)
            .await
            .unwrap();
    assert_eq!(received, None, "a short line records nothing");
    assert_eq!(
        common::money::receive(&server, &staff, id, "400.000").await,
        303
    );
    let board = common::text(&staff, server.url("/dashboard/takasbank")).await;
    assert!(
        board.contains("<td>Alındı</td><td class=\"cell--fixed\">400.000 TL</td><td class=\"cell--fixed\">20.11.2026</td>")
            && !board.contains("Tutar uyuşmuyor")
    );
    // Each receipt is in the request's history too.
    let notes: Vec<String> = sqlx::query_scalar(
        "SELECT note FROM request_events WHERE request_id = ? AND note LIKE 'transfer received%' ORDER BY id",
    )
    .bind(id)
    .fetch_all(&db)
    .await
    .unwrap();
    assert_eq!(notes.len(), 1, "{notes:?}");
    assert!(
        notes[0].starts_with("transfer received: 400.000 TL on 2026-11-20 (statement TEST line")
    );

    // Someone else cannot see or pay it.
    let stranger = sign_up(&server, "yabanci@example.com").await;
    assert_eq!(
        stranger
            .get(server.url(&format!("/paymentSuccess?request={id}")))
            .send()
            .await
            .unwrap()
            .status(),
        404
    );
    assert_eq!(
        stranger
            .get(server.url(&challenge))
            .send()
            .await
            .unwrap()
            .status(),
        404
    );
}

#[tokio::test]
async fn a_declined_card_and_a_cancelled_challenge_end_at_the_fail_page() {
    let server = start();
    let (browser, id) = approved_request(&server).await;
    let token = csrf(&browser, &server, &format!("/invFlow?request={id}")).await;
    let declined = post_form(
        &browser,
        server.url("/invFlow/card"),
        &token,
        &with_request(card("4000 0000 0000 0002"), id),
    )
    .await;
    assert_eq!(declined.status(), 303);
    let fail_url = declined.headers()["location"].to_str().unwrap().to_owned();
    assert_eq!(
        fail_url,
        format!("/paymentFail?request={id}&reason=declined")
    );
    let fail = common::text(&browser, server.url(&fail_url)).await;
    assert!(
        fail.contains("Kartınız ödeme kuruluşu tarafından reddedildi")
            && fail.contains("Ödeme tamamlanamadı")
    );

    let started = post_form(
        &browser,
        server.url("/invFlow/card"),
        &token,
        &with_request(card("4242424242424242"), id),
    )
    .await;
    let challenge = started.headers()["location"].to_str().unwrap().to_owned();
    let cancelled = post_form(
        &browser,
        server.url(&challenge),
        &token,
        &[("action", "cancel".into())],
    )
    .await;
    let callback = cancelled.headers()["location"].to_str().unwrap().to_owned();
    let back = browser.get(&callback).send().await.unwrap();
    assert_eq!(
        back.headers()["location"],
        format!("/paymentFail?request={id}&reason=three_ds")
    );
    let fail = common::text(&browser, server.url(&format!("/paymentFail?request={id}"))).await;
    assert!(
        fail.contains("Ödeme tamamlanamadı")
            && fail.contains(&format!("href=\"/invFlow?request={id}\""))
    );
    let statuses: Vec<String> = sqlx::query_scalar("SELECT status FROM payments ORDER BY id")
        .fetch_all(&server.db().await)
        .await
        .unwrap();
    assert_eq!(statuses, ["failed", "failed"]);
}
