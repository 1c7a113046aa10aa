//! Reconfirmation (issue 17): when a live round's material terms change (goal, valuation,
//! period, information form; since issue 27 through a new campaign version the investment
//! committee approves, or a signed form staff upload), every investor with an open request is mailed what changed and
//! asked to reconfirm; until then the database holds the request and the round; the investor
//! reconfirms (having opened the current information form) or withdraws; at the deadline the
//! job cancels what was not reconfirmed and refunds what was paid.

use crate::common;

use common::campaigns::{
    campaign_fields, committee_browsers, create_committee, record_issuer, run_campaign,
    seat_committee,
};
use common::journeys::{ADMIN_PASSWORD, create_admin, csrf, post_form, sign_in};
use common::money::{
    answer_card_challenge, fund, qualified_investor, request_of, send_request, set_clock,
    staff_move, start_card_payment, status_of, wait_for_count,
};
use common::{Server, scalar};
use tempfile::TempDir;

const SLUG: &str = "yeni-tur";

fn start(clock: &TempDir) -> Server {
    let data = TempDir::new().unwrap();
    create_admin(&data, "super@example.com", true);
    create_committee(&data);
    let file = clock.path().join("offset");
    set_clock(&file, 0);
    let env = [
        ("ORTAK_DEMO", "1"),
        ("ORTAK_CLOCK_FILE", file.to_str().unwrap()),
        ("ORTAK_JOBS_INTERVAL_SECONDS", "1"),
        // Past the reconfirmation deadline (five days), so that only it decides.
        ("ORTAK_FEE_DEADLINE_HOURS", "240"),
        ("ORTAK_TRANSFER_DEADLINE_HOURS", "240"),
    ];
    Server::start_in(data, &env)
}

/// The editor's fields of an investment round with `goal` (lira, as typed).
fn round_fields(goal: &str, description: &str) -> Vec<(&'static str, String)> {
    let today = time::OffsetDateTime::now_utc().date();
    vec![
        ("name", "Yeni Tur".to_owned()),
        ("slug", SLUG.into()),
        ("sector", "fintech".into()),
        ("subcategory", "Ödeme".into()),
        ("fund", "1".into()),
        ("country", "Türkiye".into()),
        ("city", "İzmir".into()),
        ("stage", "seed".into()),
        ("description_tr", description.into()),
        ("description_en", "Instant payments.".into()),
        ("goal", goal.into()),
        ("period_kind", "investment".into()),
        ("starts_on", (today - time::Duration::days(1)).to_string()),
        ("ends_on", (today + time::Duration::days(20)).to_string()),
        ("vip_until", String::new()),
        ("team_size", "7".into()),
        (
            "founders",
            "Deniz Ak | CEO | https://example.com/deniz".into(),
        ),
        ("s_executive-summary_tr", "Güçlü bir ekip.".into()),
        ("s_executive-summary_en", "A strong team.".into()),
        ("intent", "save".into()),
    ]
}

