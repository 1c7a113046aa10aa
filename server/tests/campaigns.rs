//! Campaigns as a licensed platform runs them (issue 27): founders draft, staff review, the
//! investment committee approves with a record, the information form comes before any money,
//! a campaign runs 60 days at most, early closes are fair, issuers are checked, the terms are on
//! the startup's page, and founders disclose after funding. Each rule is tried the way an
//! attacker would: directly in the database, out of order, twice, and with someone else's id.

use crate::common;

use common::campaigns::{
    COMMITTEE, campaign_fields, committee_browsers, create_committee, latest_version,
    post_campaign, record_issuer, run_campaign, seat_committee, to_committee, vote,
};
use common::journeys::{ADMIN_PASSWORD, create_admin, csrf, post_form, sign_in, sign_up};
use common::money::{
    end_round_early, fund, qualified_investor, request_of, send_request, set_clock, status_of,
    verify_email, wait_for_count,
};
use common::{Server, exec, scalar};
use tempfile::TempDir;
use time::{Date, Duration, OffsetDateTime};

fn today() -> Date {
    OffsetDateTime::now_utc().date()
}

/// A demo server with a superadmin, an admin and the test committee seated; its clock in
/// `clock` (jobs every second).
async fn start(clock: &TempDir, env: &[(&'static str, &str)]) -> Server {
    let data = TempDir::new().unwrap();
    create_admin(&data, "super@example.com", true);
    create_admin(&data, "admin@example.com", false);
    create_committee(&data);
    let file = clock.path().join("offset");
    set_clock(&file, 0);
    let mut all = vec![
        ("ORTAK_DEMO", "1"),
        ("ORTAK_CLOCK_FILE", file.to_str().unwrap()),
        ("ORTAK_JOBS_INTERVAL_SECONDS", "1"),
    ];
    all.extend_from_slice(env);
    let server = Server::start_in(data, &all);
    seat_committee(&server).await;
    server
}

/// A new startup staff created (unpublished, no campaign yet); its id.
async fn new_startup(server: &Server, staff: &reqwest::Client, name: &str, slug: &str) -> i64 {
    let fields = [
        ("name", name.to_owned()),
        ("slug", slug.to_owned()),
        ("sector", "fintech".into()),
        ("subcategory", "Ödeme".into()),
        ("fund", "1".into()),
        ("country", "Türkiye".into()),
        ("city", "İzmir".into()),
        ("stage", "seed".into()),
        ("description_tr", "Esnafa anında ödeme.".into()),
        ("description_en", "Instant payments for shopkeepers.".into()),
        ("goal", "3.000.000".into()),
        ("period_kind", "investment".into()),
        ("starts_on", today().to_string()),
        ("ends_on", (today() + Duration::days(29)).to_string()),
        ("vip_until", String::new()),
        ("team_size", "7".into()),
        (
            "founders",
            "Deniz Ak | CEO | https://example.com/deniz".into(),
        ),
        ("intent", "save".into()),
    ];
    let token = csrf(staff, server, "/dashboard/startups/new").await;
    let saved = post_form(
        staff,
        server.url("/dashboard/startups/new"),
        &token,
        &fields,
    )
    .await;
    assert_eq!(saved.status(), 303, "{name} is created");
    scalar(
        server,
        &format!("SELECT id FROM startups WHERE slug = '{slug}'"),
    )
    .await
}

/// Staff invite `email` as a founder of `startup`; the founder joins with that address.
async fn founder(
    server: &Server,
    staff: &reqwest::Client,
    startup: i64,
    email: &str,
) -> reqwest::Client {
    let page = format!("/dashboard/startups/{startup}");
    let token = csrf(staff, server, &page).await;
    let path = format!("{page}/founders");
    let invited = post_form(
        staff,
        server.url(&path),
        &token,
        &[("founder_email", email.into())],
    )
    .await;
    assert_eq!(invited.status(), 303);
    let browser = sign_up(server, email).await;
    verify_email(server, email).await;
    browser
}

/// The campaign of 30 days from today raising 3.000.000 TL.
fn month_campaign() -> Vec<(&'static str, String)> {
    campaign_fields(3_000_000, today(), today() + Duration::days(29))
}

/// A member who reads startup pages.
async fn investor_reader(server: &Server) -> reqwest::Client {
    qualified_investor(server, "okur-uye@example.com", 341)
        .await
        .0
}

fn with(
    mut fields: Vec<(&'static str, String)>,
    key: &'static str,
    value: &str,
) -> Vec<(&'static str, String)> {
    fields.retain(|(k, _)| *k != key);
    fields.push((key, value.to_owned()));
    fields
}

#[tokio::test]
async fn founders_draft_their_campaign_staff_review_it_and_nobody_edits_another_startups() {
    let clock = TempDir::new().unwrap();
    let server = start(&clock, &[]).await;
    let staff = sign_in(&server, "super@example.com", ADMIN_PASSWORD).await;
    let ours = new_startup(&server, &staff, "Şimşek Ödeme", "simsek-odeme").await;
    let theirs = new_startup(&server, &staff, "Başka Girişim", "baska-girisim").await;
    let kurucu = founder(&server, &staff, ours, "kurucu@example.com").await;

    // Another startup's campaign does not exist for this founder: reading, saving, submitting.
    let other = format!("/vc-dashboard/startups/{theirs}/campaign");
    let read = kurucu.get(server.url(&other)).send().await.unwrap();
    assert_eq!(read.status(), 404);
    let token = csrf(&kurucu, &server, "/vc-dashboard").await;
    for intent in ["save", "submit"] {
        let fields = with(month_campaign(), "intent", intent);
        let sent = post_form(&kurucu, server.url(&other), &token, &fields).await;
        assert_eq!(sent.status(), 404, "{intent} another startup's draft");
    }
    assert_eq!(
        scalar(
            &server,
            &format!("SELECT COUNT(*) FROM campaign_drafts WHERE startup_id = {theirs}")
        )
        .await,
        0
    );
    // Investors and staff outside the committee cannot vote or reach the founder's editor.
    let (investor, _) = qualified_investor(&server, "yatirimci@example.com", 301).await;
    let mine = format!("/vc-dashboard/startups/{ours}/campaign");
    assert_eq!(
        investor
            .get(server.url(&mine))
            .send()
            .await
            .unwrap()
            .status(),
        403
    );

    // A draft is kept as typed, even unfinished; a submission is checked: each message, the
    // typed values kept, 422, no version stored.
    let path = mine.as_str();
    let saved = post_campaign(
        &server,
        &kurucu,
        path,
        &[("description_tr", "Yarım taslak".into())],
        "save",
    )
    .await;
    assert_eq!(saved.status(), 303);
    let page = common::text(&kurucu, server.url(path)).await;
    assert!(page.contains("Yarım taslak"));
    let bad = with(
        with(month_campaign(), "goal", "üç milyon"),
        "pitch_video",
        "https://evil.example/v",
    );
    let refused = post_campaign(&server, &kurucu, path, &bad, "submit").await;
    assert_eq!(refused.status(), 422);
    let html = refused.text().await.unwrap();
    assert!(
        html.contains("Lütfen geçerli bir sayı girin.") && html.contains("value=\"üç milyon\""),
        "{html}"
    );
    assert!(html.contains("https://evil.example/v"));
    assert_eq!(scalar(&server, "SELECT COUNT(*) FROM campaign_versions WHERE startup_id IN (SELECT id FROM startups WHERE slug = 'simsek-odeme')").await, 0);
    // The 61st day is refused, with the rule's message.
    let long = campaign_fields(3_000_000, today(), today() + Duration::days(60));
    let refused = post_campaign(&server, &kurucu, path, &long, "submit").await;
    assert_eq!(refused.status(), 422);
    assert!(
        refused
            .text()
            .await
            .unwrap()
            .contains("Kampanya kuralların izin verdiğinden uzun")
    );
    assert_eq!(
        scalar(
            &server,
            &format!("SELECT COUNT(*) FROM campaign_versions WHERE startup_id = {ours}")
        )
        .await,
        0
    );

    // Submitted: staff are told, the draft can only be read until the version is decided.
    let sent = post_campaign(&server, &kurucu, path, &month_campaign(), "submit").await;
    assert_eq!(sent.status(), 303);
    let version = latest_version(&server, ours).await;
    let locked = post_campaign(&server, &kurucu, path, &month_campaign(), "save").await;
    assert_eq!(locked.status(), 409);
    assert!(
        scalar(
            &server,
            "SELECT COUNT(*) FROM outbox WHERE subject LIKE 'Kampanya incelemede: Şimşek Ödeme%'"
        )
        .await
            >= 1
    );

    // Staff comment per section and send it back; the founder reads each comment beside its
    // section, and is mailed.
    let review = format!("/dashboard/startups/{ours}/campaign");
    let token = csrf(&staff, &server, &review).await;
    let returned = post_form(
        &staff,
        server.url(&format!("/dashboard/campaigns/{version}/review")),
        &token,
        &[
            ("intent", "return".into()),
            ("c_description", "Kısa açıklama daha net olsun.".into()),
            ("c_terms", "Değerleme için dayanak ekleyin.".into()),
        ],
    )
    .await;
    assert_eq!(returned.status(), 303);
    let editor = common::text(&kurucu, server.url(path)).await;
    assert!(
        editor.contains("Kısa açıklama daha net olsun.")
            && editor.contains("Değerleme için dayanak ekleyin.")
    );
    assert!(scalar(&server, "SELECT COUNT(*) FROM outbox WHERE to_email = 'kurucu@example.com' AND subject LIKE '%yorumlar var%'").await >= 1);
    // A version already decided by staff cannot be moved again.
    let again = post_form(
        &staff,
        server.url(&format!("/dashboard/campaigns/{version}/review")),
        &token,
        &[("intent", "committee".into())],
    )
    .await;
    assert_eq!(again.status(), 409);

    // Resubmitted and passed on: the committee approves it; publication follows the approval.
    let sent = post_campaign(&server, &kurucu, path, &month_campaign(), "submit").await;
    assert_eq!(sent.status(), 303);
    let second = latest_version(&server, ours).await;
    assert!(second > version);
    record_issuer(&server, &staff, ours).await;
    to_committee(&server, &staff, ours, second).await;
    let members = committee_browsers(&server).await;
    common::campaigns::approve(&server, &members, second).await;
    assert_eq!(
        scalar(
            &server,
            &format!("SELECT published FROM startups WHERE id = {ours}")
        )
        .await,
        1
    );
    assert!(scalar(&server, "SELECT COUNT(*) FROM outbox WHERE to_email = 'kurucu@example.com' AND subject LIKE '%karar%'").await >= 1);
}

#[tokio::test]
async fn the_committee_votes_once_on_the_current_version_and_its_decision_is_recorded() {
    let clock = TempDir::new().unwrap();
    let server = start(&clock, &[]).await;
    let staff = sign_in(&server, "super@example.com", ADMIN_PASSWORD).await;
    let id = new_startup(&server, &staff, "Komite Deneme", "komite-deneme").await;
    let members = committee_browsers(&server).await;

    // Publication without an approval: refused by the database (the editor's refusal is in
    // `staff_sections`).
    let forced = sqlx::query("UPDATE startups SET published = 1 WHERE id = ?")
        .bind(id)
        .execute(&server.db().await)
        .await;
    assert!(
        forced.unwrap_err().to_string().contains("approved"),
        "the database refuses"
    );

    let draft = format!("/dashboard/startups/{id}/campaign/draft");
    assert_eq!(
        post_campaign(&server, &staff, &draft, &month_campaign(), "submit")
            .await
            .status(),
        303
    );
    let v1 = latest_version(&server, id).await;
    // Not before the committee yet: no vote.
    assert_eq!(
        vote(&server, &members[0], v1, "approve", "").await.status(),
        409
    );
    to_committee(&server, &staff, id, v1).await;

    // Staff outside the committee (the superadmin here) cannot open or vote.
    let outside = staff
        .get(server.url(&format!("/dashboard/committee/{v1}")))
        .send()
        .await
        .unwrap();
    assert_eq!(outside.status(), 403);
    let token = csrf(&staff, &server, "/dashboard").await;
    let cast = post_form(
        &staff,
        server.url(&format!("/dashboard/committee/{v1}/vote")),
        &token,
        &[("vote", "approve".into())],
    )
    .await;
    assert_eq!(cast.status(), 403);

    // The issuer's checks are not recorded: nobody can approve, and the page says which check.
    let page = common::text(
        &members[0],
        server.url(&format!("/dashboard/committee/{v1}")),
    )
    .await;
    assert!(page.contains("İhraççı bir kontrolü geçemediği sürece bu sürüm onaylanamaz."));
    let refused = vote(&server, &members[0], v1, "approve", "").await;
    assert_eq!(refused.status(), 422);
    // The limits hold: a company raising more than the yearly limit allows is refused too.
    record_issuer(&server, &staff, id).await;
    exec(
        &server,
        &format!("UPDATE startups SET raised_last_12m_kurus = 5990000000 WHERE id = {id}"),
    )
    .await;
    assert_eq!(
        vote(&server, &members[0], v1, "approve", "").await.status(),
        422
    );
    record_issuer(&server, &staff, id).await;

    // A rejection needs its reason; each member votes once.
    let silent = vote(&server, &members[0], v1, "reject", "").await;
    assert_eq!(silent.status(), 422);
    assert!(
        silent
            .text()
            .await
            .unwrap()
            .contains("Ret gerekçesini yazın.")
    );
    assert_eq!(
        vote(&server, &members[0], v1, "approve", "Uygun.")
            .await
            .status(),
        303
    );
    assert_eq!(
        vote(&server, &members[0], v1, "reject", "Fikrimi değiştirdim.")
            .await
            .status(),
        409
    );
    let direct = sqlx::query("UPDATE committee_votes SET vote = 'reject'")
        .execute(&server.db().await)
        .await;
    assert!(
        direct.is_err(),
        "a vote cannot change in the database either"
    );
    assert_eq!(
        scalar(
            &server,
            &format!("SELECT COUNT(*) FROM committee_votes WHERE version_id = {v1}")
        )
        .await,
        1
    );

    assert_eq!(
        scalar(
            &server,
            &format!("SELECT published FROM startups WHERE id = {id}")
        )
        .await,
        0,
        "one approval of three is no majority"
    );
    assert_eq!(
        vote(&server, &members[1], v1, "approve", "Ben de.")
            .await
            .status(),
        303
    );
    let v2 = v1;

    // Approved by the majority: published, the information form generated for this version,
    // the minutes filed, the decision recorded, audited and on the staff round page.
    assert_eq!(
        scalar(
            &server,
            &format!("SELECT published FROM startups WHERE id = {id}")
        )
        .await,
        1
    );
    assert_eq!(
        scalar(
            &server,
            &format!("SELECT approved_version_id FROM startups WHERE id = {id}")
        )
        .await,
        v2
    );
    assert_eq!(scalar(&server, &format!("SELECT COUNT(*) FROM round_documents WHERE startup_id = {id} AND kind = 'information-form' AND version_id = {v2}")).await, 1);
    assert_eq!(scalar(&server, &format!("SELECT COUNT(*) FROM round_documents WHERE startup_id = {id} AND kind = 'committee-minutes'")).await, 1);
    assert_eq!(scalar(&server, &format!("SELECT COUNT(*) FROM committee_decisions WHERE version_id = {v2} AND outcome = 'approved'")).await, 1);
    assert_eq!(scalar(&server, &format!("SELECT COUNT(*) FROM audit_log WHERE action = 'campaign.decided' AND subject = 'startup:{id}'")).await, 1);
    let round = common::text(&staff, server.url(&format!("/dashboard/rounds/{id}"))).await;
    assert!(
        round.contains("Sürüm 1: Onaylandı") && round.contains("Ben de."),
        "{round}"
    );
    // The minutes are in the vault for staff, and not for investors.
    let minutes = scalar(
        &server,
        &format!(
            "SELECT id FROM round_documents WHERE startup_id = {id} AND kind = 'committee-minutes'"
        ),
    )
    .await;
    let url = server.url(&format!("/startups/komite-deneme/documents/{minutes}"));
    let (investor, _) = qualified_investor(&server, "okur@example.com", 302).await;
    assert_eq!(investor.get(&url).send().await.unwrap().status(), 404);
    // Investors read the information form from the startup's page.
    let form = scalar(
        &server,
        &format!(
            "SELECT id FROM round_documents WHERE startup_id = {id} AND kind = 'information-form'"
        ),
    )
    .await;
    let page = common::text(&investor, server.url("/startups/komite-deneme")).await;
    assert!(page.contains(&format!("/startups/komite-deneme/documents/{form}")));
    let pdf = investor
        .get(server.url(&format!("/startups/komite-deneme/documents/{form}")))
        .send()
        .await
        .unwrap();
    assert_eq!(pdf.headers()["content-type"], "application/pdf");
    // The decided version is closed to votes; a newer one, before the committee, locks the
    // draft, and votes on the old one stay refused: a stale version.
    assert_eq!(
        vote(&server, &members[2], v1, "approve", "").await.status(),
        409
    );
    assert_eq!(
        post_campaign(&server, &staff, &draft, &month_campaign(), "submit")
            .await
            .status(),
        303
    );
    let v3 = latest_version(&server, id).await;
    to_committee(&server, &staff, id, v3).await;
    assert_eq!(
        post_campaign(&server, &staff, &draft, &month_campaign(), "save")
            .await
            .status(),
        409,
        "the draft waits for the committee"
    );
    assert_eq!(
        vote(&server, &members[2], v1, "reject", "Eski sürüm.")
            .await
            .status(),
        409,
        "a stale version"
    );
    assert_eq!(
        vote(&server, &members[2], v3, "approve", "Uygun.")
            .await
            .status(),
        303
    );
    // The third member still sits on the committee page with nothing waiting.
    let list = common::text(&members[2], server.url("/dashboard/committee")).await;
    assert!(list.contains("Yatırım komitesi"));
    assert_eq!(COMMITTEE.len(), 3);
}

#[tokio::test]
async fn money_needs_the_approved_information_form_and_a_campaign_runs_sixty_days_at_most() {
    let clock = TempDir::new().unwrap();
    let server = start(&clock, &[]).await;
    let staff = sign_in(&server, "super@example.com", ADMIN_PASSWORD).await;
    let db = server.db().await;
    let demo = scalar(
        &server,
        "SELECT id FROM startups WHERE slug = 'cemre-enerji'",
    )
    .await;
    let user = scalar(
        &server,
        "SELECT id FROM users WHERE email = 'super@example.com'",
    )
    .await;

    // A request with no information form, or an older one, is impossible in the database.
    let insert = |form: &str| {
        format!(
            "INSERT INTO investment_requests (user_id, startup_id, kind, amount_kurus, fee_kurus,
                 fee_added, investment_kurus, total_kurus, risk_accepted_at, idempotency_key,
                 cancel_until, information_form_id)
             VALUES ({user}, {demo}, 'investment', 10000000, 250000, 1, 10000000, 10250000,
                 '2026-11-01T00:00:00Z', 'saldiri-{form}', '2026-11-03T00:00:00Z', {form})"
        )
    };
    for form in ["NULL", "-1"] {
        let refused = sqlx::query(&insert(form)).execute(&db).await;
        assert!(refused.is_err(), "a request with information form {form}");
    }
    // A round whose campaign is not approved takes no request, even with a form on file.
    let id = new_startup(&server, &staff, "Onaysız Tur", "onaysiz-tur").await;
    let (investor, token) = qualified_investor(&server, "para@example.com", 303).await;
    let sent = send_request(&server, &investor, &token, "onaysiz-tur", "100.000", "o-1").await;
    assert_eq!(sent.status(), 404, "not published, not there");
    let forced = sqlx::query(&insert("NULL").replace(
        &format!("{demo}, 'investment'"),
        &format!("{id}, 'investment'"),
    ))
    .execute(&db)
    .await;
    assert!(forced.is_err());

    // 60 days, first and last included, is the longest: the staff editor refuses the 61st day
    // of an unapproved campaign, the database any 61-day period set directly, and an extension
    // of a live one.
    let token = csrf(&staff, &server, &format!("/dashboard/startups/{id}")).await;
    let editor_fields = [
        ("name", "Onaysız Tur".to_owned()),
        ("slug", "onaysiz-tur".into()),
        ("sector", "fintech".into()),
        ("subcategory", "Ödeme".into()),
        ("fund", "1".into()),
        ("country", "Türkiye".into()),
        ("city", "İzmir".into()),
        ("stage", "seed".into()),
        ("description_tr", "Esnafa anında ödeme.".into()),
        ("description_en", "Instant payments for shopkeepers.".into()),
        ("goal", "3.000.000".into()),
        ("period_kind", "investment".into()),
        ("starts_on", today().to_string()),
        ("ends_on", (today() + Duration::days(60)).to_string()),
        ("vip_until", String::new()),
        ("team_size", "7".into()),
        (
            "founders",
            "Deniz Ak | CEO | https://example.com/deniz".into(),
        ),
        ("intent", "save".into()),
    ];
    let long = post_form(
        &staff,
        server.url(&format!("/dashboard/startups/{id}")),
        &token,
        &editor_fields,
    )
    .await;
    assert_eq!(long.status(), 422);
    assert!(
        long.text()
            .await
            .unwrap()
            .contains("Kampanya kuralların izin verdiğinden uzun")
    );
    let starts: String = sqlx::query_scalar("SELECT period_starts_on FROM startups WHERE id = ?")
        .bind(demo)
        .fetch_one(&db)
        .await
        .unwrap();
    let starts = Date::parse(
        &starts,
        time::macros::format_description!("[year]-[month]-[day]"),
    )
    .unwrap();
    let extended = sqlx::query("UPDATE startups SET period_ends_on = ? WHERE id = ?")
        .bind((starts + Duration::days(60)).to_string())
        .bind(demo)
        .execute(&db)
        .await;
    assert!(
        extended.unwrap_err().to_string().contains("days"),
        "a 61-day period set directly"
    );
    let moved = sqlx::query("UPDATE startups SET period_starts_on = ? WHERE id = ?")
        .bind((starts + Duration::days(1)).to_string())
        .bind(demo)
        .execute(&db)
        .await;
    assert!(moved.is_err(), "the first day is fixed once requests exist");
    // An extension through a new version is refused by the editor, before the committee.
    let draft = format!("/dashboard/startups/{demo}/campaign/draft");
    let extension = campaign_fields(3_000_000, starts, starts + Duration::days(60));
    let refused = post_campaign(&server, &staff, &draft, &extension, "submit").await;
    assert_eq!(refused.status(), 422);
    // The setting is the rule: with 30 days, the 31st is refused.
    let rule = scalar(
        &server,
        "SELECT value FROM platform_rules WHERE name = 'campaign_max_days'",
    )
    .await;
    assert_eq!(rule, 60);
}

#[tokio::test]
async fn the_campaign_length_follows_its_setting() {
    let clock = TempDir::new().unwrap();
    let server = start(&clock, &[("ORTAK_CAMPAIGN_MAX_DAYS", "30")]).await;
    let staff = sign_in(&server, "super@example.com", ADMIN_PASSWORD).await;
    let id = new_startup(&server, &staff, "Kısa Tur", "kisa-tur").await;
    assert_eq!(
        scalar(
            &server,
            "SELECT value FROM platform_rules WHERE name = 'campaign_max_days'"
        )
        .await,
        30
    );
    let draft = format!("/dashboard/startups/{id}/campaign/draft");
    let long = campaign_fields(3_000_000, today(), today() + Duration::days(30));
    assert_eq!(
        post_campaign(&server, &staff, &draft, &long, "submit")
            .await
            .status(),
        422
    );
    let fits = campaign_fields(3_000_000, today(), today() + Duration::days(29));
    assert_eq!(
        post_campaign(&server, &staff, &draft, &fits, "submit")
            .await
            .status(),
        303
    );
    let forced = sqlx::query("UPDATE startups SET period_ends_on = ? WHERE id = ?")
        .bind((today() + Duration::days(30)).to_string())
        .bind(id)
        .execute(&server.db().await)
        .await;
    assert!(forced.is_err());
}

#[tokio::test]
async fn an_early_close_waits_for_every_open_right_and_a_termination_tells_the_reason() {
    let clock = TempDir::new().unwrap();
    let offset = clock.path().join("offset");
    let server = start(&clock, &[("ORTAK_ROUND_SUCCESS_BP", "1000")]).await;
    let staff = sign_in(&server, "super@example.com", ADMIN_PASSWORD).await;
    let id = scalar(
        &server,
        "SELECT id FROM startups WHERE slug = 'kalkan-siber'",
    )
    .await;

    // A funds its request; B's is sent, inside its 48-hour cancellation window.
    let (a, ta) = qualified_investor(&server, "bir@example.com", 311).await;
    let (b, tb) = qualified_investor(&server, "iki@example.com", 312).await;
    assert_eq!(
        send_request(&server, &a, &ta, "kalkan-siber", "400.000", "e-a")
            .await
            .status(),
        303
    );
    let ra = request_of(&server, "bir@example.com").await;
    fund(&server, &a, &staff, ra, "400.000").await;
    assert_eq!(
        send_request(&server, &b, &tb, "kalkan-siber", "250.000", "e-b")
            .await
            .status(),
        303
    );
    let rb = request_of(&server, "iki@example.com").await;

    // The confirmation page says what will happen, in figures; a typed name that is not the
    // startup's changes nothing; admins cannot end a round.
    let page = common::text(&staff, server.url(&format!("/dashboard/rounds/{id}/close"))).await;
    assert!(
        page.contains("Kalkan Siber") && page.contains("Erken kapanışı planla"),
        "{page}"
    );
    let token = csrf(&staff, &server, &format!("/dashboard/rounds/{id}/close")).await;
    let wrong = post_form(
        &staff,
        server.url(&format!("/dashboard/rounds/{id}/close")),
        &token,
        &[("intent", "schedule".into()), ("name", "Başka".into())],
    )
    .await;
    assert_eq!(wrong.status(), 422);
    assert!(wrong.text().await.unwrap().contains("value=\"Başka\""));
    assert_eq!(
        scalar(
            &server,
            &format!("SELECT close_scheduled_at IS NULL FROM startups WHERE id = {id}")
        )
        .await,
        1
    );
    let admin = sign_in(&server, "admin@example.com", ADMIN_PASSWORD).await;
    let admin_token = csrf(&admin, &server, "/dashboard").await;
    let close = server.url(&format!("/dashboard/rounds/{id}/close"));
    let fields = [
        ("intent", "schedule".to_owned()),
        ("name", "Kalkan Siber".into()),
    ];
    assert_eq!(
        post_form(&admin, close, &admin_token, &fields)
            .await
            .status(),
        403
    );

    // Scheduled: not before B's window (and every open deadline) ends; investors are told now.
    assert_eq!(
        end_round_early(&server, &staff, id, "schedule")
            .await
            .status(),
        303
    );
    let at: String = sqlx::query_scalar("SELECT close_scheduled_at FROM startups WHERE id = ?")
        .bind(id)
        .fetch_one(&server.db().await)
        .await
        .unwrap();
    let until: String = sqlx::query_scalar("SELECT MAX(cancel_until) FROM investment_requests WHERE startup_id = ? AND status NOT IN ('cancelled', 'lapsed', 'rejected', 'refunded')").bind(id).fetch_one(&server.db().await).await.unwrap();
    assert!(at >= until, "scheduled {at}, after the last window {until}");
    let told = wait_for_count(&server, "SELECT COUNT(*) FROM outbox WHERE to_email IN ('bir@example.com', 'iki@example.com') AND subject LIKE '%erken kapanıyor%'", 2).await;
    assert_eq!(told, 2);
    assert_eq!(
        scalar(
            &server,
            "SELECT COUNT(*) FROM audit_log WHERE action = 'round.close.scheduled'"
        )
        .await,
        1
    );
    // The round takes no new request meanwhile.
    let (c, tc) = qualified_investor(&server, "uc@example.com", 313).await;
    assert_eq!(
        send_request(&server, &c, &tc, "kalkan-siber", "100.000", "e-c")
            .await
            .status(),
        409
    );
    // An hour on, B's window is still open: the round is open and B may still withdraw.
    set_clock(&offset, 3600);
    server.run_jobs().await;
    server.run_jobs().await;
    assert_eq!(
        scalar(
            &server,
            &format!("SELECT round_status = 'open' FROM startups WHERE id = {id}")
        )
        .await,
        1
    );
    assert_eq!(status_of(&server, rb).await, "submitted");
    // Past every right, the close happens as at a period's end: A is allocated.
    set_clock(&offset, 10 * 86_400);
    assert_eq!(
        wait_for_count(
            &server,
            &format!("SELECT COUNT(*) FROM startups WHERE id = {id} AND round_status = 'funded'"),
            1
        )
        .await,
        1
    );
    assert_eq!(status_of(&server, ra).await, "allocated");
    drop((b, c));

    // A termination needs a reason; it refunds as a failed round and mails the reason.
    let other = scalar(
        &server,
        "SELECT id FROM startups WHERE slug = 'cemre-enerji'",
    )
    .await;
    let (d, td) = qualified_investor(&server, "dort@example.com", 314).await;
    assert_eq!(
        send_request(&server, &d, &td, "cemre-enerji", "100.000", "t-d")
            .await
            .status(),
        303
    );
    let rd = request_of(&server, "dort@example.com").await;
    let name: String = sqlx::query_scalar("SELECT name FROM startups WHERE id = ?")
        .bind(other)
        .fetch_one(&server.db().await)
        .await
        .unwrap();
    let token = csrf(&staff, &server, &format!("/dashboard/rounds/{other}/close")).await;
    let silent = post_form(
        &staff,
        server.url(&format!("/dashboard/rounds/{other}/close")),
        &token,
        &[("intent", "terminate".into()), ("name", name.clone())],
    )
    .await;
    assert_eq!(silent.status(), 422);
    assert_eq!(
        scalar(
            &server,
            &format!("SELECT round_status = 'open' FROM startups WHERE id = {other}")
        )
        .await,
        1
    );
    assert_eq!(
        end_round_early(&server, &staff, other, "terminate")
            .await
            .status(),
        303
    );
    assert_eq!(
        wait_for_count(
            &server,
            &format!(
                "SELECT COUNT(*) FROM startups WHERE id = {other} AND round_status = 'failed'"
            ),
            1
        )
        .await,
        1
    );
    assert_ne!(status_of(&server, rd).await, "submitted");
    let mail = wait_for_count(&server, "SELECT COUNT(*) FROM outbox WHERE to_email = 'dort@example.com' AND text_body LIKE '%Girişim başvurusunu geri çekti.%'", 1).await;
    assert_eq!(mail, 1, "the investor reads why");
    assert_eq!(scalar(&server, &format!("SELECT COUNT(*) FROM audit_log WHERE action = 'round.terminate' AND subject = 'startup:{other}'")).await, 1);
    drop(d);
}

#[tokio::test]
async fn the_startup_page_shows_the_approved_terms_in_both_languages() {
    let clock = TempDir::new().unwrap();
    let server = start(&clock, &[]).await;
    let staff = sign_in(&server, "super@example.com", ADMIN_PASSWORD).await;
    let id = new_startup(&server, &staff, "Koşul Deneme", "kosul-deneme").await;
    record_issuer(&server, &staff, id).await;
    let members = committee_browsers(&server).await;
    run_campaign(&server, &staff, &members, id, &month_campaign()).await;
    // Campaign pages are for members (SPK: the platform's pages are read signed in).
    let (visitor, _) = qualified_investor(&server, "okuyucu@example.com", 331).await;
    let tr = common::text(&visitor, server.url("/startups/kosul-deneme")).await;
    for shown in [
        "Teklifin koşulları",
        "24.000.000 TL",
        "100 TL",
        "36.000",
        "2.400.000 TL",
        "3.000.000 TL",
        "Ürün geliştirme",
        "1.800.000 TL",
        "Temel veriler (2025)",
        "-300.000 TL",
        "Bilgi formunu okuyun",
        "https://vimeo.com/76979871",
    ] {
        assert!(tr.contains(shown), "{shown} on the Turkish page: {tr}");
    }
    // The video is a link to the video site: no third-party frame or script on the page.
    assert!(!tr.contains("<iframe") && !tr.contains("player.vimeo.com"));
    let en = common::text(&visitor, server.url("/startups/kosul-deneme?lang=en")).await;
    for shown in [
        "Terms of the offer",
        "24,000,000 TL",
        "Product development",
        "Read the information form",
    ] {
        assert!(en.contains(shown), "{shown} on the English page");
    }
}

#[tokio::test]
async fn founders_disclose_after_funding_staff_approve_and_overdue_fund_use_is_chased() {
    let clock = TempDir::new().unwrap();
    let offset = clock.path().join("offset");
    let server = start(&clock, &[]).await;
    let staff = sign_in(&server, "super@example.com", ADMIN_PASSWORD).await;
    let funded = scalar(
        &server,
        "SELECT id FROM startups WHERE round_status = 'funded' ORDER BY id LIMIT 1",
    )
    .await;
    let open = scalar(
        &server,
        "SELECT id FROM startups WHERE round_status = 'open' ORDER BY id LIMIT 1",
    )
    .await;
    let kurucu = founder(&server, &staff, funded, "aciklama@example.com").await;
    let path = format!("/vc-dashboard/startups/{funded}/disclosures");

    // Another startup's disclosures do not exist for this founder.
    let token = csrf(&kurucu, &server, &path).await;
    let foreign = format!("/vc-dashboard/startups/{open}/disclosures");
    assert_eq!(
        kurucu
            .get(server.url(&foreign))
            .send()
            .await
            .unwrap()
            .status(),
        404
    );
    let posted = post_form(
        &kurucu,
        server.url(&foreign),
        &token,
        &[("kind", "material-event".into())],
    )
    .await;
    assert_eq!(posted.status(), 404);

    // A fund-use report needs every line of the plan; the form comes back as typed.
    let plan = scalar(
        &server,
        &format!("SELECT json_array_length(use_of_funds) FROM startups WHERE id = {funded}"),
    )
    .await;
    assert!(plan >= 2, "the demo round has a plan");
    let mut fields = vec![
        ("kind", "fund-use".to_owned()),
        ("title_tr", "İlk altı ay".into()),
        ("title_en", "The first six months".into()),
        ("body_tr", "Ürün ekibi büyüdü.".into()),
        ("body_en", "The product team grew.".into()),
        ("spent_0", "120.000".into()),
    ];
    let refused = post_form(&kurucu, server.url(&path), &token, &fields).await;
    assert_eq!(refused.status(), 422);
    let html = refused.text().await.unwrap();
    assert!(html.contains("Lütfen geçerli bir sayı girin.") && html.contains("İlk altı ay"));
    assert_eq!(scalar(&server, "SELECT COUNT(*) FROM disclosures").await, 0);
    for i in 1..plan {
        fields.push((
            ["spent_1", "spent_2", "spent_3", "spent_4", "spent_5"][i as usize - 1],
            "0".into(),
        ));
    }
    assert_eq!(
        post_form(&kurucu, server.url(&path), &token, &fields)
            .await
            .status(),
        303
    );
    let disclosure = scalar(&server, "SELECT MAX(id) FROM disclosures").await;
    assert_eq!(
        scalar(
            &server,
            &format!("SELECT status = 'submitted' FROM disclosures WHERE id = {disclosure}")
        )
        .await,
        1
    );

    // Staff: returning needs a note; approving publishes it as the startup's update, mailed to
    // its followers; a decided disclosure cannot be decided again.
    let review = format!("/dashboard/disclosures/{disclosure}");
    let token = csrf(&staff, &server, "/dashboard/disclosures").await;
    let silent = post_form(
        &staff,
        server.url(&review),
        &token,
        &[("decision", "return".into())],
    )
    .await;
    assert_eq!(silent.status(), 422);
    let admin = sign_in(&server, "admin@example.com", ADMIN_PASSWORD).await;
    let admin_token = csrf(&admin, &server, "/dashboard/disclosures").await;
    assert_eq!(
        post_form(
            &admin,
            server.url(&review),
            &admin_token,
            &[("decision", "approve".into())]
        )
        .await
        .status(),
        303
    );
    assert_eq!(
        post_form(
            &staff,
            server.url(&review),
            &token,
            &[("decision", "return".into()), ("note", "Geç".into())]
        )
        .await
        .status(),
        409
    );
    let slug: String = sqlx::query_scalar("SELECT slug FROM startups WHERE id = ?")
        .bind(funded)
        .fetch_one(&server.db().await)
        .await
        .unwrap();
    let page = common::text(
        &investor_reader(&server).await,
        server.url(&format!("/startups/{slug}")),
    )
    .await;
    assert!(
        page.contains("İlk altı ay") && page.contains("120.000 TL"),
        "the update is on the page"
    );
    assert!(scalar(&server, &format!("SELECT COUNT(*) FROM startup_updates WHERE startup_id = {funded} AND body_en LIKE '%The first six months%'")).await == 1);
    // A kurucu's page shows it published, and the investor cannot post as a founder.
    let mine = common::text(&kurucu, server.url(&path)).await;
    assert!(mine.contains("Yayımlandı"));
    let (investor, itoken) = qualified_investor(&server, "izleyici@example.com", 321).await;
    assert_eq!(
        post_form(&investor, server.url(&path), &itoken, &fields)
            .await
            .status(),
        403
    );

    // Disclosures are for funded rounds only.
    let open_founder = founder(&server, &staff, open, "acik@example.com").await;
    let open_path = format!("/vc-dashboard/startups/{open}/disclosures");
    let token = csrf(&open_founder, &server, &open_path).await;
    let early = post_form(
        &open_founder,
        server.url(&open_path),
        &token,
        &with(fields.clone(), "kind", "material-event"),
    )
    .await;
    assert_eq!(early.status(), 422);

    // A year on, no fund-use report since the first: the second is overdue, chased once.
    set_clock(&offset, 400 * 86_400);
    let chased = wait_for_count(&server, "SELECT COUNT(*) FROM outbox WHERE to_email = 'aciklama@example.com' AND subject LIKE '%fon kullanım raporu gecikti%'", 1).await;
    assert_eq!(chased, 1);
    server.run_jobs().await;
    server.run_jobs().await;
    assert_eq!(scalar(&server, "SELECT COUNT(*) FROM outbox WHERE to_email = 'aciklama@example.com' AND subject LIKE '%fon kullanım raporu gecikti%'").await, 1, "once per due date");
    let kurucu = sign_in(&server, "aciklama@example.com", "gizli-sifre-123").await;
    let due = common::text(&kurucu, server.url(&path)).await;
    assert!(due.contains("verilmesi gereken fon kullanım raporu gönderilmedi"));
    drop(open_founder);
}
