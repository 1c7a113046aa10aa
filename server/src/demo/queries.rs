//! The SQL of the demo content: blog posts, funds, startups with their sections, history,
//! slides, reports and founders, academy events, and the check for an existing admin.

use sqlx::{SqliteConnection, SqlitePool};
use time::{Date, OffsetDateTime};

use crate::content::seed::Texts;

/// A blog post as the content files hold it.
pub struct NewPost<'a> {
    pub slug: &'a str,
    pub texts: Texts<'a>,
    pub published_at: OffsetDateTime,
}

/// Inserts the post unless one with its slug exists (staff edits are never overwritten).
pub async fn insert_post_if_missing(db: &SqlitePool, p: &NewPost<'_>) -> sqlx::Result<()> {
    sqlx::query!(
        "INSERT OR IGNORE INTO blog_posts
         (slug, title_tr, title_en, description_tr, description_en, body_tr, body_en, published_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        p.slug,
        p.texts.title_tr,
        p.texts.title_en,
        p.texts.description_tr,
        p.texts.description_en,
        p.texts.body_tr,
        p.texts.body_en,
        p.published_at
    )
    .execute(db)
    .await?;
    Ok(())
}

/// Whether any admin or superadmin who can sign in exists (the demo committee cannot).
pub async fn has_staff(db: &SqlitePool) -> sqlx::Result<bool> {
    sqlx::query_scalar!(
        r#"SELECT EXISTS (SELECT 1 FROM users WHERE role IN ('admin', 'superadmin')
                             AND password_hash IS NOT NULL) AS "any!: bool""#
    )
    .fetch_one(db)
    .await
}

/// Whether any startup exists (the demo's startups are only added to an empty catalogue).
pub async fn has_startups(db: &SqlitePool) -> sqlx::Result<bool> {
    sqlx::query_scalar!(r#"SELECT EXISTS (SELECT 1 FROM startups) AS "any!: bool""#)
        .fetch_one(db)
        .await
}

pub async fn insert_fund(
    conn: &mut SqliteConnection,
    slug: &str,
    name: &str,
    description_tr: &str,
    description_en: &str,
) -> sqlx::Result<i64> {
    sqlx::query_scalar!(
        "INSERT INTO funds (slug, name, description_tr, description_en) VALUES (?, ?, ?, ?)
         RETURNING id",
        slug,
        name,
        description_tr,
        description_en
    )
    .fetch_one(conn)
    .await
}

/// A demo startup's catalogue row.
pub struct NewStartup<'a> {
    pub slug: &'a str,
    pub name: &'a str,
    pub sort_key_tr: String,
    pub sort_key_en: String,
    pub sector: &'a str,
    pub fund_id: i64,
    pub city: &'a str,
    pub description_tr: &'a str,
    pub description_en: &'a str,
    pub website: String,
    pub instagram: String,
    pub team_size: i64,
    pub established_on: Date,
    pub stage: &'a str,
    pub funding_goal_kurus: i64,
    pub period_kind: &'a str,
    pub period_starts_on: Date,
    pub period_ends_on: Date,
    pub valuation_usd: i64,
    pub amount_sought_usd: i64,
    pub created_at: OffsetDateTime,
}

pub async fn insert_startup(conn: &mut SqliteConnection, s: &NewStartup<'_>) -> sqlx::Result<i64> {
    sqlx::query_scalar!(
        r#"INSERT INTO startups (slug, name, sort_key_tr, sort_key_en, sector, fund_id, city,
             description_tr, description_en, website, instagram, team_size, established_on, stage,
             funding_goal_kurus, period_kind, period_starts_on, period_ends_on, valuation_usd,
             amount_sought_usd, created_at, published)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0)
         RETURNING id AS "id!""#,
        s.slug,
        s.name,
        s.sort_key_tr,
        s.sort_key_en,
        s.sector,
        s.fund_id,
        s.city,
        s.description_tr,
        s.description_en,
        s.website,
        s.instagram,
        s.team_size,
        s.established_on,
        s.stage,
        s.funding_goal_kurus,
        s.period_kind,
        s.period_starts_on,
        s.period_ends_on,
        s.valuation_usd,
        s.amount_sought_usd,
        s.created_at
    )
    .fetch_one(conn)
    .await
}

