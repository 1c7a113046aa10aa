//! Attacks on the money path and the MKK data (issue 12, items 3 and 5), performed against the
//! real server. Each failed before the fix: an investor cancelled after paying (leaving money
//! with no refund path), staff marked a request "paid" with nothing paid, a rejected MKK
//! profile came back by re-posting it, one TCKN sat on two accounts, and an unverified address
//! sent MKK data and investment requests.

use crate::common;

use common::journeys::{ADMIN_PASSWORD, create_admin, csrf, post_form, sign_in, sign_up};
use common::money::{
    fund, give_transfer, investor, make_qualified, mkk, pay_fee, qualified_investor, request_of,
    send_request, staff_move, status_of, tckn, verify_email,
};
use common::{Server, scalar};
use tempfile::TempDir;

fn start() -> Server {
    let data = TempDir::new().unwrap();
    create_admin(&data, "super@example.com", true);
    create_admin(&data, "admin@example.com", false);
    Server::start_in(data, &[("ORTAK_DEMO", "1")])
}

/// Money that moved for `request`: fee paid, received in escrow, and what went back.
async fn money(server: &Server, request: i64) -> (i64, i64, i64) {
    sqlx::query_as(
        "SELECT COALESCE(SUM(CASE WHEN kind = 'fee_paid' THEN amount_kurus END), 0),
                COALESCE(SUM(CASE WHEN kind = 'transfer_received' THEN amount_kurus END), 0),
                COALESCE(SUM(CASE WHEN kind = 'escrow_refunded' THEN amount_kurus END), 0)
         FROM money_events WHERE request_id = ?",
    )
    .bind(request)
    .fetch_one(&server.db().await)
    .await
    .unwrap()
}

#[tokio::test]
async fn cancelling_after_paying_refunds_and_outside_the_window_is_refused() {
    let clock = TempDir::new().unwrap();
    let file = clock.path().join("offset");
    common::money::set_clock(&file, 0);
    let data = TempDir::new().unwrap();
    create_admin(&data, "super@example.com", true);
    let server = Server::start_in(
        data,
        &[
            ("ORTAK_DEMO", "1"),
            ("ORTAK_CLOCK_FILE", file.to_str().unwrap()),
        ],
    );
    let staff = sign_in(&server, "super@example.com", ADMIN_PASSWORD).await;
    let (browser, token) = qualified_investor(&server, "kacak@example.com", 71).await;

    // The fee paid, then cancelled: before the fix the request simply became "cancelled" with
    // the fee kept and nothing to refund it. Now the fee is owed back (cancelled owes it) and
    // the history says so.
    send_request(&server, &browser, &token, "cemre-enerji", "150.000", "k-1").await;
    let fee_only = request_of(&server, "kacak@example.com").await;
    assert_eq!(
        staff_move(&server, &staff, fee_only, "approved", "").await,
        303
    );
    pay_fee(&server, &browser, fee_only).await;
    assert_eq!(status_of(&server, fee_only).await, "fee_paid");
    let cancel = |id: i64| {
        let (browser, server, token) = (&browser, &server, &token);
        async move {
            post_form(
                browser,
                server.url(&format!("/pendingInvestments/{id}/cancel")),
                token,
                &[],
            )
            .await
            .status()
            .as_u16()
        }
    };
    assert_eq!(cancel(fee_only).await, 303);
    assert_eq!(status_of(&server, fee_only).await, "cancelled");
    assert_eq!(
        money(&server, fee_only).await,
        (375_000, 0, 0),
        "the fee is in the ledger"
    );
    let pending = common::text(&browser, server.url("/pendingInvestments")).await;
    assert!(pending.contains("Hizmet bedeli kartınıza iade ediliyor."));

    // In escrow, then cancelled: the escrowed amount goes on the clearing bank's refund list.
    send_request(&server, &browser, &token, "cemre-enerji", "200.000", "k-2").await;
    let escrowed = request_of(&server, "kacak@example.com").await;
    fund(&server, &browser, &staff, escrowed, "200.000").await;
    assert_eq!(cancel(escrowed).await, 303);
    assert_eq!(
        money(&server, escrowed).await,
        (500_000, 20_000_000, 20_000_000)
    );
    let refunds = scalar(&server, &format!(
        "SELECT COUNT(*) FROM money_events WHERE request_id = {escrowed} AND kind = 'escrow_refunded'")).await;
    assert_eq!(refunds, 1);

    // After the cancellation window, money that moved stays where it is: refused, unchanged.
    send_request(&server, &browser, &token, "cemre-enerji", "100.000", "k-3").await;
    let late = request_of(&server, "kacak@example.com").await;
    fund(&server, &browser, &staff, late, "100.000").await;
    common::money::set_clock(&file, 49 * 3600);
    assert_eq!(cancel(late).await, 409);
    assert_eq!(status_of(&server, late).await, "funded");
    assert_eq!(money(&server, late).await, (250_000, 10_000_000, 0));

    // Nothing the database holds can end a request with money still in escrow.
    let db = server.db().await;
    let sneaky = sqlx::query("UPDATE investment_requests SET status = 'cancelled' WHERE id = ?")
        .bind(late)
        .execute(&db)
        .await;
    assert!(
        sneaky
            .unwrap_err()
            .to_string()
            .contains("cannot keep money in escrow")
    );
}

