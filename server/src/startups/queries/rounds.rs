//! The SQL of a round's figures on a startup's page, beyond the card's ledger figures.

use sqlx::SqlitePool;

/// The round's figures beside the card's: what is committed but not yet in escrow, what staff
/// recorded of the lead fund and outside the platform, and whether requests wait in line.
pub struct RoundFigures {
    pub committed_kurus: i64,
    pub lead_commitment_kurus: i64,
    pub outside_raised_kurus: i64,
    pub outside_raised_note: String,
    pub waitlist: bool,
    /// Everything holding a place (committed and received), against the goal plus margin.
    pub held_kurus: i64,
}

pub async fn round_figures(db: &SqlitePool, startup: i64) -> sqlx::Result<RoundFigures> {
    sqlx::query_as!(
        RoundFigures,
        r#"SELECT
               (SELECT COALESCE(SUM(investment_kurus), 0) FROM investment_requests
                WHERE startup_id = s.id AND status IN ('submitted', 'under_review', 'approved', 'fee_paid'))
                   AS "committed_kurus!: i64",
               s.lead_commitment_kurus, s.outside_raised_kurus, s.outside_raised_note,
               EXISTS (SELECT 1 FROM investment_requests WHERE startup_id = s.id AND status = 'waitlisted')
                   AS "waitlist!: bool",
               (SELECT COALESCE(SUM(investment_kurus), 0) FROM investment_requests
                WHERE startup_id = s.id AND status IN ('submitted', 'under_review', 'approved', 'fee_paid',
                                                       'funded', 'allocated'))
                   AS "held_kurus!: i64"
           FROM startups s WHERE s.id = ?"#,
        startup
    )
    .fetch_one(db)
    .await
}
