//! What a member declares about themselves: their MKK profile and qualified-investor
//! declarations.

use ortak_app::domain::mkk::{Mkk, MkkStatus};
use sqlx::{SqliteConnection, SqlitePool};
use time::{Date, OffsetDateTime};

/// Where staff's review of the profile stands.
pub struct MkkReview {
    pub status: MkkStatus,
    pub rejection_reason: Option<String>,
    /// Rejected before: a corrected profile waits for staff before the member may invest.
    pub previously_rejected: bool,
    /// Staff (or the e-government check) verified a version of it: the member may invest
    /// under that version while a change waits for review.
    pub has_verified: bool,
    /// The member sent a request: the identity is locked.
    pub identity_locked: bool,
}

pub async fn mkk_review(
    conn: impl sqlx::SqliteExecutor<'_>,
    user: i64,
) -> sqlx::Result<Option<MkkReview>> {
    sqlx::query_as!(
        MkkReview,
        r#"SELECT status AS "status: MkkStatus", rejection_reason,
               previously_rejected AS "previously_rejected: bool",
               verified_at IS NOT NULL AS "has_verified!: bool",
               (identity_unlocked_by IS NULL AND EXISTS (
                   SELECT 1 FROM investment_requests r WHERE r.user_id = m.user_id))
                   AS "identity_locked!: bool"
           FROM mkk_profiles m WHERE user_id = ?"#,
        user
    )
    .fetch_optional(conn)
    .await
}

/// What the annual limit is worked out from: the verified MKK data, never the record as last
/// typed.
pub struct LimitFacts {
    /// `individual` or `corporate`, as verified.
    pub investor_type: Option<String>,
    pub income_kurus: Option<i64>,
    /// `tckn:…`: the verified identity; `None` until staff (or e-government) verified one.
    pub identity_key: Option<String>,
    /// A verified qualified-investor declaration.
    pub qualified: bool,
    /// What this year's requests that hold money, or are heading there, send to escrow: made
    /// under the same identity from any account, or by this account.
    pub used_kurus: i64,
}

pub async fn limit_facts(
    conn: &mut SqliteConnection,
    user: i64,
    year_start: OffsetDateTime,
    year_end: OffsetDateTime,
) -> sqlx::Result<LimitFacts> {
    sqlx::query_as!(
        LimitFacts,
        r#"SELECT m.verified_investor_type AS "investor_type?", m.verified_income_kurus AS "income_kurus?",
               CASE WHEN m.verified_at IS NOT NULL
                    THEN m.verified_id_type || ':' || m.verified_identity_number END AS "identity_key?: String",
               EXISTS (SELECT 1 FROM qualified_declarations q WHERE q.user_id = u.id AND q.status = 'verified')
                   AS "qualified!: bool",
               (SELECT COALESCE(SUM(r.investment_kurus), 0) FROM investment_requests r
                WHERE (r.user_id = u.id OR r.identity_key = m.verified_id_type || ':' || m.verified_identity_number)
                  AND r.created_at >= ? AND r.created_at < ?
                  AND r.status IN ('waitlisted', 'submitted', 'under_review', 'approved', 'fee_paid',
                                   'funded', 'allocated')) AS "used_kurus!: i64"
           FROM users u LEFT JOIN mkk_profiles m ON m.user_id = u.id WHERE u.id = ?"#,
        year_start,
        year_end,
        user
    )
    .fetch_one(conn)
    .await
}

/// Whether another account invested under this identity (`tckn:…`): it cannot be registered
/// again, so one person has one yearly limit.
pub async fn identity_used_elsewhere(
    conn: &mut SqliteConnection,
    identity_key: &str,
    user: i64,
) -> sqlx::Result<bool> {
    sqlx::query_scalar!(
        r#"SELECT EXISTS (SELECT 1 FROM investment_requests WHERE identity_key = ? AND user_id <> ?)
               AS "used!: bool""#,
        identity_key,
        user
    )
    .fetch_one(conn)
    .await
}

/// A stored MKK profile, as the form shows it again.
pub struct MkkProfile {
    pub investor_type: String,
    pub turkish_citizen: bool,
    pub id_type: String,
    pub first_name: String,
    pub last_name: String,
    pub email: String,
    pub phone: String,
    pub annual_income_kurus: i64,
    pub identity_number: String,
    pub organisation: String,
    pub birth_date: Date,
}

pub async fn mkk_profile(
    db: impl sqlx::SqliteExecutor<'_>,
    user: i64,
) -> sqlx::Result<Option<MkkProfile>> {
    sqlx::query_as!(
        MkkProfile,
        r#"SELECT investor_type, turkish_citizen AS "turkish_citizen: bool", id_type, first_name,
               last_name, email, phone, annual_income_kurus, identity_number, organisation,
               birth_date AS "birth_date: Date"
           FROM mkk_profiles WHERE user_id = ?"#,
        user
    )
    .fetch_optional(db)
    .await
}