async fn save_round(
    server: &Server,
    staff: &reqwest::Client,
    id: Option<i64>,
    fields: &[(&'static str, String)],
) {
    let path = id.map_or("/dashboard/startups/new".to_owned(), |id| {
        format!("/dashboard/startups/{id}")
    });
    let token = csrf(staff, server, &path).await;
    let saved = post_form(staff, server.url(&path), &token, fields).await;
    assert_eq!(saved.status(), 303, "the startup is saved");
}

async fn text(server: &Server, sql: &str) -> String {
    sqlx::query_scalar(sql)
        .fetch_one(&server.db().await)
        .await
        .unwrap()
}

/// `browser` answers the question on `request` (`reconfirm` or `decline`) from its card; the
/// answer's status.
async fn answer(server: &Server, browser: &reqwest::Client, request: i64, how: &str) -> u16 {
    let token = csrf(browser, server, "/pendingInvestments").await;
    let path = format!("/pendingInvestments/{request}/{how}");
    let sent = post_form(browser, server.url(&path), &token, &[]).await;
    sent.status().as_u16()
}

/// A superadmin terminates the round now (below its threshold, the only early end); the
/// answer's status.
async fn close_round(server: &Server, staff: &reqwest::Client, id: i64) -> u16 {
    let page = format!("/dashboard/rounds/{id}/close");
    let token = csrf(staff, server, &page).await;
    let fields = [
        ("intent", "terminate".to_owned()),
        ("name", "Yeni Tur".into()),
        ("reason", "Girişim başvurusunu geri çekti.".into()),
    ];
    let sent = post_form(staff, server.url(&page), &token, &fields).await;
    sent.status().as_u16()
}

/// The round's first day (yesterday, fixed in every version).
fn first_day() -> time::Date {
    time::OffsetDateTime::now_utc().date() - time::Duration::days(1)
}

/// Staff create the round (unpublished), record its issuer's checks and take its campaign
/// (3.000.000 TL) through the committee, which publishes it. Returns its id and the committee.
async fn approved_round(server: &Server, staff: &reqwest::Client) -> (i64, Vec<reqwest::Client>) {
    save_round(server, staff, None, &round_fields("3.000.000", "Ödeme.")).await;
    let id = scalar(
        server,
        &format!("SELECT id FROM startups WHERE slug = '{SLUG}'"),
    )
    .await;
    seat_committee(server).await;
    let members = committee_browsers(server).await;
    record_issuer(server, staff, id).await;
    let ends = first_day() + time::Duration::days(21);
    run_campaign(
        server,
        staff,
        &members,
        id,
        &campaign_fields(3_000_000, first_day(), ends),
    )
    .await;
    assert_eq!(
        scalar(
            server,
            &format!("SELECT published FROM startups WHERE id = {id}")
        )
        .await,
        1,
        "the approval publishes the round"
    );
    (id, members)
}

async fn answer_of(server: &Server, request: i64) -> String {
    text(
        server,
        &format!(
            "SELECT answer FROM reconfirmations WHERE request_id = {request}
             ORDER BY change_id DESC LIMIT 1"
        ),
    )
    .await
}

#[tokio::test]
async fn a_changed_goal_holds_every_open_request_until_its_investor_answers() {
    let clock = TempDir::new().unwrap();
    let server = start(&clock);
    let staff = sign_in(&server, "super@example.com", ADMIN_PASSWORD).await;
    let (id, members) = approved_round(&server, &staff).await;
    let campaign =
        |goal: i64| campaign_fields(goal, first_day(), first_day() + time::Duration::days(21));
    // Without requests, a change asks nobody.
    run_campaign(&server, &staff, &members, id, &campaign(3_100_000)).await;
    assert_eq!(
        scalar(&server, "SELECT COUNT(*) FROM term_changes").await,
        0
    );

    let mut investors = Vec::new();
    for (n, email) in [
        "a@example.com",
        "b@example.com",
        "c@example.com",
        "d@example.com",
    ]
    .into_iter()
    .enumerate()
    {
        let (browser, token) = qualified_investor(&server, email, 81 + n as u32).await;
        let sent = send_request(&server, &browser, &token, SLUG, "100.000", email).await;
        assert_eq!(sent.status(), 303, "{email}'s request");
        investors.push((browser, request_of(&server, email).await));
    }
    let [(a, ra), (b, rb), (c, rc), (d, rd)] = <[_; 4]>::try_from(investors).ok().unwrap();
    // A is approved and has started paying the fee (the 3-D Secure step is open); D's
    // investment is in escrow; B and C are sent.
    assert_eq!(staff_move(&server, &staff, ra, "approved", "").await, 303);
    let challenge = start_card_payment(&server, &a, ra).await;
    fund(&server, &d, &staff, rd, "100.000").await;

    // A change that is not a term of the round asks nobody either (its information form reads
    // the same).
    let mut reworded = campaign(3_100_000);
    reworded[0].1 = "Yeni metin.".into();
    run_campaign(&server, &staff, &members, id, &reworded).await;
    assert_eq!(
        scalar(&server, "SELECT COUNT(*) FROM term_changes").await,
        0
    );

    // The goal changes (and with it the information form the committee's approval generates):
    // each open request is asked, its investor mailed what changed.
    let mut raised = campaign(3_500_000);
    raised[0].1 = "Yeni metin.".into();
    run_campaign(&server, &staff, &members, id, &raised).await;
    assert_eq!(
        scalar(&server, "SELECT COUNT(*) FROM term_changes").await,
        1
    );
    assert_eq!(
        text(
            &server,
            "SELECT group_concat(term, ',') FROM (SELECT term FROM term_change_items ORDER BY term)"
        )
        .await,
        "goal,information-form"
    );
    assert_eq!(
        text(
            &server,
            "SELECT before_value || '>' || after_value FROM term_change_items WHERE term = 'goal'"
        )
        .await,
        "310000000>350000000"
    );
    assert_eq!(
        scalar(
            &server,
            "SELECT COUNT(*) FROM reconfirmations WHERE answer = 'pending'"
        )
        .await,
        4
    );
    let mails = wait_for_count(
        &server,
        "SELECT COUNT(*) FROM outbox WHERE subject LIKE '%koşulları değişti%'",
        4,
    )
    .await;
    assert_eq!(mails, 4, "every investor is mailed");
    let mail = text(&server, "SELECT text_body FROM outbox WHERE to_email = 'b@example.com' AND subject LIKE '%koşulları değişti%'").await;
    assert!(
        mail.contains("Fonlama hedefi: 3.100.000 TL → 3.500.000 TL")
            && mail.contains("Son onay tarihi: ")
            && mail.contains("/pendingInvestments"),
        "{mail}"
    );
    assert_eq!(
        scalar(
            &server,
            "SELECT COUNT(*) FROM audit_log WHERE action = 'round.terms.change'"
        )
        .await,
        1
    );

    // A's card payment, completed after the change, is not kept: charged, void, refunded.
    let landed = answer_card_challenge(&server, &a, &challenge).await;
    assert_eq!(landed.status(), 303);
    assert_eq!(status_of(&server, ra).await, "approved");
    let refunded = wait_for_count(
        &server,
        &format!("SELECT COUNT(*) FROM payments WHERE request_id = {ra} AND status = 'void' AND charged = 1 AND refund_status = 'refunded'"),
        1,
    )
    .await;
    assert_eq!(refunded, 1, "the charge goes back");
    assert_eq!(
        scalar(
            &server,
            &format!(
                "SELECT COUNT(*) FROM money_events WHERE request_id = {ra} AND kind = 'fee_paid'"
            )
        )
        .await,
        0,
        "the ledger never counted it"
    );

    // Held: staff cannot approve B, the database refuses the move outright, A cannot pay.
    assert_eq!(staff_move(&server, &staff, rb, "approved", "").await, 409);
    assert_eq!(status_of(&server, rb).await, "submitted");
    let forced = sqlx::query("UPDATE investment_requests SET status = 'under_review' WHERE id = ?")
        .bind(rb)
        .execute(&server.db().await)
        .await;
    assert!(forced.is_err(), "the trigger holds the request");
    let pay = a
        .get(server.url(&format!("/invFlow?request={rb}")))
        .send()
        .await
        .unwrap();
    assert_eq!(pay.status(), 404, "someone else's request");
    assert_eq!(
        a.get(server.url(&format!("/invFlow?request={ra}")))
            .send()
            .await
            .unwrap()
            .headers()["location"],
        "/pendingInvestments"
    );
    // The investor's page says what changed, with both buttons.
    let page = common::text(&b, server.url("/pendingInvestments")).await;
    assert!(
        page.contains("Turun koşulları değişti")
            && page.contains("3.500.000 TL")
            && page.contains(&format!("/pendingInvestments/{rb}/reconfirm"))
            && page.contains(&format!("/pendingInvestments/{rb}/decline")),
        "the request card asks"
    );
    // Nor may anyone answer for somebody else.
    assert_eq!(answer(&server, &b, ra, "reconfirm").await, 404);
    assert_eq!(answer(&server, &b, ra, "decline").await, 404);
    assert_eq!(answer_of(&server, ra).await, "pending");

    // The round does not close meanwhile.
    assert_eq!(close_round(&server, &staff, id).await, 409);
    let round_page = common::text(&staff, server.url(&format!("/dashboard/rounds/{id}"))).await;
    assert!(round_page.contains("Yeniden onay bekleyen") && round_page.contains("4 talep"));

    // B reconfirms (once, having opened the new information form), and goes on; C withdraws
    // outside the cancellation window.
    common::money::open_information_form(&server, &b, SLUG).await;
    assert_eq!(answer(&server, &b, rb, "reconfirm").await, 303);
    assert_eq!(answer_of(&server, rb).await, "reconfirmed");
    assert_eq!(answer(&server, &b, rb, "reconfirm").await, 409);
    assert_eq!(
        answer(&server, &b, rb, "decline").await,
        409,
        "an answer is final"
    );
    assert_eq!(
        staff_move(&server, &staff, rb, "under_review", "").await,
        303
    );
    set_clock(&clock.path().join("offset"), 3 * 86_400);
    assert_eq!(answer(&server, &c, rc, "decline").await, 303);
    assert_eq!(status_of(&server, rc).await, "cancelled");
    assert_eq!(answer_of(&server, rc).await, "withdrawn");

    // Past the deadline, the job cancels A and D: D's fee is owed back, its escrow refunded.
    set_clock(&clock.path().join("offset"), 6 * 86_400);
    let expired = wait_for_count(
        &server,
        "SELECT COUNT(*) FROM reconfirmations WHERE answer = 'expired'",
        2,
    )
    .await;
    assert_eq!(expired, 2);
    assert_eq!(
        (status_of(&server, ra).await, status_of(&server, rd).await),
        ("cancelled".into(), "cancelled".into())
    );
    assert_eq!(
        scalar(&server, &format!("SELECT COUNT(*) FROM money_events WHERE request_id = {rd} AND kind = 'escrow_refunded' AND amount_kurus = 10000000")).await,
        1,
        "D's investment goes on the refund list"
    );
    let fee_back = wait_for_count(
        &server,
        &format!(
            "SELECT COUNT(*) FROM money_events WHERE request_id = {rd} AND kind = 'fee_refunded'"
        ),
        1,
    )
    .await;
    assert_eq!(fee_back, 1, "D's fee goes back to the card");
    assert_eq!(
        scalar(
            &server,
            "SELECT COUNT(*) FROM outbox WHERE subject LIKE '%yeniden onaylanmadı%'"
        )
        .await,
        2
    );
    assert_eq!(status_of(&server, rb).await, "under_review", "B goes on");
    // With every answer in, the round may close.
    assert_eq!(close_round(&server, &staff, id).await, 303);
}

async fn upload_form(server: &Server, staff: &reqwest::Client, id: i64, body: &'static [u8]) {
    let token = csrf(staff, server, &format!("/dashboard/startups/{id}")).await;
    let form = reqwest::multipart::Form::new().text("csrf", token).part(
        "document",
        reqwest::multipart::Part::bytes(body).file_name("bilgi.pdf"),
    );
    let sent = staff
        .post(server.url(&format!(
            "/dashboard/startups/{id}/documents/information-form"
        )))
        .multipart(form)
        .send()
        .await
        .unwrap();
    assert_eq!(sent.status(), 303);
}

#[tokio::test]
async fn a_new_information_form_must_be_opened_before_reconfirming() {
    let clock = TempDir::new().unwrap();
    let server = start(&clock);
    let staff = sign_in(&server, "super@example.com", ADMIN_PASSWORD).await;
    let (id, _) = approved_round(&server, &staff).await;
    // The committee's approval generated the first version.
    let v1 = scalar(&server, &format!("SELECT MAX(id) FROM round_documents WHERE startup_id = {id} AND kind = 'information-form'")).await;
    let (investor, token) = qualified_investor(&server, "e@example.com", 91).await;
    let opened = investor
        .get(server.url(&format!("/startups/{SLUG}/documents/{v1}")))
        .send()
        .await
        .unwrap();
    assert_eq!(opened.status(), 200);
    let sent = send_request(&server, &investor, &token, SLUG, "100.000", "e-1").await;
    assert_eq!(sent.status(), 303);
    let request = request_of(&server, "e@example.com").await;

    // Staff replace it with the signed upload.
    upload_form(&server, &staff, id, b"%PDF-1.7 bilgi formu 2").await;
    let v2 = scalar(&server, "SELECT MAX(id) FROM round_documents").await;
    assert_eq!(
        text(&server, "SELECT term FROM term_change_items").await,
        "information-form"
    );
    let mail = text(&server, "SELECT text_body FROM outbox WHERE to_email = 'e@example.com' AND subject LIKE '%koşulları değişti%'").await;
    assert!(
        mail.contains("Bilgi formu: 1. sürüm, ") && mail.contains(" → 2. sürüm, "),
        "{mail}"
    );
    let page = common::text(&investor, server.url("/pendingInvestments")).await;
    let link = format!("/startups/{SLUG}/documents/{v2}");
    assert!(page.contains(&link), "the card links the new form");

    // Not opened yet: nothing is recorded, the investor is told why.
    assert_eq!(answer(&server, &investor, request, "reconfirm").await, 303);
    assert_eq!(answer_of(&server, request).await, "pending");
    let told = common::text(&investor, server.url("/pendingInvestments")).await;
    assert!(told.contains("güncel bilgi formunu açıp okuyun"));

    investor.get(server.url(&link)).send().await.unwrap();
    assert_eq!(answer(&server, &investor, request, "reconfirm").await, 303);
    assert_eq!(answer_of(&server, request).await, "reconfirmed");
    assert_eq!(
        scalar(
            &server,
            &format!("SELECT information_form_id FROM investment_requests WHERE id = {request}")
        )
        .await,
        v2,
        "the request now stands on the new form"
    );

    // A request that ends another way closes its question: rejected while asked again.
    upload_form(&server, &staff, id, b"%PDF-1.7 bilgi formu 3").await;
    assert_eq!(answer_of(&server, request).await, "pending");
    assert_eq!(
        staff_move(&server, &staff, request, "rejected", "Eksik belge").await,
        303
    );
    assert_eq!(answer_of(&server, request).await, "closed");
    assert_eq!(
        scalar(
            &server,
            "SELECT COUNT(*) FROM reconfirmations WHERE answer = 'pending'"
        )
        .await,
        0,
        "nothing holds the round"
    );
}
