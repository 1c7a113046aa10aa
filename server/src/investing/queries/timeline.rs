//! What the investor's timelines and holdings are built from: a request with its round and
//! what the ledger says of it, the request's history, and allocations with the latest
//! valuation of their startup.

use ortak_app::domain::investing::RequestStatus;
use ortak_app::domain::rounds::RoundStatus;
use ortak_app::domain::startups::PeriodKind;
use sqlx::{SqliteConnection, SqlitePool};
use time::{Date, OffsetDateTime};

/// A request as its timeline and card need it.
pub struct RequestRow {
    pub id: i64,
    pub slug: String,
    pub name: String,
    pub kind: PeriodKind,
    pub amount_kurus: i64,
    /// What goes to escrow, and the service fee.
    pub investment_kurus: i64,
    pub fee_kurus: i64,
    pub total_kurus: i64,
    pub status: RequestStatus,
    pub rejection_reason: Option<String>,
    pub created_at: OffsetDateTime,
    pub cancel_until: OffsetDateTime,
    pub fee_due_at: Option<OffsetDateTime>,
    pub transfer_due_at: Option<OffsetDateTime>,
    pub round: RoundStatus,
    pub ends_on: Date,
    /// The round's close decided it was funded (while closing, and once closed).
    pub round_funded: bool,
    pub fee_paid: bool,
    pub fee_refunded_at: Option<OffsetDateTime>,
    pub escrow_refunded_at: Option<OffsetDateTime>,
}

/// The request `id`.
pub async fn request(conn: &mut SqliteConnection, id: i64) -> sqlx::Result<RequestRow> {
    sqlx::query_as!(
        RequestRow,
        r#"SELECT r.id AS "id!", s.slug, s.name, r.kind AS "kind: PeriodKind", r.amount_kurus,
               r.investment_kurus, r.fee_kurus, r.total_kurus,
               r.status AS "status: RequestStatus", r.rejection_reason,
               r.created_at AS "created_at: OffsetDateTime",
               r.cancel_until AS "cancel_until: OffsetDateTime",
               r.fee_due_at AS "fee_due_at: OffsetDateTime",
               r.transfer_due_at AS "transfer_due_at: OffsetDateTime",
               s.round_status AS "round: RoundStatus", s.period_ends_on AS "ends_on: Date",
               COALESCE(s.close_outcome = 'funded', 0) AS "round_funded!: bool",
               EXISTS (SELECT 1 FROM money_events m WHERE m.request_id = r.id AND m.kind = 'fee_paid')
                   AS "fee_paid!: bool",
               (SELECT m.created_at FROM money_events m WHERE m.request_id = r.id AND m.kind = 'fee_refunded')
                   AS "fee_refunded_at?: OffsetDateTime",
               (SELECT m.created_at FROM money_events m WHERE m.request_id = r.id AND m.kind = 'escrow_refunded')
                   AS "escrow_refunded_at?: OffsetDateTime"
           FROM investment_requests r JOIN startups s ON s.id = r.startup_id WHERE r.id = ?"#,
        id
    )
    .fetch_one(conn)
    .await
}

/// The service fee of request `id`, in kuruş.
pub async fn fee_of(conn: &mut SqliteConnection, id: i64) -> sqlx::Result<i64> {
    sqlx::query_scalar!("SELECT fee_kurus FROM investment_requests WHERE id = ?", id)
        .fetch_one(conn)
        .await
}