impl MkkProfile {
    /// Whether `mkk` says exactly what this record holds.
    pub fn same_as(&self, mkk: &Mkk) -> bool {
        self.investor_type == mkk.investor_type.code()
            && self.turkish_citizen == mkk.citizen
            && self.id_type == mkk.id_type.code()
            && self.first_name == mkk.first_name
            && self.last_name == mkk.last_name
            && self.email == mkk.email
            && self.phone == mkk.phone
            && self.annual_income_kurus == mkk.annual_income.kurus()
            && self.identity_number == mkk.identity_number
            && self.organisation == mkk.organisation
            && self.birth_date == mkk.birth_date
    }
}

/// What the account already knows, to start the MKK form from.
pub struct AccountDefaults {
    pub first_name: String,
    pub last_name: String,
    pub phone: String,
    pub investor_type: String,
}

pub async fn account_defaults(db: &SqlitePool, user: i64) -> sqlx::Result<AccountDefaults> {
    sqlx::query_as!(
        AccountDefaults,
        r#"SELECT first_name, last_name, phone, COALESCE(investor_type, '') AS "investor_type!: String"
           FROM users WHERE id = ?"#,
        user
    )
    .fetch_one(db)
    .await
}

/// Stores (or replaces) the user's MKK profile; a new submission clears any earlier review.
/// After a rejection, the same data again changes nothing (`false`: nothing new to review),
/// and changed data goes back to review however it was checked (`previously_rejected`). The
/// identity number may belong to one account only (a unique index: the caller turns the
/// violation into a field error).
pub async fn save_mkk(
    db: &SqlitePool,
    user: i64,
    mkk: &Mkk,
    status: MkkStatus,
    verified_by: Option<&str>,
    now: OffsetDateTime,
) -> sqlx::Result<bool> {
    let (investor_type, id_type) = (mkk.investor_type.code(), mkk.id_type.code());
    let income = mkk.annual_income.kurus();
    let done = sqlx::query!(
        "INSERT INTO mkk_profiles (user_id, investor_type, turkish_citizen, id_type, first_name, last_name, email, phone,
             annual_income_kurus, identity_number, organisation, birth_date, status, verified_by, submitted_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (user_id) DO UPDATE SET investor_type = excluded.investor_type,
             turkish_citizen = excluded.turkish_citizen, id_type = excluded.id_type, first_name = excluded.first_name,
             last_name = excluded.last_name, email = excluded.email, phone = excluded.phone,
             annual_income_kurus = excluded.annual_income_kurus, identity_number = excluded.identity_number,
             organisation = excluded.organisation, birth_date = excluded.birth_date,
             status = CASE WHEN mkk_profiles.previously_rejected = 1 OR mkk_profiles.status = 'rejected'
                           THEN 'submitted' ELSE excluded.status END,
             verified_by = CASE WHEN mkk_profiles.previously_rejected = 1 OR mkk_profiles.status = 'rejected'
                                THEN NULL ELSE excluded.verified_by END,
             previously_rejected = CASE WHEN mkk_profiles.status = 'rejected' THEN 1
                                        ELSE mkk_profiles.previously_rejected END,
             identity_conflict = 0, rejection_reason = NULL, identity_unlocked_by = NULL,
             submitted_at = excluded.submitted_at, reviewed_at = NULL
         WHERE NOT (mkk_profiles.status = 'rejected'
             AND mkk_profiles.investor_type = excluded.investor_type
             AND mkk_profiles.turkish_citizen = excluded.turkish_citizen
             AND mkk_profiles.id_type = excluded.id_type AND mkk_profiles.first_name = excluded.first_name
             AND mkk_profiles.last_name = excluded.last_name AND mkk_profiles.email = excluded.email
             AND mkk_profiles.phone = excluded.phone
             AND mkk_profiles.annual_income_kurus = excluded.annual_income_kurus
             AND mkk_profiles.identity_number = excluded.identity_number
             AND mkk_profiles.organisation = excluded.organisation
             AND mkk_profiles.birth_date = excluded.birth_date)",
        user,
        investor_type,
        mkk.citizen,
        id_type,
        mkk.first_name,
        mkk.last_name,
        mkk.email,
        mkk.phone,
        income,
        mkk.identity_number,
        mkk.organisation,
        mkk.birth_date,
        status,
        verified_by,
        now
    )
    .execute(db)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// The user's latest declaration.
pub struct Declaration {
    pub basis: String,
    pub status: String,
    pub rejection_reason: Option<String>,
    pub submitted_at: OffsetDateTime,
}

pub async fn latest_declaration(db: &SqlitePool, user: i64) -> sqlx::Result<Option<Declaration>> {
    sqlx::query_as!(
        Declaration,
        r#"SELECT basis, status, rejection_reason, submitted_at AS "submitted_at: OffsetDateTime"
           FROM qualified_declarations WHERE user_id = ? ORDER BY id DESC LIMIT 1"#,
        user
    )
    .fetch_optional(db)
    .await
}
