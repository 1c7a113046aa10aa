//! The SQL of the investment requests sections (`staff/investments.rs`): the lists, one
//! request with its history, and staff noting that they contacted the investor. Status moves
//! themselves are `investing::staff_transition`.

use ortak_app::domain::investing::RequestStatus;
use ortak_app::domain::startups::PeriodKind;
use sqlx::{SqliteConnection, SqlitePool};
use time::OffsetDateTime;

use ortak_app::i18n::Locale;

use super::recipients::Recipient;

/// A row of `/dashboard/investments` or `/dashboard/pre-investments`.
pub struct ListedRequest {
    pub id: i64,
    pub investor: String,
    pub startup: String,
    pub amount_kurus: i64,
    pub status: RequestStatus,
    pub created_at: OffsetDateTime,
}

/// The latest 2,000 requests of `kind`, newest first.
pub async fn requests(db: &SqlitePool, kind: PeriodKind) -> sqlx::Result<Vec<ListedRequest>> {
    let kind = kind.code();
    sqlx::query_as!(
        ListedRequest,
        r#"SELECT r.id AS "id!", u.email AS investor, s.name AS startup, r.amount_kurus,
                r.status AS "status: RequestStatus", r.created_at AS "created_at: OffsetDateTime"
         FROM investment_requests r JOIN users u ON u.id = r.user_id
         JOIN startups s ON s.id = r.startup_id
         WHERE r.kind = ? ORDER BY r.created_at DESC, r.id DESC LIMIT 2000"#,
        kind
    )
    .fetch_all(db)
    .await
}

pub async fn kind(db: &SqlitePool, id: i64) -> sqlx::Result<PeriodKind> {
    sqlx::query_scalar!(
        r#"SELECT kind AS "kind: PeriodKind" FROM investment_requests WHERE id = ?"#,
        id
    )
    .fetch_one(db)
    .await
}

/// What the request's page states.
pub struct RequestFacts {
    pub email: String,
    pub name: String,
    pub startup: String,
    pub kind: PeriodKind,
    pub amount_kurus: i64,
    pub fee_kurus: i64,
    pub total_kurus: i64,
    pub status: RequestStatus,
    pub rejection_reason: Option<String>,
    /// The bank transfer's reference, once the investor chose to pay by transfer.
    pub reference: Option<String>,
    pub user_id: i64,
    /// What the request was made as (the verified snapshot): class, identity, yearly limit.
    pub investor_class: Option<String>,
    pub identity_key: Option<String>,
    pub limit_kurus: Option<i64>,
}

pub async fn request(db: &SqlitePool, id: i64) -> sqlx::Result<Option<RequestFacts>> {
    sqlx::query_as!(
        RequestFacts,
        r#"SELECT u.email, u.first_name || ' ' || u.last_name AS "name!: String",
                s.name AS startup, r.kind AS "kind: PeriodKind", r.amount_kurus,
                r.fee_kurus, r.total_kurus, r.status AS "status: RequestStatus",
                r.rejection_reason, b.reference AS "reference?", r.user_id, r.investor_class,
                r.identity_key, r.limit_kurus
         FROM investment_requests r JOIN users u ON u.id = r.user_id
         JOIN startups s ON s.id = r.startup_id
         LEFT JOIN bank_transfers b ON b.request_id = r.id WHERE r.id = ?"#,
        id
    )
    .fetch_optional(db)
    .await
}

/// One step of a request's history: a status, or `contacted`.
pub struct RequestEvent {
    pub created_at: OffsetDateTime,
    pub status: String,
    pub note: String,
    /// The staff member's address (none for the investor's own steps).
    pub by: Option<String>,
}

pub async fn events(db: &SqlitePool, id: i64) -> sqlx::Result<Vec<RequestEvent>> {
    sqlx::query_as!(
        RequestEvent,
        r#"SELECT e.created_at AS "created_at: OffsetDateTime", e.status, e.note,
                u.email AS "by?"
         FROM request_events e LEFT JOIN users u ON u.id = e.actor_user_id
         WHERE e.request_id = ? ORDER BY e.id"#,
        id
    )
    .fetch_all(db)
    .await
}

/// A request's status and kind, and its investor.
pub struct ContactedRequest {
    pub status: RequestStatus,
    pub kind: PeriodKind,
    pub investor: Recipient,
}

pub async fn contacted_request(
    conn: &mut SqliteConnection,
    id: i64,
) -> sqlx::Result<Option<ContactedRequest>> {
    let row = sqlx::query!(
        r#"SELECT r.status AS "status: RequestStatus", r.kind AS "kind: PeriodKind",
                u.email, u.first_name, u.language AS "language: Locale"
         FROM investment_requests r JOIN users u ON u.id = r.user_id WHERE r.id = ?"#,
        id
    )
    .fetch_optional(conn)
    .await?;
    Ok(row.map(|r| ContactedRequest {
        status: r.status,
        kind: r.kind,
        investor: Recipient {
            email: r.email,
            first_name: r.first_name,
            language: r.language,
        },
    }))
}

/// Adds `contacted` to the request's history, with staff's note on how.
pub async fn record_contacted(
    conn: &mut SqliteConnection,
    id: i64,
    note: &str,
    actor: i64,
    now: OffsetDateTime,
) -> sqlx::Result<()> {
    sqlx::query!(
        "INSERT INTO request_events (request_id, status, note, actor_user_id, created_at)
         VALUES (?, 'contacted', ?, ?, ?)",
        id,
        note,
        actor,
        now
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// A money move of the request (the ledger).
pub struct MoneyMove {
    pub kind: String,
    pub amount_kurus: i64,
    pub reference: String,
    pub created_at: OffsetDateTime,
}

pub async fn ledger(db: &SqlitePool, id: i64) -> sqlx::Result<Vec<MoneyMove>> {
    sqlx::query_as!(
        MoneyMove,
        r#"SELECT kind, amount_kurus, reference, created_at AS "created_at: OffsetDateTime"
           FROM money_events WHERE request_id = ? ORDER BY id"#,
        id
    )
    .fetch_all(db)
    .await
}
