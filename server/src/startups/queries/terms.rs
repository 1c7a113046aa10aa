//! The SQL of the terms card: the offer as the approved version set it, the lead fund's
//! commitment and the round's current information form.

pub struct TermsRow {
    pub pre_money_valuation_kurus: Option<i64>,
    pub share_price_kurus: Option<i64>,
    pub shares_offered: Option<i64>,
    pub minimum_raise_kurus: Option<i64>,
    pub funding_goal_kurus: i64,
    pub fund: String,
    pub lead_commitment_kurus: i64,
    pub use_of_funds: String,
    pub financials_period: String,
    pub revenue_kurus: Option<i64>,
    pub net_income_kurus: Option<i64>,
    pub pitch_video: String,
    pub information_form: Option<i64>,
}

pub async fn terms(db: impl sqlx::SqliteExecutor<'_>, startup: i64) -> sqlx::Result<TermsRow> {
    sqlx::query_as!(
        TermsRow,
        r#"SELECT s.pre_money_valuation_kurus, s.share_price_kurus, s.shares_offered,
               s.minimum_raise_kurus, s.funding_goal_kurus, f.name AS fund, s.lead_commitment_kurus,
               s.use_of_funds, s.financials_period, s.revenue_kurus, s.net_income_kurus,
               s.pitch_video,
               (SELECT MAX(d.id) FROM round_documents d WHERE d.startup_id = s.id
                AND d.kind = 'information-form') AS "information_form?: i64"
           FROM startups s JOIN funds f ON f.id = s.fund_id WHERE s.id = ?"#,
        startup
    )
    .fetch_one(db)
    .await
}
