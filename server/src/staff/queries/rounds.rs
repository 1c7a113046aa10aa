//! The SQL of the staff's round pages (`staff/rounds.rs`): every round with its figures from
//! the ledger, one round with its deadlines, valuations and refunds, and what staff record
//! beside the ledger (the lead fund's commitment, amounts raised outside the platform, the
//! round's valuation and later valuations).

use ortak_app::domain::rounds::RoundStatus;
use ortak_app::domain::startups::PeriodKind;
use sqlx::{SqliteConnection, SqlitePool};
use time::{Date, OffsetDateTime};

/// A round as the list and the round page show it.
pub struct Round {
    pub id: i64,
    pub name: String,
    pub slug: String,
    pub status: RoundStatus,
    pub period_kind: PeriodKind,
    pub period_ends_on: Date,
    pub goal_kurus: i64,
    /// Received in escrow (the ledger).
    pub raised_kurus: i64,
    pub investor_count: i64,
    /// Committed, not yet received.
    pub committed_kurus: i64,
    pub waitlisted_kurus: i64,
    pub waitlisted: i64,
    pub lead_commitment_kurus: i64,
    pub outside_raised_kurus: i64,
    pub outside_raised_note: String,
    pub round_valuation_kurus: Option<i64>,
    pub closing_started_at: Option<OffsetDateTime>,
    pub closed_at: Option<OffsetDateTime>,
    /// What escrow held at the close, and from how many investors.
    pub closing_total_kurus: Option<i64>,
    pub closing_investors: Option<i64>,
}

/// Every round, those ending soonest first.
pub async fn list(db: &SqlitePool) -> sqlx::Result<Vec<Round>> {
    sqlx::query_as!(
        Round,
        r#"SELECT s.id AS "id!", s.name, s.slug, s.round_status AS "status: RoundStatus",
               s.period_kind AS "period_kind: PeriodKind", s.period_ends_on AS "period_ends_on: Date",
               s.funding_goal_kurus AS goal_kurus, s.raised_kurus, s.investor_count,
               COALESCE(SUM(CASE WHEN r.status IN ('submitted', 'under_review', 'approved', 'fee_paid')
                                 THEN r.investment_kurus END), 0) AS "committed_kurus!: i64",
               COALESCE(SUM(CASE WHEN r.status = 'waitlisted' THEN r.investment_kurus END), 0)
                   AS "waitlisted_kurus!: i64",
               COUNT(CASE WHEN r.status = 'waitlisted' THEN 1 END) AS "waitlisted!: i64",
               s.lead_commitment_kurus, s.outside_raised_kurus, s.outside_raised_note,
               s.round_valuation_kurus, s.closing_started_at AS "closing_started_at: OffsetDateTime",
               s.closed_at AS "closed_at: OffsetDateTime", s.closing_total_kurus,
               s.closing_investors
           FROM startups s LEFT JOIN investment_requests r ON r.startup_id = s.id
           GROUP BY s.id ORDER BY s.round_status = 'open' DESC, s.period_ends_on, s.id LIMIT 2000"#
    )
    .fetch_all(db)
    .await
}

/// One round.
pub async fn round(db: &SqlitePool, id: i64) -> sqlx::Result<Option<Round>> {
    sqlx::query_as!(
        Round,
        r#"SELECT s.id AS "id!", s.name, s.slug, s.round_status AS "status: RoundStatus",
               s.period_kind AS "period_kind: PeriodKind", s.period_ends_on AS "period_ends_on: Date",
               s.funding_goal_kurus AS goal_kurus, s.raised_kurus, s.investor_count,
               COALESCE(SUM(CASE WHEN r.status IN ('submitted', 'under_review', 'approved', 'fee_paid')
                                 THEN r.investment_kurus END), 0) AS "committed_kurus!: i64",
               COALESCE(SUM(CASE WHEN r.status = 'waitlisted' THEN r.investment_kurus END), 0)
                   AS "waitlisted_kurus!: i64",
               COUNT(CASE WHEN r.status = 'waitlisted' THEN 1 END) AS "waitlisted!: i64",
               s.lead_commitment_kurus, s.outside_raised_kurus, s.outside_raised_note,
               s.round_valuation_kurus, s.closing_started_at AS "closing_started_at: OffsetDateTime",
               s.closed_at AS "closed_at: OffsetDateTime", s.closing_total_kurus,
               s.closing_investors
           FROM startups s LEFT JOIN investment_requests r ON r.startup_id = s.id
           WHERE s.id = ? GROUP BY s.id"#,
        id
    )
    .fetch_optional(db)
    .await
}

/// A payment deadline of one of the round's requests.
pub struct Deadline {
    pub request_id: i64,
    pub investor: String,
    pub fee_due: bool,
    pub due_at: OffsetDateTime,
}

