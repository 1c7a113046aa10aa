//! Closing rounds (issue 13): at the end of the period by the background job, or early by a
//! superadmin; success allocates amounts and shares and marks the startup funded, failure
//! refunds; everyone is mailed; a close killed with SIGKILL finishes exactly once after a
//! restart; and the demo shows rounds in every state.

use crate::common;

use common::journeys::{ADMIN_PASSWORD, create_admin, csrf, post_form, sign_in};
use common::money::{
    fund, qualified_investor, request_of, send_request, set_clock, status_of, wait_for_count,
};
use common::{Server, scalar};
use tempfile::TempDir;

fn env(clock: &str) -> Vec<(&'static str, &str)> {
    vec![
        ("ORTAK_DEMO", "1"),
        ("ORTAK_CLOCK_FILE", clock),
        ("ORTAK_JOBS_INTERVAL_SECONDS", "1"),
    ]
}

fn start(clock: &TempDir) -> Server {
    let data = TempDir::new().unwrap();
    create_admin(&data, "super@example.com", true);
    let file = clock.path().join("offset");
    set_clock(&file, 0);
    Server::start_in(data, &env(file.to_str().unwrap()))
}

async fn text(server: &Server, sql: &str) -> String {
    sqlx::query_scalar(sql)
        .fetch_one(&server.db().await)
        .await
        .unwrap()
}