pub async fn insert_accelerator(
    conn: &mut SqliteConnection,
    startup_id: i64,
    attended_on: Date,
    program: &str,
    country: &str,
) -> sqlx::Result<()> {
    sqlx::query!(
        "INSERT INTO startup_accelerators (startup_id, attended_on, program, country)
         VALUES (?, ?, ?, ?)",
        startup_id,
        attended_on,
        program,
        country
    )
    .execute(conn)
    .await?;
    Ok(())
}

pub async fn insert_prior_round(
    conn: &mut SqliteConnection,
    startup_id: i64,
    raised_on: Date,
    investors: &str,
    amount_usd: i64,
) -> sqlx::Result<()> {
    sqlx::query!(
        "INSERT INTO startup_prior_rounds (startup_id, raised_on, investors, amount_usd)
         VALUES (?, ?, ?, ?)",
        startup_id,
        raised_on,
        investors,
        amount_usd
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// A presentation page: an SVG slide stored as `file`.
pub async fn insert_slide(
    conn: &mut SqliteConnection,
    startup_id: i64,
    position: i64,
    file: &str,
) -> sqlx::Result<()> {
    sqlx::query!(
        "INSERT INTO startup_pages (startup_id, position, file_name, content_type)
         VALUES (?, ?, ?, 'image/svg+xml')",
        startup_id,
        position,
        file
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// A quarterly report whose PDF is stored as `file_name`.
pub struct NewReport<'a> {
    pub startup_id: i64,
    pub quarter: &'a str,
    pub title_tr: String,
    pub title_en: String,
    pub summary_tr: String,
    pub summary_en: String,
    pub file_name: String,
    pub published_at: OffsetDateTime,
}

pub async fn insert_report(conn: &mut SqliteConnection, r: &NewReport<'_>) -> sqlx::Result<()> {
    sqlx::query!(
        "INSERT INTO reports (startup_id, quarter, title_tr, title_en, summary_tr, summary_en,
             file_name, published_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        r.startup_id,
        r.quarter,
        r.title_tr,
        r.title_en,
        r.summary_tr,
        r.summary_en,
        r.file_name,
        r.published_at
    )
    .execute(conn)
    .await?;
    Ok(())
}

pub async fn insert_founder(
    conn: &mut SqliteConnection,
    startup_id: i64,
    position: i64,
    name: &str,
    title: &str,
) -> sqlx::Result<()> {
    sqlx::query!(
        "INSERT INTO founders (startup_id, position_order, name, title) VALUES (?, ?, ?, ?)",
        startup_id,
        position,
        name,
        title
    )
    .execute(conn)
    .await?;
    Ok(())
}

pub async fn insert_academy_event(
    conn: &mut SqliteConnection,
    title_tr: &str,
    title_en: &str,
    starts_at: OffsetDateTime,
) -> sqlx::Result<()> {
    sqlx::query!(
        "INSERT INTO academy_events (title_tr, title_en, starts_at) VALUES (?, ?, ?)",
        title_tr,
        title_en,
        starts_at
    )
    .execute(conn)
    .await?;
    Ok(())
}

// Demo rounds: investors and their requests, stepped through the same states, ledger rows and
// history the platform writes (the database's triggers check every step).

/// A demo investor: a verified account without a password (it cannot sign in).
pub async fn insert_investor(
    conn: &mut SqliteConnection,
    email: &str,
    first_name: &str,
    last_name: &str,
    now: OffsetDateTime,
) -> sqlx::Result<i64> {
    sqlx::query_scalar!(
        r#"INSERT INTO users (email, first_name, last_name, role, language, email_verified_at,
               investor_type, created_at, updated_at)
           VALUES (?, ?, ?, 'investor', 'tr', ?, 'individual', ?, ?) RETURNING id AS "id!""#,
        email,
        first_name,
        last_name,
        now,
        now,
        now
    )
    .fetch_one(conn)
    .await
}

/// A member of the demo investment committee: staff without a password (cannot sign in).
pub async fn insert_committee_member(
    conn: &mut SqliteConnection,
    email: &str,
    first_name: &str,
    last_name: &str,
    now: OffsetDateTime,
) -> sqlx::Result<()> {
    sqlx::query!(
        "INSERT INTO users (email, first_name, last_name, role, language, email_verified_at,
             committee_member, created_at, updated_at)
         VALUES (?, ?, ?, 'admin', 'tr', ?, 1, ?, ?)",
        email,
        first_name,
        last_name,
        now,
        now,
        now
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// A demo investor's verified MKK record (an individual citizen with `tckn`) and verified
/// qualified-investor declaration (evidence `evidence` under the data folder).
pub async fn insert_verified_investor(
    conn: &mut SqliteConnection,
    user: i64,
    tckn: &str,
    evidence: &str,
    now: OffsetDateTime,
) -> sqlx::Result<()> {
    sqlx::query!(
        "INSERT INTO mkk_profiles (user_id, investor_type, turkish_citizen, id_type, first_name, last_name,
             email, phone, annual_income_kurus, identity_number, birth_date, status, verified_by,
             submitted_at, reviewed_at)
         SELECT id, 'individual', 1, 'tckn', first_name, last_name, email, '+905321234567', 300000000,
             ?, '1980-01-01', 'verified', 'staff', ?, ? FROM users WHERE id = ?",
        tckn,
        now,
        now,
        user
    )
    .execute(&mut *conn)
    .await?;
    sqlx::query!(
        "INSERT INTO qualified_declarations (user_id, basis, evidence_file, evidence_type, status,
             submitted_at, reviewed_at)
         VALUES (?, 'assets', ?, 'pdf', 'verified', ?, ?)",
        user,
        evidence,
        now,
        now
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// A demo request, sent at `at` (the fee is 2.5%, added on top).
pub struct DemoRequest<'a> {
    pub user: i64,
    pub startup: i64,
    pub kind: &'a str,
    pub amount_kurus: i64,
    pub key: String,
    pub waitlisted: bool,
    pub at: OffsetDateTime,
}

pub async fn insert_request(conn: &mut SqliteConnection, r: &DemoRequest<'_>) -> sqlx::Result<i64> {
    let fee = r.amount_kurus / 40;
    let total = r.amount_kurus + fee;
    let status = if r.waitlisted {
        "waitlisted"
    } else {
        "submitted"
    };
    let cancel_until = r.at + time::Duration::hours(48);
    sqlx::query_scalar!(
        r#"INSERT INTO investment_requests (user_id, startup_id, kind, amount_kurus, fee_kurus, fee_added,
               investment_kurus, total_kurus, status, risk_accepted_at, idempotency_key, created_at,
               updated_at, cancel_until, investor_class, identity_key, information_form_id)
           SELECT ?, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?, ?, ?, ?, 'qualified', m.id_type || ':' || m.identity_number,
               (SELECT MAX(d.id) FROM round_documents d WHERE d.startup_id = ? AND d.kind = 'information-form')
           FROM mkk_profiles m WHERE m.user_id = ?
           RETURNING id AS "id!""#,
        r.user,
        r.startup,
        r.kind,
        r.amount_kurus,
        fee,
        r.amount_kurus,
        total,
        status,
        r.at,
        r.key,
        r.at,
        r.at,
        cancel_until,
        r.startup,
        r.user
    )
    .fetch_one(conn)
    .await
}

pub async fn insert_event(
    conn: &mut SqliteConnection,
    request: i64,
    status: &str,
    note: &str,
    at: OffsetDateTime,
) -> sqlx::Result<()> {
    sqlx::query!(
        "INSERT INTO request_events (request_id, status, note, created_at) VALUES (?, ?, ?, ?)",
        request,
        status,
        note,
        at
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// Moves a demo request; the deadlines and share are kept when not given.
pub struct DemoMove<'a> {
    pub request: i64,
    pub to: &'a str,
    pub at: OffsetDateTime,
    pub fee_due_at: Option<OffsetDateTime>,
    pub transfer_due_at: Option<OffsetDateTime>,
    pub fee_paid_at: Option<OffsetDateTime>,
    pub share_ppm: Option<i64>,
}

pub async fn move_request(conn: &mut SqliteConnection, m: &DemoMove<'_>) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE investment_requests SET status = ?, updated_at = ?,
             fee_due_at = COALESCE(?, fee_due_at), transfer_due_at = COALESCE(?, transfer_due_at),
             fee_paid_at = COALESCE(?, fee_paid_at), share_ppm = COALESCE(?, share_ppm)
         WHERE id = ?",
        m.to,
        m.at,
        m.fee_due_at,
        m.transfer_due_at,
        m.fee_paid_at,
        m.share_ppm,
        m.request
    )
    .execute(conn)
    .await?;
    Ok(())
}

pub async fn insert_money(
    conn: &mut SqliteConnection,
    request: i64,
    kind: &str,
    amount_kurus: i64,
    reference: &str,
    at: OffsetDateTime,
) -> sqlx::Result<()> {
    sqlx::query!(
        "INSERT INTO money_events (request_id, kind, amount_kurus, reference, note, created_at)
         VALUES (?, ?, ?, ?, 'demo', ?)",
        request,
        kind,
        amount_kurus,
        reference,
        at
    )
    .execute(conn)
    .await?;
    Ok(())
}

pub async fn insert_transfer(
    conn: &mut SqliteConnection,
    request: i64,
    reference: &str,
    payer_name: &str,
    iban: &str,
    amount_kurus: i64,
    at: OffsetDateTime,
) -> sqlx::Result<()> {
    sqlx::query!(
        "INSERT INTO bank_transfers (request_id, reference, payer_name, address, country, city, post_code,
             phone, amount_kurus, payer_iban, created_at)
         VALUES (?, ?, ?, 'Demo Cad. 1', 'Türkiye', 'İstanbul', '34000', '+905321234567', ?, ?, ?)",
        request,
        reference,
        payer_name,
        amount_kurus,
        iban,
        at
    )
    .execute(conn)
    .await?;
    Ok(())
}

