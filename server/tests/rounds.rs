//! Rounds for real (issue 13): the ledger behind every move, timelines on the pages and in
//! every mail, the waitlist, payment deadlines, the cancellation window, the annual limit,
//! the staff's round page and what staff can no longer type. Closing is in `rounds_close.rs`.

use crate::common;

use common::journeys::{ADMIN_PASSWORD, create_admin, post_form, sign_in};
use common::money::{
    fund, give_transfer, investor, pay_fee, qualified_investor, receive, request_of, send_request,
    set_clock, staff_move, status_of, typed_receipt, wait_for_count,
};
use common::{Server, csrf_of, scalar};
use tempfile::TempDir;

/// A demo server with a superadmin, a clock the test moves and a job tick every second.
fn start(clock: &TempDir) -> Server {
    let data = TempDir::new().unwrap();
    create_admin(&data, "super@example.com", true);
    create_admin(&data, "super2@example.com", true);
    let file = clock.path().join("offset");
    set_clock(&file, 0);
    Server::start_in(
        data,
        &[
            ("ORTAK_DEMO", "1"),
            ("ORTAK_CLOCK_FILE", file.to_str().unwrap()),
            ("ORTAK_JOBS_INTERVAL_SECONDS", "1"),
        ],
    )
}

async fn startup_id(server: &Server, slug: &str) -> i64 {
    scalar(
        server,
        &format!("SELECT id FROM startups WHERE slug = '{slug}'"),
    )
    .await
}

/// The text bodies of the mails queued to `email`, oldest first.
async fn mails_to(server: &Server, email: &str) -> Vec<(String, String)> {
    sqlx::query_as("SELECT subject, text_body FROM outbox WHERE to_email = ? ORDER BY id")
        .bind(email)
        .fetch_all(&server.db().await)
        .await
        .unwrap()
}

async fn ledger(server: &Server, request: i64) -> Vec<(String, i64)> {
    sqlx::query_as("SELECT kind, amount_kurus FROM money_events WHERE request_id = ? ORDER BY id")
        .bind(request)
        .fetch_all(&server.db().await)
        .await
        .unwrap()
}