#[tokio::test]
async fn staff_cannot_mark_a_request_paid_with_nothing_paid() {
    let server = start();
    let staff = sign_in(&server, "super@example.com", ADMIN_PASSWORD).await;
    let (browser, token) = qualified_investor(&server, "bedava@example.com", 72).await;
    send_request(&server, &browser, &token, "cemre-enerji", "150.000", "p-1").await;
    let id = request_of(&server, "bedava@example.com").await;
    assert_eq!(staff_move(&server, &staff, id, "approved", "").await, 303);
    // Before the fix, "paid" (and then "completed") were staff buttons.
    for to in [
        "paid",
        "completed",
        "fee_paid",
        "funded",
        "allocated",
        "refunded",
    ] {
        assert_eq!(staff_move(&server, &staff, id, to, "").await, 400, "{to}");
    }
    assert_eq!(status_of(&server, id).await, "approved");
    let page = common::text(&staff, server.url(&format!("/dashboard/investments/{id}"))).await;
    assert!(
        !page.contains("value=\"paid\"") && !page.contains("value=\"funded\""),
        "no such button"
    );
    // Whatever writes to the database: the state follows the ledger, or nothing changes.
    let db = server.db().await;
    for (to, refusal) in [
        ("fee_paid", "fee_paid needs the fee in the ledger"),
        ("funded", "illegal request status move"),
        ("allocated", "illegal request status move"),
    ] {
        let error = sqlx::query("UPDATE investment_requests SET status = ?, fee_paid_at = '2026-01-01T00:00:00Z' WHERE id = ?")
            .bind(to)
            .bind(id)
            .execute(&db)
            .await
            .unwrap_err();
        assert!(error.to_string().contains(refusal), "{to}: {error}");
    }
    // A fee paid but no transfer: still not funded, however the row is touched.
    pay_fee(&server, &browser, id).await;
    give_transfer(&server, &browser, id, "TR470000100100000350930001").await;
    let error = sqlx::query("UPDATE investment_requests SET status = 'funded' WHERE id = ?")
        .bind(id)
        .execute(&db)
        .await
        .unwrap_err();
    assert!(
        error
            .to_string()
            .contains("funded needs the investment received in escrow")
    );
    let inserted = sqlx::query(
        "INSERT INTO investment_requests (user_id, startup_id, kind, amount_kurus, fee_kurus, fee_added,
             investment_kurus, total_kurus, status, risk_accepted_at, idempotency_key, cancel_until, information_form_id)
         VALUES (1, 1, 'investment', 10000000, 250000, 1, 10000000, 10250000, 'allocated', '2026-01-01', 'x', '2026-01-01',
                 (SELECT MAX(id) FROM round_documents WHERE startup_id = 1 AND kind = 'information-form'))",
    )
    .execute(&db)
    .await;
    assert!(
        inserted
            .unwrap_err()
            .to_string()
            .contains("starts submitted or waitlisted")
    );
    assert_eq!(status_of(&server, id).await, "fee_paid");
    // Nor can an admin record receipts at all (superadmins' business, issue 26), and a
    // statement line for less than the request owes is flagged, never funds it.
    let admin = sign_in(&server, "admin@example.com", ADMIN_PASSWORD).await;
    assert_eq!(common::money::receive(&server, &admin, id, "1").await, 403);
    let superadmin = sign_in(&server, "super@example.com", ADMIN_PASSWORD).await;
    assert_eq!(
        common::money::receive(&server, &superadmin, id, "1").await,
        303
    );
    assert_eq!(
        status_of(&server, id).await,
        "fee_paid",
        "short: flagged, not funded"
    );
}

