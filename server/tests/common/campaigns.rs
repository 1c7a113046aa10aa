//! Steps the campaign tests share (issue 27): an investment committee of three staff members,
//! a complete campaign form, and a campaign taken from its draft through staff's review and
//! the committee's votes, over HTTP as staff and members do it.

use tempfile::TempDir;
use time::Date;

use super::journeys::{ADMIN_PASSWORD, create_admin, csrf, post_form, sign_in};
use super::{Server, exec, scalar};

/// The test committee's members (admins).
pub const COMMITTEE: [&str; 3] = [
    "komite-a@example.com",
    "komite-b@example.com",
    "komite-c@example.com",
];

/// Creates the committee's members (before the server starts).
pub fn create_committee(data: &TempDir) {
    for email in COMMITTEE {
        create_admin(data, email, false);
    }
}

/// Seats the test committee, and only it (the demo's members step down).
pub async fn seat_committee(server: &Server) {
    let list = COMMITTEE.map(|e| format!("'{e}'")).join(", ");
    exec(
        server,
        &format!(
            "UPDATE users SET committee_member = (email IN ({list})) WHERE role <> 'investor'"
        ),
    )
    .await;
}

/// Lira with Turkish thousands separators, as typed (`3.000.000`).
pub fn lira(amount: i64) -> String {
    let digits = amount.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push('.');
        }
        out.push(c);
    }
    out
}

/// A complete campaign raising `goal` lira from `starts` to `ends`: the target between a
/// minimum of 80% and a maximum of 120%, 100 TL shares enough for the maximum, the money split
/// over two lines.
pub fn campaign_fields(goal: i64, starts: Date, ends: Date) -> Vec<(&'static str, String)> {
    let product = goal / 10 * 6;
    vec![
        ("description_tr", "Anında ödeme altyapısı.".into()),
        ("description_en", "Instant payments.".into()),
        ("s_executive-summary_tr", "Güçlü bir ekip.".into()),
        ("s_executive-summary_en", "A strong team.".into()),
        ("goal", lira(goal)),
        ("minimum_raise", lira(goal / 10 * 8)),
        ("maximum_raise", lira(goal / 10 * 12)),
        ("pre_money_valuation", lira(goal * 8)),
        ("share_price", "100".into()),
        ("shares_offered", (goal / 10 * 12 / 100).to_string()),
        ("fund_tr_0", "Ürün geliştirme".into()),
        ("fund_en_0", "Product development".into()),
        ("fund_amount_0", lira(product)),
        ("fund_tr_1", "Pazarlama".into()),
        ("fund_en_1", "Marketing".into()),
        ("fund_amount_1", lira(goal - product)),
        ("starts_on", starts.to_string()),
        ("ends_on", ends.to_string()),
        ("financials_period", "2025".into()),
        ("revenue", "1.200.000".into()),
        ("net_income", "-300.000".into()),
        ("pitch_video", "https://vimeo.com/76979871".into()),
    ]
}

/// Records issuer facts within every limit (an anonim şirket, small, nothing raised before).
pub async fn record_issuer(server: &Server, staff: &reqwest::Client, startup: i64) {
    let page = format!("/dashboard/startups/{startup}/campaign");
    let token = csrf(staff, server, &page).await;
    let fields = [
        ("legal_form", "anonim".to_owned()),
        ("registry_number", "İstanbul 123456".into()),
        ("assets", "5.000.000".into()),
        ("revenue", "1.200.000".into()),
        ("raised_12m", "0".into()),
    ];
    let path = format!("/dashboard/startups/{startup}/issuer");
    let saved = post_form(staff, server.url(&path), &token, &fields).await;
    assert_eq!(saved.status(), 303, "the issuer's facts are recorded");
}

/// Posts the campaign editor at `path` with `intent` (`save` or `submit`); the response.
pub async fn post_campaign(
    server: &Server,
    editor: &reqwest::Client,
    path: &str,
    fields: &[(&'static str, String)],
    intent: &str,
) -> reqwest::Response {
    let token = csrf(editor, server, path).await;
    let mut fields = fields.to_vec();
    fields.push(("intent", intent.to_owned()));
    post_form(editor, server.url(path), &token, &fields).await
}

/// The startup's newest campaign version.
pub async fn latest_version(server: &Server, startup: i64) -> i64 {
    scalar(
        server,
        &format!("SELECT MAX(id) FROM campaign_versions WHERE startup_id = {startup}"),
    )
    .await
}

/// Staff pass `version` of `startup`'s campaign to the committee.
pub async fn to_committee(server: &Server, staff: &reqwest::Client, startup: i64, version: i64) {
    let token = csrf(
        staff,
        server,
        &format!("/dashboard/startups/{startup}/campaign"),
    )
    .await;
    let path = format!("/dashboard/campaigns/{version}/review");
    let sent = post_form(
        staff,
        server.url(&path),
        &token,
        &[("intent", "committee".into())],
    )
    .await;
    assert_eq!(
        sent.status(),
        303,
        "version {version} goes to the committee"
    );
}

/// A committee member's vote on `version`; the response.
pub async fn vote(
    server: &Server,
    member: &reqwest::Client,
    version: i64,
    vote: &str,
    note: &str,
) -> reqwest::Response {
    let token = csrf(member, server, "/dashboard/committee").await;
    let path = format!("/dashboard/committee/{version}/vote");
    let fields = [("vote", vote.to_owned()), ("note", note.to_owned())];
    post_form(member, server.url(&path), &token, &fields).await
}

/// Each committee member signed in.
pub async fn committee_browsers(server: &Server) -> Vec<reqwest::Client> {
    let mut out = Vec::new();
    for email in COMMITTEE {
        out.push(sign_in(server, email, ADMIN_PASSWORD).await);
    }
    out
}

/// The committee approves `version` (two of three votes make the majority).
pub async fn approve(server: &Server, members: &[reqwest::Client], version: i64) {
    for member in &members[..2] {
        let voted = vote(server, member, version, "approve", "Uygun.").await;
        assert_eq!(voted.status(), 303, "an approval of version {version}");
    }
    let status = scalar(
        server,
        &format!("SELECT status = 'approved' FROM campaign_versions WHERE id = {version}"),
    )
    .await;
    assert_eq!(status, 1, "version {version} is approved");
}

/// Staff write `startup`'s campaign and the committee approves it: submitted from staff's
/// draft, passed on, approved by two of the three members. Returns the version.
pub async fn run_campaign(
    server: &Server,
    staff: &reqwest::Client,
    members: &[reqwest::Client],
    startup: i64,
    fields: &[(&'static str, String)],
) -> i64 {
    let path = format!("/dashboard/startups/{startup}/campaign/draft");
    let sent = post_campaign(server, staff, &path, fields, "submit").await;
    assert_eq!(sent.status(), 303, "the campaign is submitted");
    let version = latest_version(server, startup).await;
    to_committee(server, staff, startup, version).await;
    approve(server, members, version).await;
    version
}