#[tokio::test]
async fn every_move_of_money_is_in_the_ledger_and_the_timeline_follows_it() {
    let clock = TempDir::new().unwrap();
    let server = start(&clock);
    let staff = sign_in(&server, "super@example.com", ADMIN_PASSWORD).await;
    let email = "defter@example.com";
    let (browser, token) = qualified_investor(&server, email, 1).await;
    let cemre = startup_id(&server, "cemre-enerji").await;
    let raised_before = scalar(
        &server,
        &format!("SELECT raised_kurus FROM startups WHERE id = {cemre}"),
    )
    .await;
    let investors_before = scalar(
        &server,
        &format!("SELECT investor_count FROM startups WHERE id = {cemre}"),
    )
    .await;

    assert_eq!(
        send_request(&server, &browser, &token, "cemre-enerji", "250.000", "l-1")
            .await
            .status(),
        303
    );
    let id = request_of(&server, email).await;
    let pending = common::text(&browser, server.url("/pendingInvestments")).await;
    assert!(pending.contains("Talebiniz adım adım") || pending.contains("timeline__steps"));
    assert!(
        pending.contains("Sıradaki adım: </strong>Ekibimiz talebinizi inceliyor."),
        "{pending}"
    );
    assert!(
        pending.contains("tarihine kadar iptal edebilirsiniz (1 gün 23 saat kaldı)")
            || pending.contains("tarihine kadar iptal edebilirsiniz (2 gün 0 saat kaldı)"),
        "the countdown"
    );
    let (subject, body) = mails_to(&server, email).await.pop().unwrap();
    assert!(subject.contains("yatırım talebiniz alındı"));
    assert!(
        body.contains("Talebiniz adım adım\n→ Gönderildi (")
            && body.contains("· Paylar tahsis edildi"),
        "{body}"
    );

    assert_eq!(
        staff_move(&server, &staff, id, "under_review", "").await,
        303
    );
    assert_eq!(staff_move(&server, &staff, id, "approved", "").await, 303);
    let (_, body) = mails_to(&server, email).await.pop().unwrap();
    assert!(
        body.contains("✓ İncelemeye alındı (")
            && body.contains("→ Onaylandı, hizmet bedeli bekleniyor (")
            && body.contains("Sıradaki adım: Hizmet bedelini ")
            && body.contains("tarihine kadar kartla ödeyin."),
        "{body}"
    );
    assert!(ledger(&server, id).await.is_empty(), "no money has moved");

    pay_fee(&server, &browser, id).await;
    assert_eq!(status_of(&server, id).await, "fee_paid");
    assert_eq!(
        ledger(&server, id).await,
        [("fee_paid".to_owned(), 625_000)]
    );
    let (subject, body) = mails_to(&server, email).await.pop().unwrap();
    assert!(
        subject.contains("hizmet bedeliniz alındı") && body.contains("referansınızla"),
        "{body}"
    );
    let pending = common::text(&browser, server.url("/pendingInvestments")).await;
    assert!(
        pending.contains(&format!("<a href=\"/invFlow?request={id}\" class=\"button button--primary\">Havale bilgileri</a>")),
        "{pending}"
    );

    let reference = give_transfer(&server, &browser, id, "TR47 0000 1001 0000 0350 9300 01").await;
    assert_eq!(
        ledger(&server, id).await[1],
        ("transfer_instructed".to_owned(), 25_000_000)
    );

    // Part of the money, on the bank's statement: not the expected amount, so it is flagged for
    // a person and moves nothing (issue 26, item 5).
    assert_eq!(receive(&server, &staff, id, "200.000").await, 303);
    assert_eq!(status_of(&server, id).await, "fee_paid");
    assert_eq!(ledger(&server, id).await.len(), 2, "nothing recorded");
    let lines = common::text(&staff, server.url("/dashboard/takasbank/statements")).await;
    assert!(
        lines.contains("Beklenen tutar değil")
            && lines.contains("Bir satırın incelenmesi gerekiyor")
    );
    // The bank confirms the 200.000 TL by letter: typed by one superadmin, confirmed by a
    // second, it is recorded; the round page flags the shortfall.
    let second = sign_in(&server, "super2@example.com", ADMIN_PASSWORD).await;
    assert_eq!(
        typed_receipt(&server, (&staff, &second), id, "200.000").await,
        (303, 303)
    );
    assert_eq!(status_of(&server, id).await, "fee_paid");
    let round = common::text(&staff, server.url(&format!("/dashboard/rounds/{cemre}"))).await;
    assert!(
        round.contains("1 havalede tutar uyuşmuyor") && round.contains(&reference),
        "the round page flags it"
    );
    // The rest: funded, and the round's raised amount and investor count follow the ledger.
    assert_eq!(
        typed_receipt(&server, (&second, &staff), id, "50.000").await,
        (303, 303)
    );
    assert_eq!(status_of(&server, id).await, "funded");
    let raised = scalar(
        &server,
        &format!("SELECT raised_kurus FROM startups WHERE id = {cemre}"),
    )
    .await;
    assert_eq!(raised, raised_before + 25_000_000);
    let investors = scalar(
        &server,
        &format!("SELECT investor_count FROM startups WHERE id = {cemre}"),
    )
    .await;
    assert_eq!(investors, investors_before + 1);
    let card = common::text(&browser, server.url("/startups?sector=energy")).await;
    let shown =
        ortak_app::domain::money::Money::from_kurus(raised).format(ortak_app::i18n::Locale::Tr);
    assert!(card.contains(&shown), "the card shows {shown}");
    let (_, body) = mails_to(&server, email).await.pop().unwrap();
    assert!(
        body.contains("→ Havale emanet hesabına ulaştı (")
            && body.contains("Tur ")
            && body.contains("tarihinde kapanır"),
        "{body}"
    );
    // The full amount again, on a statement from the investor: the request is funded already,
    // so it goes straight back.
    assert_eq!(receive(&server, &staff, id, "250.000").await, 303);
    let kinds: Vec<String> = ledger(&server, id)
        .await
        .into_iter()
        .map(|(k, _)| k)
        .collect();
    assert_eq!(
        kinds,
        [
            "fee_paid",
            "transfer_instructed",
            "transfer_received",
            "transfer_received",
            "transfer_received",
            "escrow_refunded"
        ]
    );
    assert_eq!(
        scalar(
            &server,
            &format!("SELECT raised_kurus FROM startups WHERE id = {cemre}")
        )
        .await,
        raised
    );

    // The ledger is append-only; staff actions on money are audited.
    let db = server.db().await;
    assert!(
        sqlx::query("UPDATE money_events SET amount_kurus = 1")
            .execute(&db)
            .await
            .is_err()
    );
    assert!(
        sqlx::query("DELETE FROM money_events")
            .execute(&db)
            .await
            .is_err()
    );
    assert_eq!(
        scalar(
            &server,
            "SELECT COUNT(*) FROM audit_log WHERE action = 'transfer.received'"
        )
        .await,
        3
    );
    assert_eq!(
        scalar(
            &server,
            "SELECT COUNT(*) FROM audit_log WHERE action IN ('statement.import', 'receipt.propose')"
        )
        .await,
        4
    );
    // Staff see the ledger on the request's page.
    let page = common::text(&staff, server.url(&format!("/dashboard/investments/{id}"))).await;
    assert!(
        page.contains("Hizmet bedeli ödendi")
            && page.contains("Emanet iadesi")
            && page.contains(&reference)
    );
}