pub async fn note_receipt(
    conn: &mut SqliteConnection,
    request: i64,
    amount_kurus: i64,
    on: Date,
) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE bank_transfers SET received_amount_kurus = ?, received_at = ? WHERE request_id = ?",
        amount_kurus,
        on,
        request
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// Marks a demo round closed (its requests are settled first).
pub async fn close_round(
    conn: &mut SqliteConnection,
    startup: i64,
    funded: bool,
    total_kurus: i64,
    at: OffsetDateTime,
) -> sqlx::Result<()> {
    let outcome = if funded { "funded" } else { "failed" };
    sqlx::query!(
        "UPDATE startups SET round_status = ?1, close_outcome = ?1, closing_total_kurus = ?2,
             closing_started_at = ?3, closed_at = ?3, funded = ?4,
             closing_investors = (SELECT COUNT(DISTINCT user_id) FROM investment_requests
                                  WHERE startup_id = ?5 AND status IN ('allocated', 'refunded'))
         WHERE id = ?5",
        outcome,
        total_kurus,
        at,
        funded,
        startup
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// What staff would record for a demo round: the round's valuation, the lead fund's
/// commitment, and a later valuation.
pub async fn round_figures(
    conn: &mut SqliteConnection,
    startup: i64,
    round_valuation_kurus: i64,
    lead_commitment_kurus: i64,
) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE startups SET round_valuation_kurus = ?, lead_commitment_kurus = ? WHERE id = ?",
        round_valuation_kurus,
        lead_commitment_kurus,
        startup
    )
    .execute(conn)
    .await?;
    Ok(())
}

pub async fn insert_valuation(
    conn: &mut SqliteConnection,
    startup: i64,
    valuation_kurus: i64,
    on: Date,
    source: &str,
    at: OffsetDateTime,
) -> sqlx::Result<()> {
    sqlx::query!(
        "INSERT INTO startup_valuations (startup_id, valuation_kurus, valued_on, source, created_at)
         VALUES (?, ?, ?, ?, ?)",
        startup,
        valuation_kurus,
        on,
        source,
        at
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// The longest campaign the rules allow, in days (`db::rules`).
pub async fn campaign_max_days(conn: &mut SqliteConnection) -> sqlx::Result<i64> {
    sqlx::query_scalar!("SELECT value FROM platform_rules WHERE name = 'campaign_max_days'")
        .fetch_one(conn)
        .await
}