#[tokio::test]
async fn a_rejected_mkk_profile_stays_rejected_until_corrected_and_verified() {
    let server = start();
    let email = "ret@example.com";
    let (browser, token) = investor(&server, email, 73, "1.500.000").await;
    let user = scalar(
        &server,
        &format!("SELECT id FROM users WHERE email = '{email}'"),
    )
    .await;
    let admin = sign_in(&server, "admin@example.com", ADMIN_PASSWORD).await;
    let review_token = csrf(&admin, &server, "/dashboard/users").await;
    let review = |decision: &'static str| {
        let (admin, server, token) = (&admin, &server, &review_token);
        async move {
            post_form(
                admin,
                server.url(&format!("/dashboard/users/{user}/mkk")),
                token,
                &[
                    ("decision", decision.into()),
                    ("note", "Kimlik belgesiyle uyuşmuyor".into()),
                ],
            )
            .await
            .status()
            .as_u16()
        }
    };
    assert_eq!(review("rejected").await, 303);
    let blocked = common::text(&browser, server.url("/investmentFlow?startup=cemre-enerji")).await;
    assert!(blocked.contains("MKK bilgileriniz reddedildi"));

    // The attack: post the very same data again. Before the fix it went back to "submitted"
    // and investing worked again.
    let same = mkk(email, &tckn(73), "1.500.000");
    let again = post_form(&browser, server.url("/mkk"), &token, &same).await;
    assert_eq!(again.status(), 409);
    assert!(
        again
            .text()
            .await
            .unwrap()
            .contains("değiştirmeden yeniden gönderdiniz")
    );
    let status: String = sqlx::query_scalar("SELECT status FROM mkk_profiles WHERE user_id = ?")
        .bind(user)
        .fetch_one(&server.db().await)
        .await
        .unwrap();
    assert_eq!(status, "rejected");
    assert_eq!(
        send_request(&server, &browser, &token, "cemre-enerji", "100.000", "m-1")
            .await
            .status(),
        409
    );

    // Corrected data goes back to review, and investing waits until staff verify it.
    let mut corrected = same.clone();
    corrected.retain(|(k, _)| *k != "phone");
    corrected.push(("phone", "0533 987 65 43".into()));
    assert_eq!(
        post_form(&browser, server.url("/mkk"), &token, &corrected)
            .await
            .status(),
        303
    );
    let page = common::text(&browser, server.url("/mkk")).await;
    assert!(page.contains("Düzeltildi, ekibimiz yeniden inceliyor"));
    let waiting = common::text(&browser, server.url("/investmentFlow?startup=cemre-enerji")).await;
    assert!(
        waiting.contains("yeniden incelenmektedir"),
        "still blocked while under review"
    );
    assert_eq!(
        send_request(&server, &browser, &token, "cemre-enerji", "100.000", "m-2")
            .await
            .status(),
        409
    );
    assert_eq!(review("verified").await, 303);
    assert_eq!(
        send_request(&server, &browser, &token, "cemre-enerji", "100.000", "m-3")
            .await
            .status(),
        303
    );
}