#[tokio::test]
async fn a_full_round_keeps_a_waitlist_promoted_in_order_passing_over_what_does_not_fit() {
    let clock = TempDir::new().unwrap();
    let server = start(&clock);
    let staff = sign_in(&server, "super@example.com", ADMIN_PASSWORD).await;
    // Bisiklet Ağı: goal 800.000 TL, so 960.000 TL with the 20% margin; the demo holds 600.000.
    let bisiklet = startup_id(&server, "bisiklet-agi").await;
    let held_sql = format!(
        "SELECT SUM(investment_kurus) FROM investment_requests WHERE startup_id = {bisiklet}
         AND status IN ('submitted','under_review','approved','fee_paid','funded','allocated')"
    );
    let held = || scalar(&server, &held_sql);
    assert_eq!(held().await, 60_000_000);

    let (a, ta) = qualified_investor(&server, "a@example.com", 11).await;
    let (b, tb) = qualified_investor(&server, "b@example.com", 12).await;
    let (c, tc) = qualified_investor(&server, "c@example.com", 13).await;
    assert_eq!(
        send_request(&server, &a, &ta, "bisiklet-agi", "300.000", "w-a")
            .await
            .status(),
        303
    );
    assert_eq!(
        status_of(&server, request_of(&server, "a@example.com").await).await,
        "submitted"
    );
    let detail = common::text(&b, server.url("/startups/bisiklet-agi")).await;
    assert!(
        detail.contains("Bu turun kapasitesi doldu"),
        "a full round says so before anyone starts"
    );
    assert_eq!(
        send_request(&server, &b, &tb, "bisiklet-agi", "200.000", "w-b")
            .await
            .status(),
        303
    );
    assert_eq!(
        send_request(&server, &c, &tc, "bisiklet-agi", "100.000", "w-c")
            .await
            .status(),
        303
    );
    let (rb, rc) = (
        request_of(&server, "b@example.com").await,
        request_of(&server, "c@example.com").await,
    );
    assert_eq!(
        (status_of(&server, rb).await, status_of(&server, rc).await),
        ("waitlisted".into(), "waitlisted".into())
    );
    let (subject, _) = mails_to(&server, "b@example.com").await.pop().unwrap();
    assert!(subject.contains("bekleme listesinde"));
    let pending = common::text(&b, server.url("/pendingInvestments")).await;
    assert!(
        pending.contains("Bekleme listesinde")
            && pending.contains("tur kapanana kadar iptal edebilirsiniz")
    );

    // 100.000 TL frees up: C's request fits and gets its place; B, first in line, does not fit
    // and keeps its place. A large request never freezes the line (issue 26).
    let demo: i64 = scalar(
        &server,
        &format!(
        "SELECT id FROM investment_requests WHERE startup_id = {bisiklet} AND status = 'submitted'
         AND idempotency_key LIKE 'demo-%' LIMIT 1"),
    )
    .await;
    assert_eq!(
        staff_move(&server, &staff, demo, "rejected", "Eksik belge").await,
        303
    );
    assert_eq!(
        (status_of(&server, rb).await, status_of(&server, rc).await),
        ("waitlisted".into(), "submitted".into())
    );
    // A withdraws: B gets its place too.
    let ra = request_of(&server, "a@example.com").await;
    let cancelled = post_form(
        &a,
        server.url(&format!("/pendingInvestments/{ra}/cancel")),
        &ta,
        &[],
    )
    .await;
    assert_eq!(cancelled.status(), 303);
    assert_eq!(
        (status_of(&server, rb).await, status_of(&server, rc).await),
        ("submitted".into(), "submitted".into())
    );
    let promoted: Vec<i64> = sqlx::query_scalar(
        "SELECT request_id FROM request_events WHERE note LIKE 'room freed up%' ORDER BY id",
    )
    .fetch_all(&server.db().await)
    .await
    .unwrap();
    assert_eq!(promoted, [rc, rb]);
    let (subject, body) = mails_to(&server, "c@example.com").await.pop().unwrap();
    assert!(
        subject.contains("turda yer açıldı") && body.contains("✓ Bekleme listesine alındı"),
        "{body}"
    );
    assert_eq!(
        held().await,
        60_000_000 - 10_000_000 + 20_000_000 + 10_000_000
    );
    // A waitlisted request may leave the line at any time.
    let (d, td) = qualified_investor(&server, "d@example.com", 14).await;
    assert_eq!(
        send_request(&server, &d, &td, "bisiklet-agi", "400.000", "w-d")
            .await
            .status(),
        303
    );
    let rd = request_of(&server, "d@example.com").await;
    assert_eq!(status_of(&server, rd).await, "waitlisted");
    set_clock(&clock.path().join("offset"), 3 * 86_400);
    let left = post_form(
        &d,
        server.url(&format!("/pendingInvestments/{rd}/cancel")),
        &td,
        &[],
    )
    .await;
    assert_eq!(left.status(), 303);
    assert_eq!(status_of(&server, rd).await, "cancelled");
}

#[tokio::test]
async fn payment_deadlines_remind_once_then_lapse_the_request() {
    let clock = TempDir::new().unwrap();
    let file = clock.path().join("offset");
    let server = start(&clock);
    let staff = sign_in(&server, "super@example.com", ADMIN_PASSWORD).await;
    let (fee_late, t1) = qualified_investor(&server, "gec@example.com", 21).await;
    let (transfer_late, t2) = qualified_investor(&server, "havale@example.com", 22).await;
    send_request(&server, &fee_late, &t1, "cemre-enerji", "100.000", "d-1").await;
    send_request(
        &server,
        &transfer_late,
        &t2,
        "cemre-enerji",
        "100.000",
        "d-2",
    )
    .await;
    let (r1, r2) = (
        request_of(&server, "gec@example.com").await,
        request_of(&server, "havale@example.com").await,
    );
    assert_eq!(staff_move(&server, &staff, r1, "approved", "").await, 303);
    assert_eq!(staff_move(&server, &staff, r2, "approved", "").await, 303);
    pay_fee(&server, &transfer_late, r2).await;
    give_transfer(&server, &transfer_late, r2, "TR470000100100000350930001").await;

    let reminders = |email: &'static str| {
        let server = &server;
        async move {
            scalar(server, &format!(
                "SELECT COUNT(*) FROM outbox WHERE to_email = '{email}' AND subject LIKE '%süreniz dolmak üzere%'")).await
        }
    };
    // The fee is due 72 hours after approval: a reminder in its last 24 hours, once.
    set_clock(&file, 49 * 3600);
    assert_eq!(wait_for_count(&server, "SELECT COUNT(*) FROM request_notices WHERE kind = 'fee-reminder' AND request_id IN (SELECT id FROM investment_requests WHERE idempotency_key = 'd-1')", 1).await, 1);
    server.run_jobs().await;
    server.run_jobs().await;
    assert_eq!(
        reminders("gec@example.com").await,
        1,
        "one reminder, however many ticks"
    );
    assert_eq!(
        reminders("havale@example.com").await,
        0,
        "the transfer is due later"
    );
    let (_, body) = mails_to(&server, "gec@example.com").await.pop().unwrap();
    assert!(body.contains("Sıradaki adım: Hizmet bedelini"), "{body}");
    // Past it: lapsed, with a notice.
    set_clock(&file, 73 * 3600);
    assert_eq!(
        wait_for_count(
            &server,
            &format!(
                "SELECT COUNT(*) FROM investment_requests WHERE id = {r1} AND status = 'lapsed'"
            ),
            1
        )
        .await,
        1
    );
    let (subject, body) = mails_to(&server, "gec@example.com").await.pop().unwrap();
    assert!(
        subject.contains("süresi doldu") && body.contains("→ Süresi doldu ("),
        "{body}"
    );
    let pay = fee_late
        .get(server.url(&format!("/invFlow?request={r1}")))
        .send()
        .await
        .unwrap();
    assert_eq!(pay.status(), 409, "a lapsed request cannot be paid");
    // The transfer is due 120 hours after the fee: reminded, then lapsed; the fee is owed back.
    set_clock(&file, 100 * 3600);
    assert_eq!(wait_for_count(&server, &format!("SELECT COUNT(*) FROM request_notices WHERE request_id = {r2} AND kind = 'transfer-reminder'"), 1).await, 1);
    set_clock(&file, 121 * 3600);
    assert_eq!(
        wait_for_count(
            &server,
            &format!(
                "SELECT COUNT(*) FROM investment_requests WHERE id = {r2} AND status = 'lapsed'"
            ),
            1
        )
        .await,
        1
    );
    // The fee is owed back: the payments job refunds it to the card (the sandbox provider),
    // once, and the timeline shows the refund done.
    let refunded = wait_for_count(
        &server,
        &format!(
            "SELECT COUNT(*) FROM money_events WHERE request_id = {r2} AND kind = 'fee_refunded'"
        ),
        1,
    )
    .await;
    assert_eq!(refunded, 1, "the fee went back to the card");
    let pending = common::text(&transfer_late, server.url("/pendingInvestments")).await;
    assert!(
        pending.contains("Hizmet bedelinin kartınıza iadesi")
            && !pending.contains("Hizmet bedeli kartınıza iade ediliyor."),
        "the timeline shows the refund done"
    );
    assert_eq!(reminders("havale@example.com").await, 1);
}