#[tokio::test]
async fn a_round_that_reached_its_goal_closes_at_its_end_and_allocates() {
    let clock = TempDir::new().unwrap();
    let server = start(&clock);
    let staff = sign_in(&server, "super@example.com", ADMIN_PASSWORD).await;
    // Ödeme Köprüsü ends in two days, with 3.400.000 TL of its 4.000.000 TL in escrow.
    let id = scalar(
        &server,
        "SELECT id FROM startups WHERE slug = 'odeme-koprusu'",
    )
    .await;
    let catalogue = common::text(&staff, server.url("/startups?sector=fintech")).await;
    assert!(
        catalogue.contains("Kapanmak üzere"),
        "closing soon on its card"
    );
    let (a, ta) = qualified_investor(&server, "ilk@example.com", 51).await;
    let (b, tb) = qualified_investor(&server, "ikinci@example.com", 52).await;
    send_request(&server, &a, &ta, "odeme-koprusu", "300.000", "s-a").await;
    send_request(&server, &b, &tb, "odeme-koprusu", "300.000", "s-b").await;
    let (ra, rb) = (
        request_of(&server, "ilk@example.com").await,
        request_of(&server, "ikinci@example.com").await,
    );
    fund(&server, &a, &staff, ra, "300.000").await;
    fund(&server, &b, &staff, rb, "300.000").await;
    let open_before: i64 = scalar(&server, &format!(
        "SELECT COUNT(*) FROM investment_requests WHERE startup_id = {id} AND status IN ('waitlisted','submitted','under_review','approved','fee_paid')")).await;

    set_clock(&clock.path().join("offset"), 3 * 86_400);
    let closed = wait_for_count(
        &server,
        &format!("SELECT COUNT(*) FROM startups WHERE id = {id} AND round_status = 'funded'"),
        1,
    )
    .await;
    assert_eq!(closed, 1, "the job closed it at the end of its period");
    assert_eq!(
        scalar(
            &server,
            &format!("SELECT funded FROM startups WHERE id = {id}")
        )
        .await,
        1
    );
    assert_eq!(
        (status_of(&server, ra).await, status_of(&server, rb).await),
        ("allocated".into(), "allocated".into())
    );
    // Shares of the 4.000.000 TL received: 300.000 TL is 7,5%.
    assert_eq!(
        scalar(
            &server,
            &format!("SELECT share_ppm FROM investment_requests WHERE id = {ra}")
        )
        .await,
        75_000
    );
    let allocated = scalar(&server, &format!("SELECT SUM(m.amount_kurus) FROM money_events m JOIN investment_requests r ON r.id = m.request_id WHERE r.startup_id = {id} AND m.kind = 'allocated'")).await;
    assert_eq!(allocated, 400_000_000);
    // Requests that had not reached escrow lapsed; everyone with a request was mailed.
    assert_eq!(scalar(&server, &format!(
        "SELECT COUNT(*) FROM investment_requests WHERE startup_id = {id} AND status IN ('waitlisted','submitted','under_review','approved','fee_paid','funded')")).await, 0);
    assert!(open_before > 0);
    let unmailed = scalar(&server, &format!(
        "SELECT COUNT(*) FROM investment_requests r JOIN users u ON u.id = r.user_id WHERE r.startup_id = {id}
         AND NOT EXISTS (SELECT 1 FROM outbox o WHERE o.to_email = u.email AND (o.subject LIKE '%paylarınız tahsis edildi%' OR o.subject LIKE '%süresi doldu%'))")).await;
    assert_eq!(unmailed, 0);
    let mail = text(
        &server,
        "SELECT text_body FROM outbox WHERE to_email = 'ilk@example.com' ORDER BY id DESC LIMIT 1",
    )
    .await;
    assert!(
        mail.contains("→ Paylar tahsis edildi (") && mail.contains("/userInvestments"),
        "{mail}"
    );
    assert_eq!(
        scalar(
            &server,
            "SELECT COUNT(*) FROM outbox WHERE subject LIKE 'Tur kapandı: Ödeme Köprüsü%'"
        )
        .await,
        1
    );

    // The investor sees the holding with its share; once staff record the round's valuation and
    // a later one, its value and multiple.
    let mine = common::text(&a, server.url("/userInvestments")).await;
    assert!(
        mine.contains("Ödeme Köprüsü") && mine.contains("300.000 TL") && mine.contains("%7,50"),
        "{mine}"
    );
    let token = csrf(&staff, &server, &format!("/dashboard/rounds/{id}")).await;
    let saved = post_form(
        &staff,
        server.url(&format!("/dashboard/rounds/{id}/figures")),
        &token,
        &[("round_valuation", "40.000.000".into())],
    )
    .await;
    assert_eq!(saved.status(), 303);
    let valued = post_form(
        &staff,
        server.url(&format!("/dashboard/rounds/{id}/valuations")),
        &token,
        &[
            ("valuation", "60.000.000".into()),
            ("valued_on", "2026-11-01".into()),
            ("source", "Seri A turu".into()),
        ],
    )
    .await;
    assert_eq!(valued.status(), 303);
    let mine = common::text(&a, server.url("/userInvestments")).await;
    assert!(
        mine.contains("60.000.000 TL (Seri A turu, 01.11.2026)")
            && mine.contains("450.000 TL")
            && mine.contains("1,50x"),
        "{mine}"
    );
    let overview = common::text(&a, server.url("/overview")).await;
    assert!(
        overview.contains("Yatırımlarınız")
            && overview.contains("1,50x")
            && overview.contains("class=\"chart chart--bars\"")
    );
    let card = common::text(&a, server.url("/startups/odeme-koprusu")).await;
    assert!(card.contains("Fonlandı") && card.contains("Bu girişim şu anda yatırıma açık değil."));
}

#[tokio::test]
async fn a_superadmin_closes_a_round_early_and_a_failed_round_refunds_everyone() {
    let clock = TempDir::new().unwrap();
    let server = start(&clock);
    let staff = sign_in(&server, "super@example.com", ADMIN_PASSWORD).await;
    let id = scalar(
        &server,
        "SELECT id FROM startups WHERE slug = 'kalkan-siber'",
    )
    .await;
    let (a, ta) = qualified_investor(&server, "bir@example.com", 61).await;
    let (b, tb) = qualified_investor(&server, "iki@example.com", 62).await;
    send_request(&server, &a, &ta, "kalkan-siber", "400.000", "f-a").await;
    send_request(&server, &b, &tb, "kalkan-siber", "250.000", "f-b").await;
    let (ra, rb) = (
        request_of(&server, "bir@example.com").await,
        request_of(&server, "iki@example.com").await,
    );
    fund(&server, &a, &staff, ra, "400.000").await;
    fund(&server, &b, &staff, rb, "250.000").await;

    // Far below its threshold, the round cannot close early as a success: only a termination,
    // with a reason, ends it now.
    let refused = common::money::end_round_early(&server, &staff, id, "schedule").await;
    assert_eq!(refused.status(), 409);
    let closed = common::money::end_round_early(&server, &staff, id, "terminate").await;
    assert_eq!(closed.status(), 303);
    let again = common::money::end_round_early(&server, &staff, id, "terminate").await;
    assert_eq!(again.status(), 409, "a round closes once");
    assert_eq!(
        wait_for_count(
            &server,
            &format!("SELECT COUNT(*) FROM startups WHERE id = {id} AND round_status = 'failed'"),
            1
        )
        .await,
        1
    );
    assert_eq!(
        (status_of(&server, ra).await, status_of(&server, rb).await),
        ("refunded".into(), "refunded".into())
    );
    assert_eq!(
        scalar(
            &server,
            &format!("SELECT raised_kurus FROM startups WHERE id = {id}")
        )
        .await,
        0,
        "nothing stays raised"
    );
    assert_eq!(text(&server, &format!("SELECT action FROM audit_log WHERE subject = 'startup:{id}' AND action = 'round.close'")).await, "round.close");

    // The clearing bank's refund list: IBAN, name, amount, reference, for every escrowed amount.
    let csv = staff
        .get(server.url(&format!("/dashboard/rounds/{id}/refunds.csv")))
        .send()
        .await
        .unwrap();
    assert_eq!(csv.status(), 200);
    assert!(
        csv.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/csv")
    );
    let csv = csv.text().await.unwrap();
    assert!(csv.contains("\"IBAN\",\"AD_SOYAD\",\"TUTAR\",\"REFERANS\""));
    for (request, amount) in [(ra, "400000.00"), (rb, "250000.00")] {
        let reference = text(
            &server,
            &format!("SELECT reference FROM bank_transfers WHERE request_id = {request}"),
        )
        .await;
        let line =
            format!("\"TR470000100100000350930001\",\"Ayşe Yılmaz\",\"{amount}\",\"{reference}\"");
        assert!(csv.contains(&line), "{line} in {csv}");
    }
    // Both investors see their refunds, and were mailed about them.
    for (browser, email) in [(&a, "bir@example.com"), (&b, "iki@example.com")] {
        let pending = common::text(browser, server.url("/pendingInvestments")).await;
        assert!(
            pending.contains(">İade edildi<")
                && pending.contains("Emanet hesabındaki tutarın iadesi Takasbank'a bildirildi")
                && pending.contains("Hizmet bedeli kartınıza iade ediliyor."),
            "{email}: {pending}"
        );
        let mail = text(
            &server,
            &format!(
                "SELECT subject FROM outbox WHERE to_email = '{email}' ORDER BY id DESC LIMIT 1"
            ),
        )
        .await;
        assert!(mail.contains("iade ediliyor"), "{mail}");
    }
    let card = common::text(&a, server.url("/startups?sector=cybersecurity")).await;
    assert!(card.contains("Fonlanamadı"));
    // Nothing moves a settled request again.
    assert_eq!(
        common::money::staff_move(&server, &staff, ra, "rejected", "geç").await,
        400
    );
    let cancel = post_form(
        &a,
        server.url(&format!("/pendingInvestments/{ra}/cancel")),
        &ta,
        &[],
    )
    .await;
    assert_eq!(cancel.status(), 409);
}

/// Funded requests made for the crash test, each from its own investor, straight into the
/// database along the same steps (the triggers check each one).
async fn many_funded_requests(server: &Server, startup: i64, count: i64) {
    let db = server.db().await;
    let mut tx = db.begin().await.unwrap();
    for n in 0..count {
        let email = format!("kalabalik{n}@example.com");
        let user: i64 = sqlx::query_scalar("INSERT INTO users (email, first_name, email_verified_at) VALUES (?, 'Kalabalık', '2026-01-01T00:00:00Z') RETURNING id")
            .bind(&email).fetch_one(&mut *tx).await.unwrap();
        sqlx::query("INSERT INTO mkk_profiles (user_id, investor_type, turkish_citizen, id_type, first_name, last_name,
                         email, phone, annual_income_kurus, identity_number, birth_date, status)
                     VALUES (?, 'individual', 1, 'tckn', 'Kalabalık', 'Yatırımcı', ?, '+905321234567', 0, ?, '1980-01-01', 'verified')")
            .bind(user).bind(&email).bind(common::money::tckn(5000 + n as u32)).execute(&mut *tx).await.unwrap();
        let id: i64 = sqlx::query_scalar(
            "INSERT INTO investment_requests (user_id, startup_id, kind, amount_kurus, fee_kurus, fee_added, investment_kurus,
                 total_kurus, risk_accepted_at, idempotency_key, cancel_until, information_form_id)
             VALUES (?, ?, 'investment', 10000000, 250000, 1, 10000000, 10250000, '2026-01-01T00:00:00Z', ?, '2026-01-03T00:00:00Z',
                 (SELECT MAX(id) FROM round_documents WHERE startup_id = ? AND kind = 'information-form'))
             RETURNING id")
            .bind(user).bind(startup).bind(format!("crash-{n}")).bind(startup).fetch_one(&mut *tx).await.unwrap();
        for sql in [
            "UPDATE investment_requests SET status = 'approved' WHERE id = ?1",
            "INSERT INTO money_events (request_id, kind, amount_kurus) VALUES (?1, 'fee_paid', 250000)",
            "UPDATE investment_requests SET status = 'fee_paid', fee_paid_at = '2026-01-02T00:00:00Z' WHERE id = ?1",
            "INSERT INTO bank_transfers (request_id, reference, payer_name, address, country, city, post_code, phone, amount_kurus, payer_iban)
             VALUES (?1, 'CRASH' || ?1, 'Kalabalık', 'a', 'Türkiye', 'İstanbul', '34000', '+905321234567', 10000000, 'TR470000100100000350930001')",
            "INSERT INTO money_events (request_id, kind, amount_kurus) VALUES (?1, 'transfer_received', 10000000)",
            "UPDATE investment_requests SET status = 'funded' WHERE id = ?1",
        ] {
            sqlx::query(sql).bind(id).execute(&mut *tx).await.unwrap();
        }
    }
    tx.commit().await.unwrap();
}

#[tokio::test]
async fn a_close_killed_with_sigkill_finishes_exactly_once_after_a_restart() {
    let clock = TempDir::new().unwrap();
    let file = clock.path().join("offset");
    set_clock(&file, 0);
    let data = TempDir::new().unwrap();
    create_admin(&data, "super@example.com", true);
    let server = Server::start_in(data, &env(file.to_str().unwrap()));
    let id = scalar(
        &server,
        "SELECT id FROM startups WHERE slug = 'dalga-iletisim'",
    )
    .await;
    // Each request settles in its own transaction: 500 give the kill a close well under way,
    // with most of it still to do.
    const COUNT: i64 = 500;
    many_funded_requests(&server, id, COUNT).await;
    let total = scalar(
        &server,
        &format!("SELECT COUNT(*) FROM investment_requests WHERE startup_id = {id}"),
    )
    .await;
    let staff = sign_in(&server, "super@example.com", ADMIN_PASSWORD).await;
    // Escrow holds the goal: the close is scheduled once the demo's open windows and deadlines
    // pass, which a month later they have.
    let closed = common::money::end_round_early(&server, &staff, id, "schedule").await;
    assert_eq!(closed.status(), 303);
    set_clock(&file, 30 * 86_400);

    // Pull the plug in the middle of the close (its allocations counted, not the lapses the
    // deadline job makes meanwhile).
    let db = server.db().await;
    let settled_sql = format!(
        "SELECT COUNT(*) FROM investment_requests WHERE startup_id = {id} AND status = 'allocated'
         AND idempotency_key LIKE 'crash-%'"
    );
    let mut settled = 0;
    for _ in 0..2000 {
        settled = sqlx::query_scalar(&settled_sql)
            .fetch_one(&db)
            .await
            .unwrap();
        if settled > 20 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    }
    let data = server.kill();
    let at_kill: i64 = sqlx::query_scalar(&settled_sql)
        .fetch_one(&db)
        .await
        .unwrap();
    drop(db);
    assert!(
        settled > 0 && at_kill < total,
        "killed mid-close: {at_kill} of {total} settled"
    );
    let status_at_kill: String = {
        let db = sqlx::SqlitePool::connect(&format!(
            "sqlite://{}",
            data.path().join("ortak.db").display()
        ))
        .await
        .unwrap();
        sqlx::query_scalar("SELECT round_status FROM startups WHERE id = ?")
            .bind(id)
            .fetch_one(&db)
            .await
            .unwrap()
    };
    assert_eq!(status_at_kill, "closing");

    // A restart finishes it, once.
    let server = Server::start_in(data, &env(file.to_str().unwrap()));
    assert_eq!(
        wait_for_count(
            &server,
            &format!("SELECT COUNT(*) FROM startups WHERE id = {id} AND round_status = 'funded'"),
            1
        )
        .await,
        1
    );
    assert_eq!(scalar(&server, &format!("SELECT COUNT(*) FROM investment_requests WHERE startup_id = {id} AND status = 'allocated'")).await, COUNT);
    assert_eq!(scalar(&server, &format!("SELECT COUNT(*) FROM money_events m JOIN investment_requests r ON r.id = m.request_id WHERE r.startup_id = {id} AND m.kind = 'allocated'")).await, COUNT);
    // Every request got exactly one close mail and one close event: none lost, none doubled.
    let wrong_mails = scalar(&server, &format!(
        "SELECT COUNT(*) FROM investment_requests r JOIN users u ON u.id = r.user_id WHERE r.startup_id = {id} AND r.idempotency_key LIKE 'crash-%'
         AND (SELECT COUNT(*) FROM outbox o WHERE o.to_email = u.email AND o.subject LIKE '%paylarınız tahsis edildi%') <> 1")).await;
    assert_eq!(wrong_mails, 0);
    let wrong_events = scalar(&server, &format!(
        "SELECT COUNT(*) FROM investment_requests r WHERE r.startup_id = {id}
         AND (SELECT COUNT(*) FROM request_events e WHERE e.request_id = r.id AND e.status IN ('allocated', 'lapsed', 'refunded')) <> 1")).await;
    assert_eq!(wrong_events, 0);
    assert_eq!(
        scalar(
            &server,
            "SELECT COUNT(*) FROM outbox WHERE subject LIKE 'Tur kapandı: Dalga İletişim%'"
        )
        .await,
        1
    );
    let shares = scalar(&server, &format!("SELECT SUM(share_ppm) FROM investment_requests WHERE startup_id = {id} AND status = 'allocated'")).await;
    assert!(
        (999_000..=1_000_000).contains(&shares),
        "the shares add up to the round: {shares}"
    );
    let integrity: String = sqlx::query_scalar("PRAGMA integrity_check")
        .fetch_one(&server.db().await)
        .await
        .unwrap();
    assert_eq!(integrity, "ok");
}

#[tokio::test]
async fn the_demo_shows_rounds_in_every_state() {
    let clock = TempDir::new().unwrap();
    let server = start(&clock);
    let staff = sign_in(&server, "super@example.com", ADMIN_PASSWORD).await;
    let count = |sql: String| {
        let server = &server;
        async move { scalar(server, &sql).await }
    };
    let state = |slug: &'static str| {
        let server = &server;
        async move {
            text(
                server,
                &format!("SELECT round_status FROM startups WHERE slug = '{slug}'"),
            )
            .await
        }
    };
    // Open, with money in escrow and commitments on the way.
    assert_eq!(state("cemre-enerji").await, "open");
    assert!(count("SELECT COUNT(*) FROM investment_requests r JOIN startups s ON s.id = r.startup_id WHERE s.slug = 'cemre-enerji' AND r.status = 'funded'".into()).await > 0);
    assert!(count("SELECT COUNT(*) FROM investment_requests r JOIN startups s ON s.id = r.startup_id WHERE s.slug = 'cemre-enerji' AND r.status IN ('submitted','under_review','approved','fee_paid')".into()).await >= 4);
    // Closing soon.
    let fintech = common::text(&staff, server.url("/startups?sector=fintech")).await;
    assert!(fintech.contains("Kapanmak üzere"));
    // Oversubscribed, with a waitlist.
    assert_eq!(count("SELECT COUNT(*) FROM investment_requests r JOIN startups s ON s.id = r.startup_id WHERE s.slug = 'aile-hekimim' AND r.status = 'waitlisted'".into()).await, 2);
    let aile = common::text(&staff, server.url("/startups/aile-hekimim")).await;
    assert!(aile.contains("Bu turun kapasitesi doldu"));
    // Funded, with allocations that add up to the round.
    assert_eq!(state("ruzgar-gulu").await, "funded");
    let shares = count("SELECT SUM(share_ppm) FROM investment_requests r JOIN startups s ON s.id = r.startup_id WHERE s.slug = 'ruzgar-gulu' AND r.status = 'allocated'".into()).await;
    assert!(
        (999_000..=1_000_000).contains(&shares),
        "shares of the round, rounded down: {shares}"
    );
    // Failed, with refunds on the clearing bank's list.
    assert_eq!(state("unlu-tarifler").await, "failed");
    let unlu = count("SELECT id FROM startups WHERE slug = 'unlu-tarifler'".into()).await;
    let csv = common::text(
        &staff,
        server.url(&format!("/dashboard/rounds/{unlu}/refunds.csv")),
    )
    .await;
    assert!(
        csv.lines().count() >= 2 && csv.contains("\"140000.00\""),
        "{csv}"
    );
    // The demo's own figures are the ledger's: nothing typed.
    let mismatched = count("SELECT COUNT(*) FROM startups s WHERE s.raised_kurus <> (
        SELECT COALESCE(SUM(CASE m.kind WHEN 'transfer_received' THEN m.amount_kurus WHEN 'escrow_refunded' THEN -m.amount_kurus ELSE 0 END), 0)
        FROM money_events m JOIN investment_requests r ON r.id = m.request_id
        WHERE r.startup_id = s.id AND r.status IN ('funded', 'allocated'))".into()).await;
    assert_eq!(mismatched, 0);
    // And nothing in the demo is due to close or lapse at once.
    server.run_jobs().await;
    server.run_jobs().await;
    assert_eq!(
        count("SELECT COUNT(*) FROM investment_requests WHERE status = 'lapsed'".into()).await,
        1
    );
    assert_eq!(state("cemre-enerji").await, "open");
}

#[tokio::test]
async fn a_pre_investment_period_that_ends_closes_its_round_and_refunds_what_was_paid() {
    let clock = TempDir::new().unwrap();
    let server = start(&clock);
    let staff = sign_in(&server, "super@example.com", ADMIN_PASSWORD).await;
    // Bisiklet Ağı's pre-investment period ends in 20 days, 200.000 TL of its 800.000 TL raised.
    let id = scalar(
        &server,
        "SELECT id FROM startups WHERE slug = 'bisiklet-agi'",
    )
    .await;
    assert_eq!(
        text(
            &server,
            &format!("SELECT period_kind FROM startups WHERE id = {id}")
        )
        .await,
        "pre_investment"
    );
    let (a, ta) = qualified_investor(&server, "on-talep@example.com", 71).await;
    let sent = send_request(&server, &a, &ta, "bisiklet-agi", "150.000", "p-a").await;
    assert_eq!(sent.status(), 303, "{}", sent.text().await.unwrap());
    let ra = request_of(&server, "on-talep@example.com").await;
    fund(&server, &a, &staff, ra, "150.000").await;

    // Staff opened no investment period after it: at its end the round closes like any other,
    // short of its goal, and every amount in escrow goes back.
    set_clock(&clock.path().join("offset"), 22 * 86_400);
    assert_eq!(
        wait_for_count(
            &server,
            &format!("SELECT COUNT(*) FROM startups WHERE id = {id} AND round_status = 'failed'"),
            1
        )
        .await,
        1,
        "the ended pre-investment period closed its round"
    );
    assert_eq!(status_of(&server, ra).await, "refunded");
    let page = common::text(&a, server.url("/startups/bisiklet-agi")).await;
    assert!(
        !page.contains("/investmentFlow?startup=bisiklet-agi"),
        "no request button after the close"
    );
}
