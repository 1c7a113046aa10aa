//! What a member declares about themselves: their MKK profile and qualified-investor
//! declarations.

use ortak_app::domain::mkk::{Mkk, MkkStatus};
use sqlx::SqlitePool;
use time::{Date, OffsetDateTime};

pub async fn mkk_status(db: &SqlitePool, user: i64) -> sqlx::Result<Option<MkkStatus>> {
    sqlx::query_scalar!(
        r#"SELECT status AS "status: MkkStatus" FROM mkk_profiles WHERE user_id = ?"#,
        user
    )
    .fetch_optional(db)
    .await
}

/// Where staff's review of the profile stands.
pub struct MkkReview {
    pub status: MkkStatus,
    pub rejection_reason: Option<String>,
}

pub async fn mkk_review(db: &SqlitePool, user: i64) -> sqlx::Result<Option<MkkReview>> {
    sqlx::query_as!(
        MkkReview,
        r#"SELECT status AS "status: MkkStatus", rejection_reason FROM mkk_profiles WHERE user_id = ?"#,
        user
    )
    .fetch_optional(db)
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

pub async fn mkk_profile(db: &SqlitePool, user: i64) -> sqlx::Result<Option<MkkProfile>> {
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
pub async fn save_mkk(
    db: &SqlitePool,
    user: i64,
    mkk: &Mkk,
    status: MkkStatus,
    verified_by: Option<&str>,
    now: OffsetDateTime,
) -> sqlx::Result<()> {
    let (investor_type, id_type) = (mkk.investor_type.code(), mkk.id_type.code());
    let income = mkk.annual_income.kurus();
    sqlx::query!(
        "INSERT INTO mkk_profiles (user_id, investor_type, turkish_citizen, id_type, first_name, last_name, email, phone,
             annual_income_kurus, identity_number, organisation, birth_date, status, verified_by, submitted_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (user_id) DO UPDATE SET investor_type = excluded.investor_type,
             turkish_citizen = excluded.turkish_citizen, id_type = excluded.id_type, first_name = excluded.first_name,
             last_name = excluded.last_name, email = excluded.email, phone = excluded.phone,
             annual_income_kurus = excluded.annual_income_kurus, identity_number = excluded.identity_number,
             organisation = excluded.organisation, birth_date = excluded.birth_date, status = excluded.status,
             verified_by = excluded.verified_by, rejection_reason = NULL,
             submitted_at = excluded.submitted_at, reviewed_at = NULL",
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
    Ok(())
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