#[tokio::test]
async fn one_identity_number_belongs_to_one_account() {
    let server = start();
    investor(&server, "asil@example.com", 74, "1.500.000").await;
    let copycat = sign_up(&server, "kopya@example.com").await;
    verify_email(&server, "kopya@example.com").await;
    let token = csrf(&copycat, &server, "/mkk").await;
    let taken = post_form(
        &copycat,
        server.url("/mkk"),
        &token,
        &mkk("kopya@example.com", &tckn(74), "1.500.000"),
    )
    .await;
    assert_eq!(taken.status(), 409);
    assert!(
        taken
            .text()
            .await
            .unwrap()
            .contains("Bu kimlik numarası başka bir hesapta kayıtlı")
    );
    let holders = scalar(
        &server,
        &format!(
            "SELECT COUNT(*) FROM mkk_profiles WHERE identity_number = '{}'",
            tckn(74)
        ),
    )
    .await;
    assert_eq!(holders, 1);
    // The same person's own account may send it again (a correction, say).
    let owner = sign_in(&server, "asil@example.com", "gizli-sifre-123").await;
    let owner_token = csrf(&owner, &server, "/mkk").await;
    let mut again = mkk("asil@example.com", &tckn(74), "1.500.000");
    again.retain(|(k, _)| *k != "phone");
    again.push(("phone", "0533 111 22 33".into()));
    assert_eq!(
        post_form(&owner, server.url("/mkk"), &owner_token, &again)
            .await
            .status(),
        303
    );
    // A different number is fine for the second account.
    let other = post_form(
        &copycat,
        server.url("/mkk"),
        &token,
        &mkk("kopya@example.com", &tckn(75), "1.500.000"),
    )
    .await;
    assert_eq!(other.status(), 303);
}

#[tokio::test]
async fn an_unverified_address_cannot_send_mkk_data_or_requests() {
    let server = start();
    let email = "dogrulanmamis@example.com";
    let browser = sign_up(&server, email).await;
    let token = csrf(&browser, &server, "/").await;
    // Before the fix both went through.
    let sent = post_form(
        &browser,
        server.url("/mkk"),
        &token,
        &mkk(email, &tckn(76), "1.500.000"),
    )
    .await;
    assert_eq!(sent.status(), 403);
    let page = sent.text().await.unwrap();
    assert!(
        page.contains("href=\"/verification\"")
            && page.contains("e-posta adresinizi doğrulamanız gerekir")
    );
    assert_eq!(
        scalar(
            &server,
            "SELECT COUNT(*) FROM mkk_profiles WHERE email NOT LIKE '%@demo.ortak.local'"
        )
        .await,
        0
    );
    // Even with MKK data already on file (sent before the address changed, say).
    sqlx::query("INSERT INTO mkk_profiles (user_id, investor_type, turkish_citizen, id_type, first_name, last_name, email, phone,
                     annual_income_kurus, identity_number, birth_date, status)
                 SELECT id, 'individual', 1, 'tckn', 'A', 'B', email, '+905321234567', 150000000, ?, '1980-01-01', 'verified'
                 FROM users WHERE email = ?")
        .bind(tckn(76)).bind(email).execute(&server.db().await).await.unwrap();
    make_qualified(&server, email).await;
    let form = send_request(&server, &browser, &token, "cemre-enerji", "100.000", "u-1").await;
    assert_eq!(form.status(), 403);
    let api = browser
        .post(server.url("/api/investmentRequests"))
        .header("x-csrf-token", &token)
        .json(&serde_json::json!({ "startup": "cemre-enerji", "amount": "100.000", "feeAdded": true, "risk": true, "idempotencyKey": "u-2" }))
        .send()
        .await
        .unwrap();
    assert_eq!(api.status(), 403);
    let body: serde_json::Value = api.json().await.unwrap();
    assert!(
        body["message"]
            .as_str()
            .unwrap()
            .contains("doğrulamanız gerekir")
    );
    let flow = common::text(&browser, server.url("/investmentFlow?startup=cemre-enerji")).await;
    assert!(
        flow.contains("href=\"/verification\""),
        "a clear page pointing to /verification"
    );
    assert_eq!(
        scalar(
            &server,
            "SELECT COUNT(*) FROM investment_requests WHERE idempotency_key LIKE 'u-%'"
        )
        .await,
        0
    );
    // Verified, the same request goes through.
    verify_email(&server, email).await;
    assert_eq!(
        send_request(&server, &browser, &token, "cemre-enerji", "100.000", "u-3")
            .await
            .status(),
        303
    );
}