/// The investor's requests that are not holdings (allocated ones are), newest first.
pub async fn pending_of(db: &SqlitePool, user: i64) -> sqlx::Result<Vec<RequestRow>> {
    sqlx::query_as!(
        RequestRow,
        r#"SELECT r.id AS "id!", s.slug, s.name, r.kind AS "kind: PeriodKind", r.amount_kurus,
               r.investment_kurus, r.fee_kurus, r.total_kurus,
               r.status AS "status: RequestStatus", r.rejection_reason,
               r.created_at AS "created_at: OffsetDateTime",
               r.cancel_until AS "cancel_until: OffsetDateTime",
               r.fee_due_at AS "fee_due_at: OffsetDateTime",
               r.transfer_due_at AS "transfer_due_at: OffsetDateTime",
               s.round_status AS "round: RoundStatus", s.period_ends_on AS "ends_on: Date",
               COALESCE(s.close_outcome = 'funded', 0) AS "round_funded!: bool",
               EXISTS (SELECT 1 FROM money_events m WHERE m.request_id = r.id AND m.kind = 'fee_paid')
                   AS "fee_paid!: bool",
               (SELECT m.created_at FROM money_events m WHERE m.request_id = r.id AND m.kind = 'fee_refunded')
                   AS "fee_refunded_at?: OffsetDateTime",
               (SELECT m.created_at FROM money_events m WHERE m.request_id = r.id AND m.kind = 'escrow_refunded')
                   AS "escrow_refunded_at?: OffsetDateTime"
           FROM investment_requests r JOIN startups s ON s.id = r.startup_id
           WHERE r.user_id = ? AND r.status <> 'allocated'
           ORDER BY r.created_at DESC, r.id DESC LIMIT 200"#,
        user
    )
    .fetch_all(db)
    .await
}

/// A step of a request's history.
pub struct Event {
    pub request_id: i64,
    pub status: String,
    pub created_at: OffsetDateTime,
}

pub async fn events(conn: &mut SqliteConnection, request: i64) -> sqlx::Result<Vec<Event>> {
    sqlx::query_as!(
        Event,
        r#"SELECT request_id, status, created_at AS "created_at: OffsetDateTime"
           FROM request_events WHERE request_id = ? ORDER BY id"#,
        request
    )
    .fetch_all(conn)
    .await
}

/// The history of every request of the investor.
pub async fn events_of(db: &SqlitePool, user: i64) -> sqlx::Result<Vec<Event>> {
    sqlx::query_as!(
        Event,
        r#"SELECT e.request_id, e.status, e.created_at AS "created_at: OffsetDateTime"
           FROM request_events e JOIN investment_requests r ON r.id = e.request_id
           WHERE r.user_id = ? ORDER BY e.id"#,
        user
    )
    .fetch_all(db)
    .await
}

/// An allocation, with the valuations of its startup.
pub struct HoldingRow {
    pub slug: String,
    pub name: String,
    pub sector: String,
    pub amount_kurus: i64,
    pub share_ppm: i64,
    pub allocated_at: OffsetDateTime,
    pub round_valuation_kurus: Option<i64>,
    pub valuation_kurus: Option<i64>,
    pub valuation_source: Option<String>,
    pub valued_on: Option<Date>,
}

/// The investor's allocations, newest first, each with its startup's latest valuation.
pub async fn holdings_of(db: &SqlitePool, user: i64) -> sqlx::Result<Vec<HoldingRow>> {
    sqlx::query_as!(
        HoldingRow,
        r#"SELECT s.slug, s.name, s.sector, a.amount_kurus AS "amount_kurus!: i64",
               COALESCE(r.share_ppm, 0) AS "share_ppm!: i64",
               a.created_at AS "allocated_at!: OffsetDateTime",
               s.round_valuation_kurus, v.valuation_kurus AS "valuation_kurus?",
               v.source AS "valuation_source?", v.valued_on AS "valued_on?: Date"
           FROM investment_requests r JOIN startups s ON s.id = r.startup_id
           JOIN money_events a ON a.request_id = r.id AND a.kind = 'allocated'
           LEFT JOIN startup_valuations v ON v.id = (
               SELECT id FROM startup_valuations WHERE startup_id = s.id
               ORDER BY valued_on DESC, id DESC LIMIT 1)
           WHERE r.user_id = ? AND r.status = 'allocated'
           ORDER BY a.created_at DESC, r.id DESC"#,
        user
    )
    .fetch_all(db)
    .await
}