/// The round's open payment deadlines, soonest first.
pub async fn deadlines(db: &SqlitePool, startup: i64) -> sqlx::Result<Vec<Deadline>> {
    sqlx::query_as!(
        Deadline,
        r#"SELECT r.id AS "request_id!", u.email AS investor, r.status = 'approved' AS "fee_due!: bool",
               CASE r.status WHEN 'approved' THEN r.fee_due_at ELSE r.transfer_due_at END
                   AS "due_at!: OffsetDateTime"
           FROM investment_requests r JOIN users u ON u.id = r.user_id
           WHERE r.startup_id = ? AND ((r.status = 'approved' AND r.fee_due_at IS NOT NULL)
                                       OR (r.status = 'fee_paid' AND r.transfer_due_at IS NOT NULL))
           ORDER BY 4 LIMIT 200"#,
        startup
    )
    .fetch_all(db)
    .await
}

/// A valuation staff recorded.
pub struct Valuation {
    pub valued_on: Date,
    pub valuation_kurus: i64,
    pub source: String,
    pub by: Option<String>,
}

pub async fn valuations(db: &SqlitePool, startup: i64) -> sqlx::Result<Vec<Valuation>> {
    sqlx::query_as!(
        Valuation,
        r#"SELECT v.valued_on AS "valued_on: Date", v.valuation_kurus, v.source, u.email AS "by?"
           FROM startup_valuations v LEFT JOIN users u ON u.id = v.recorded_by
           WHERE v.startup_id = ? ORDER BY v.valued_on DESC, v.id DESC"#,
        startup
    )
    .fetch_all(db)
    .await
}

/// What staff record beside the ledger, as stored before a change (for the audit log).
pub struct Figures {
    pub lead_commitment_kurus: i64,
    pub outside_raised_kurus: i64,
    pub outside_raised_note: String,
    pub round_valuation_kurus: Option<i64>,
}

pub async fn save_figures(
    conn: &mut SqliteConnection,
    startup: i64,
    f: &Figures,
) -> sqlx::Result<Option<Figures>> {
    let before = sqlx::query_as!(
        Figures,
        "SELECT lead_commitment_kurus, outside_raised_kurus, outside_raised_note, round_valuation_kurus
         FROM startups WHERE id = ?",
        startup
    )
    .fetch_optional(&mut *conn)
    .await?;
    sqlx::query!(
        "UPDATE startups SET lead_commitment_kurus = ?, outside_raised_kurus = ?,
             outside_raised_note = ?, round_valuation_kurus = ?
         WHERE id = ?",
        f.lead_commitment_kurus,
        f.outside_raised_kurus,
        f.outside_raised_note,
        f.round_valuation_kurus,
        startup
    )
    .execute(conn)
    .await?;
    Ok(before)
}

pub async fn insert_valuation(
    conn: &mut SqliteConnection,
    startup: i64,
    valuation_kurus: i64,
    valued_on: Date,
    source: &str,
    by: i64,
    now: OffsetDateTime,
) -> sqlx::Result<()> {
    sqlx::query!(
        "INSERT INTO startup_valuations (startup_id, valuation_kurus, valued_on, source, recorded_by, created_at)
         VALUES (?, ?, ?, ?, ?, ?)",
        startup,
        valuation_kurus,
        valued_on,
        source,
        by,
        now
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// One line of the clearing bank's refund list: escrowed money to return to the payer.
pub struct Refund {
    pub request_id: i64,
    pub iban: String,
    pub payer_name: String,
    pub amount_kurus: i64,
    pub reference: String,
    pub recorded_at: OffsetDateTime,
}

/// Every escrow refund of the round's requests, oldest first.
pub async fn refunds(db: &SqlitePool, startup: i64) -> sqlx::Result<Vec<Refund>> {
    sqlx::query_as!(
        Refund,
        r#"SELECT m.request_id, COALESCE(b.payer_iban, '') AS "iban!: String",
               COALESCE(b.payer_name, '') AS "payer_name!: String", m.amount_kurus,
               m.reference, m.created_at AS "recorded_at: OffsetDateTime"
           FROM money_events m JOIN investment_requests r ON r.id = m.request_id
           LEFT JOIN bank_transfers b ON b.request_id = m.request_id
           WHERE r.startup_id = ? AND m.kind = 'escrow_refunded' ORDER BY m.id"#,
        startup
    )
    .fetch_all(db)
    .await
}

/// When the round's early close is scheduled for, if it is.
pub async fn scheduled_close(db: &SqlitePool, id: i64) -> sqlx::Result<Option<OffsetDateTime>> {
    sqlx::query_scalar!(
        r#"SELECT close_scheduled_at AS "at: OffsetDateTime" FROM startups WHERE id = ?"#,
        id
    )
    .fetch_optional(db)
    .await
    .map(Option::flatten)
}
