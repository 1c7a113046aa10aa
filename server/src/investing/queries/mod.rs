//! The SQL of investing: storing a request and its history here, the ledger in `ledger`,
//! moving requests in `moves`, the round jobs (closing, deadlines) in `rounds`, what
//! timelines and holdings are built from in `timeline`, the investor's overview and reports
//! in `portfolio`, MKK profiles and qualified-investor declarations in `profiles`. Statuses and
//! kinds decode into the domain's enums; times come from the caller (the injectable clock),
//! never from SQLite.

pub mod ledger;
pub mod moves;
pub mod portfolio;
pub mod profiles;
pub mod qualified;
pub mod reconfirmations;
pub mod rounds;
pub mod statements;
pub mod timeline;

use ortak_app::domain::investing::RequestStatus;
use ortak_app::domain::startups::PeriodKind;
use ortak_app::i18n::Locale;
use sqlx::SqliteConnection;
use time::OffsetDateTime;

/// A request ready to store.
pub struct NewRequest<'a> {
    pub user: i64,
    pub startup: i64,
    pub kind: PeriodKind,
    pub amount_kurus: i64,
    pub fee_kurus: i64,
    pub fee_added: bool,
    pub investment_kurus: i64,
    pub total_kurus: i64,
    pub risk_accepted_at: OffsetDateTime,
    /// The information form version the investor opened, when the round has one.
    pub information_form_id: Option<i64>,
    /// The verified class the request was made as (`individual`, `corporate`, `qualified`).
    pub investor_class: &'a str,
    /// The verified identity (`tckn:…`) the yearly limit counts it for.
    pub identity_key: &'a str,
    /// The yearly limit then; `None` when not capped.
    pub limit_kurus: Option<i64>,
    pub idempotency_key: &'a str,
    /// `Submitted`, or `Waitlisted` when the round is full.
    pub status: RequestStatus,
    pub now: OffsetDateTime,
    pub cancel_until: OffsetDateTime,
}

/// Stores the request unless its idempotency key was used before; returns the new id.
pub async fn insert_request(
    conn: &mut SqliteConnection,
    r: &NewRequest<'_>,
) -> sqlx::Result<Option<i64>> {
    sqlx::query_scalar!(
        "INSERT INTO investment_requests (user_id, startup_id, kind, amount_kurus, fee_kurus, fee_added,
             investment_kurus, total_kurus, risk_accepted_at, idempotency_key, status, created_at,
             updated_at, cancel_until, information_form_id, investor_class, identity_key, limit_kurus)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (idempotency_key) DO NOTHING RETURNING id AS \"id!\"",
        r.user,
        r.startup,
        r.kind,
        r.amount_kurus,
        r.fee_kurus,
        r.fee_added,
        r.investment_kurus,
        r.total_kurus,
        r.risk_accepted_at,
        r.idempotency_key,
        r.status,
        r.now,
        r.now,
        r.cancel_until,
        r.information_form_id,
        r.investor_class,
        r.identity_key,
        r.limit_kurus
    )
    .fetch_optional(conn)
    .await
}

/// Who sent the request with this idempotency key, if anyone.
pub async fn key_owner(conn: &mut SqliteConnection, key: &str) -> sqlx::Result<Option<i64>> {
    sqlx::query_scalar!(
        "SELECT user_id FROM investment_requests WHERE idempotency_key = ?",
        key
    )
    .fetch_optional(conn)
    .await
}

/// Adds a step to the request's history at `at`.
pub async fn insert_event(
    conn: &mut SqliteConnection,
    request: i64,
    status: RequestStatus,
    note: &str,
    actor: Option<i64>,
    at: OffsetDateTime,
) -> sqlx::Result<()> {
    sqlx::query!(
        "INSERT INTO request_events (request_id, status, note, actor_user_id, created_at)
         VALUES (?, ?, ?, ?, ?)",
        request,
        status,
        note,
        actor,
        at
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// Who sent a request, to write to them.
pub struct Investor {
    pub email: String,
    pub first_name: String,
    pub language: Locale,
}

pub async fn investor_of(conn: &mut SqliteConnection, request: i64) -> sqlx::Result<Investor> {
    sqlx::query_as!(
        Investor,
        r#"SELECT u.email, u.first_name, u.language AS "language: Locale" FROM investment_requests r
           JOIN users u ON u.id = r.user_id WHERE r.id = ?"#,
        request
    )
    .fetch_one(conn)
    .await
}