#[tokio::test]
async fn the_cancellation_window_counts_down_and_withdrawing_refunds_what_was_paid() {
    let clock = TempDir::new().unwrap();
    let file = clock.path().join("offset");
    let server = start(&clock);
    let staff = sign_in(&server, "super@example.com", ADMIN_PASSWORD).await;
    let (browser, token) = qualified_investor(&server, "iptal@example.com", 31).await;
    send_request(&server, &browser, &token, "kalkan-siber", "300.000", "c-1").await;
    let paid = request_of(&server, "iptal@example.com").await;
    fund(&server, &browser, &staff, paid, "300.000").await;
    set_clock(&file, 20 * 3600);
    let pending = common::text(&browser, server.url("/pendingInvestments")).await;
    assert!(
        pending.contains("(1 gün 3 saat kaldı)") || pending.contains("(1 gün 4 saat kaldı)"),
        "{pending}"
    );
    // Inside the window, after paying: the money goes back (the escrow refund is on the
    // clearing bank's list; the card fee is owed back).
    let cancelled = post_form(
        &browser,
        server.url(&format!("/pendingInvestments/{paid}/cancel")),
        &token,
        &[],
    )
    .await;
    assert_eq!(cancelled.status(), 303);
    assert_eq!(status_of(&server, paid).await, "cancelled");
    assert_eq!(
        ledger(&server, paid).await.last().unwrap(),
        &("escrow_refunded".to_owned(), 30_000_000)
    );
    let (subject, body) = mails_to(&server, "iptal@example.com").await.pop().unwrap();
    assert!(
        subject.contains("iptal edildi") && body.contains("· Hizmet bedelinin kartınıza iadesi"),
        "{body}"
    );
    let kalkan = startup_id(&server, "kalkan-siber").await;
    let csv = staff
        .get(server.url(&format!("/dashboard/rounds/{kalkan}/refunds.csv")))
        .send()
        .await
        .unwrap();
    assert_eq!(csv.status(), 200);
    let csv = csv.text().await.unwrap();
    assert!(
        csv.contains("\"TR470000100100000350930001\",\"Ayşe Yılmaz\",\"300000.00\",\"ORT"),
        "{csv}"
    );

    // Outside the window: no button, and the POST is refused.
    send_request(&server, &browser, &token, "kalkan-siber", "100.000", "c-2").await;
    let late = request_of(&server, "iptal@example.com").await;
    set_clock(&file, 20 * 3600 + 49 * 3600);
    let pending = common::text(&browser, server.url("/pendingInvestments")).await;
    assert!(!pending.contains(&format!("/pendingInvestments/{late}/cancel")));
    let refused = post_form(
        &browser,
        server.url(&format!("/pendingInvestments/{late}/cancel")),
        &token,
        &[],
    )
    .await;
    assert_eq!(refused.status(), 409);
    assert!(
        refused
            .text()
            .await
            .unwrap()
            .contains("artık iptal edilemez")
    );
    assert_eq!(status_of(&server, late).await, "submitted");
}

