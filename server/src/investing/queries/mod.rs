//! The SQL of investing: investment requests and their events here, the investor's overview
//! and reports in `portfolio`, MKK profiles and qualified-investor declarations in
//! `profiles`. Statuses and kinds decode into the domain's enums; times come from the caller
//! (the injectable clock), never from SQLite.

pub mod portfolio;
pub mod profiles;
pub mod qualified;

use ortak_app::domain::investing::RequestStatus;
use ortak_app::domain::startups::PeriodKind;
use sqlx::{SqliteConnection, SqlitePool};
use time::OffsetDateTime;

use ortak_app::i18n::Locale;

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
    pub idempotency_key: &'a str,
}

/// Stores the request unless its idempotency key was used before; returns the new id.
pub async fn insert_request(
    conn: &mut SqliteConnection,
    r: &NewRequest<'_>,
) -> sqlx::Result<Option<i64>> {
    sqlx::query_scalar!(
        "INSERT INTO investment_requests (user_id, startup_id, kind, amount_kurus, fee_kurus, fee_added,
             investment_kurus, total_kurus, risk_accepted_at, idempotency_key)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
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
        r.idempotency_key
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

pub async fn insert_event(
    conn: &mut SqliteConnection,
    request: i64,
    status: RequestStatus,
    note: &str,
    actor: Option<i64>,
) -> sqlx::Result<()> {
    sqlx::query!(
        "INSERT INTO request_events (request_id, status, note, actor_user_id) VALUES (?, ?, ?, ?)",
        request,
        status,
        note,
        actor
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// A request in the investor's lists.
pub struct ListedRequest {
    pub id: i64,
    pub slug: String,
    pub name: String,
    pub kind: PeriodKind,
    pub amount_kurus: i64,
    pub total_kurus: i64,
    pub status: RequestStatus,
    pub created_at: OffsetDateTime,
}

/// The investor's completed requests, or all the others; newest first.
pub async fn requests_of(
    db: &SqlitePool,
    user: i64,
    completed: bool,
) -> sqlx::Result<Vec<ListedRequest>> {
    sqlx::query_as!(
        ListedRequest,
        r#"SELECT r.id AS "id!", s.slug, s.name, r.kind AS "kind: PeriodKind", r.amount_kurus, r.total_kurus,
               r.status AS "status: RequestStatus", r.created_at AS "created_at: OffsetDateTime"
           FROM investment_requests r JOIN startups s ON s.id = r.startup_id
           WHERE r.user_id = ? AND (r.status = 'completed') = ? ORDER BY r.created_at DESC, r.id DESC"#,
        user,
        completed
    )
    .fetch_all(db)
    .await
}

/// The status of `user`'s own request `id` (another's is as missing as one that is not).
pub async fn own_status(
    conn: &mut SqliteConnection,
    id: i64,
    user: i64,
) -> sqlx::Result<Option<RequestStatus>> {
    sqlx::query_scalar!(
        r#"SELECT status AS "status: RequestStatus" FROM investment_requests WHERE id = ? AND user_id = ?"#,
        id,
        user
    )
    .fetch_optional(conn)
    .await
}

pub async fn status(conn: &mut SqliteConnection, id: i64) -> sqlx::Result<Option<RequestStatus>> {
    sqlx::query_scalar!(
        r#"SELECT status AS "status: RequestStatus" FROM investment_requests WHERE id = ?"#,
        id
    )
    .fetch_optional(conn)
    .await
}

/// The investor withdraws request `id`.
pub async fn cancel(conn: &mut SqliteConnection, id: i64, now: OffsetDateTime) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE investment_requests SET status = 'cancelled', updated_at = ? WHERE id = ?",
        now,
        id
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// Moves request `id` to `to` as staff do; the rejection reason is kept only for a rejection.
pub async fn set_status(
    conn: &mut SqliteConnection,
    id: i64,
    to: RequestStatus,
    rejection_reason: Option<&str>,
    now: OffsetDateTime,
) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE investment_requests SET status = ?, rejection_reason = ?, updated_at = ? WHERE id = ?",
        to,
        rejection_reason,
        now,
        id
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