#[tokio::test]
async fn the_annual_limit_is_shown_before_starting_and_enforced() {
    let clock = TempDir::new().unwrap();
    let server = start(&clock);
    // A tenth of 750.000 TL is 75.000 TL: below the minimum investment, said up front.
    let (low, low_token) = investor(&server, "az@example.com", 41, "750.000").await;
    let page = common::text(&low, server.url("/investmentFlow?startup=cemre-enerji")).await;
    assert!(
        page.contains("kalan yatırım sınırınız 75.000 TL")
            && page.contains("href=\"/qualifiedInvestor\""),
        "{page}"
    );
    assert!(
        !page.contains("data-island=\"investment\""),
        "no form to fill in vain"
    );
    let refused = send_request(
        &server,
        &low,
        &low_token,
        "cemre-enerji",
        "100.000",
        "lim-0",
    )
    .await;
    assert_eq!(refused.status(), 409);

    // 10% of 1.500.000 TL: 150.000 TL this year, shown on the amount page.
    let (mid, token) = investor(&server, "orta@example.com", 42, "1.500.000").await;
    let page = common::text(&mid, server.url("/investmentFlow?startup=cemre-enerji")).await;
    assert!(
        page.contains("bu yıl en fazla 150.000 TL yatırım yapabilirsiniz")
            && page.contains("Kalan: 150.000 TL"),
        "{page}"
    );
    assert_eq!(
        send_request(&server, &mid, &token, "cemre-enerji", "100.000", "lim-1")
            .await
            .status(),
        303
    );
    let over = send_request(&server, &mid, &token, "kalkan-siber", "100.000", "lim-2").await;
    assert_eq!(over.status(), 409, "50.000 TL left: below the minimum now");
    let api = mid
        .post(server.url("/api/investmentRequests"))
        .header("x-csrf-token", &token)
        .json(&serde_json::json!({ "startup": "kalkan-siber", "amount": "100.000", "feeAdded": true, "risk": true, "idempotencyKey": "lim-3" }))
        .send().await.unwrap();
    assert_eq!(api.status(), 409);
    assert!(
        api.text()
            .await
            .unwrap()
            .contains("nitelikli yatırımcı beyanınız doğrulanabilir")
    );

    // A higher income: over what remains is refused with a clear message, not silently cut.
    let (high, high_token) = investor(&server, "yuksek@example.com", 43, "5.000.000").await;
    let refused = send_request(
        &server,
        &high,
        &high_token,
        "cemre-enerji",
        "250.000",
        "lim-4",
    )
    .await;
    assert_eq!(refused.status(), 422);
    let html = refused.text().await.unwrap();
    assert!(
        html.contains("yatırım sınırınızın kalanını aşıyor")
            && html.contains("href=\"/qualifiedInvestor\""),
        "{html}"
    );
    assert_eq!(
        send_request(
            &server,
            &high,
            &high_token,
            "cemre-enerji",
            "200.000",
            "lim-5"
        )
        .await
        .status(),
        303
    );
    // Once the qualified-investor declaration is verified, there is no cap.
    common::money::make_qualified(&server, "yuksek@example.com").await;
    let page = common::text(&high, server.url("/investmentFlow?startup=kalkan-siber")).await;
    assert!(!page.contains("Yıllık yatırım sınırınız"));
    assert_eq!(
        send_request(
            &server,
            &high,
            &high_token,
            "kalkan-siber",
            "1.000.000",
            "lim-6"
        )
        .await
        .status(),
        303
    );
    // Withdrawn and lapsed requests no longer count against the limit.
    let mid_request = request_of(&server, "orta@example.com").await;
    let withdrawn = post_form(
        &mid,
        server.url(&format!("/pendingInvestments/{mid_request}/cancel")),
        &token,
        &[],
    )
    .await;
    assert_eq!(withdrawn.status(), 303);
    let page = common::text(&mid, server.url("/investmentFlow?startup=kalkan-siber")).await;
    assert!(page.contains("Kalan: 150.000 TL"));
}

#[tokio::test]
async fn staff_see_each_round_and_record_figures_beside_the_ledger_but_never_the_raised_amount() {
    let clock = TempDir::new().unwrap();
    let server = start(&clock);
    let staff = sign_in(&server, "super@example.com", ADMIN_PASSWORD).await;
    let list = common::text(&staff, server.url("/dashboard/rounds")).await;
    assert!(
        list.contains("Aile Hekimim")
            && list.contains("Ünlü Tarifler")
            && list.contains("Başarısız")
    );
    let aile = startup_id(&server, "aile-hekimim").await;
    let page = common::text(&staff, server.url(&format!("/dashboard/rounds/{aile}"))).await;
    for fact in [
        "2.400.000 TL",        // goal
        "2.880.000 TL",        // capacity with the margin
        "1.680.000 TL",        // received in escrow
        "2 talep, 300.000 TL", // the waitlist
        "Turu erken bitirme seçenekleri",
        "Takasbank iade listesini indir",
    ] {
        assert!(page.contains(fact), "{fact}");
    }

    // The lead fund's commitment and outside amounts are labelled figures, not raised money.
    let raised_before = scalar(
        &server,
        &format!("SELECT raised_kurus FROM startups WHERE id = {aile}"),
    )
    .await;
    let token = csrf_of(&page);
    let saved = post_form(
        &staff,
        server.url(&format!("/dashboard/rounds/{aile}/figures")),
        &token,
        &[
            ("lead_commitment", "500.000".into()),
            ("outside_raised", "250.000".into()),
            ("outside_note", "Melek yatırımcılar, Eylül 2026".into()),
            ("round_valuation", "20.000.000".into()),
        ],
    )
    .await;
    assert_eq!(saved.status(), 303);
    let bad = post_form(
        &staff,
        server.url(&format!("/dashboard/rounds/{aile}/figures")),
        &token,
        &[("lead_commitment", "çok".into())],
    )
    .await;
    assert_eq!(bad.status(), 422);
    assert_eq!(
        scalar(
            &server,
            &format!("SELECT raised_kurus FROM startups WHERE id = {aile}")
        )
        .await,
        raised_before
    );
    let investor = common::journeys::sign_up(&server, "okur@example.com").await;
    let detail = common::text(&investor, server.url("/startups/aile-hekimim")).await;
    assert!(
        detail.contains("Öncü fonun taahhüdü</dt><dd>500.000 TL")
            && detail.contains(
                "Platform dışında toplanan</dt><dd>250.000 TL (Melek yatırımcılar, Eylül 2026)"
            )
            && detail.contains("<span class=\"invest-card__amount\">1.680.000 TL</span>")
            && detail.contains("<dd>%70</dd>"),
        "{detail}"
    );
    // A percentage is written as the page's language writes it.
    let detail = common::text(&investor, server.url("/startups/aile-hekimim?lang=en")).await;
    assert!(
        detail.contains("1,680,000 TL") && detail.contains("<dd>70%</dd>"),
        "{detail}"
    );
    assert!(
        scalar(
            &server,
            "SELECT COUNT(*) FROM audit_log WHERE action = 'round.figures'"
        )
        .await
            == 1
    );

    // The startup editor has no raised amount or funded switch; posting them changes nothing.
    let editor = common::text(&staff, server.url(&format!("/dashboard/startups/{aile}"))).await;
    assert!(!editor.contains("name=\"funded\"") && !editor.contains("name=\"raised"));
    // Only superadmins close a round early.
    let close = post_form(
        &investor,
        server.url(&format!("/dashboard/rounds/{aile}/close")),
        &token,
        &[],
    )
    .await;
    assert_eq!(close.status(), 403);
}
