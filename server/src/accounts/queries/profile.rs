//! The SQL of `/profile`: its tabs, the photo, the personal-data export and deleting the
//! membership.

use ortak_app::domain::profile::Profile;
use sqlx::{SqliteConnection, SqliteExecutor, SqlitePool};
use time::{Date, OffsetDateTime};

/// The profile as stored; unanswered choices read as empty text, as the forms show them.
pub struct Stored {
    pub email: String,
    pub first_name: String,
    pub last_name: String,
    pub position: String,
    pub phone: String,
    pub country: String,
    pub city: String,
    pub language: String,
    pub purpose: String,
    pub budget: String,
    /// Comma-separated interest codes.
    pub interests: String,
    pub investor_type: String,
    /// `yes`, `no` or empty.
    pub citizen: String,
    pub id_type: String,
    pub identity_number: String,
    pub company_name: String,
    pub tax_office: String,
    pub annual_income_kurus: Option<i64>,
    pub birth_date: Option<Date>,
    pub has_image: bool,
}

pub async fn profile(db: &SqlitePool, user_id: i64) -> sqlx::Result<Stored> {
    sqlx::query_as!(
        Stored,
        r#"SELECT email, first_name, last_name, position, phone, country, city, language,
                COALESCE(registration_purpose, '') AS "purpose!: String",
                COALESCE(budget_range, '') AS "budget!: String", interests,
                COALESCE(investor_type, '') AS "investor_type!: String",
                CASE turkish_citizen WHEN 1 THEN 'yes' WHEN 0 THEN 'no' ELSE '' END AS "citizen!: String",
                COALESCE(id_type, '') AS "id_type!: String", identity_number, company_name, tax_office,
                annual_income_kurus, birth_date AS "birth_date: Date",
                profile_image IS NOT NULL AS "has_image!: bool"
         FROM users WHERE id = ?"#,
        user_id
    )
    .fetch_one(db)
    .await
}

/// The MKK membership data the member sent, if they did.
pub struct Mkk {
    pub status: String,
    pub investor_type: String,
    pub turkish_citizen: bool,
    pub id_type: String,
    pub identity_number: String,
    pub first_name: String,
    pub last_name: String,
    pub organisation: String,
    pub annual_income_kurus: i64,
    pub birth_date: Date,
}

pub async fn mkk(db: &SqlitePool, user_id: i64) -> sqlx::Result<Option<Mkk>> {
    sqlx::query_as!(
        Mkk,
        r#"SELECT status, investor_type, turkish_citizen AS "turkish_citizen: bool", id_type,
                identity_number, first_name, last_name, organisation, annual_income_kurus,
                birth_date AS "birth_date: Date"
         FROM mkk_profiles WHERE user_id = ?"#,
        user_id
    )
    .fetch_optional(db)
    .await
}

pub async fn save_info(
    db: &SqlitePool,
    user_id: i64,
    p: &Profile,
    now: OffsetDateTime,
) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE users SET first_name = ?, last_name = ?, position = ?, phone = ?, country = ?, city = ?,
             language = ?, updated_at = ?
         WHERE id = ?",
        p.first_name,
        p.last_name,
        p.position,
        p.phone,
        p.country,
        p.city,
        p.language,
        now,
        user_id
    )
    .execute(db)
    .await?;
    Ok(())
}

pub async fn save_preferences(
    db: &SqlitePool,
    user_id: i64,
    p: &Profile,
    now: OffsetDateTime,
) -> sqlx::Result<()> {
    let interests = p.interests.join(",");
    sqlx::query!(
        "UPDATE users SET registration_purpose = ?, budget_range = ?, interests = ?, updated_at = ?
         WHERE id = ?",
        p.purpose,
        p.budget,
        interests,
        now,
        user_id
    )
    .execute(db)
    .await?;
    Ok(())
}

/// The investor information as validated, ready to store.
pub struct Investor<'a> {
    pub investor_type: &'a str,
    pub turkish_citizen: bool,
    pub id_type: Option<&'static str>,
    pub identity_number: &'a str,
    pub company_name: &'a str,
    pub tax_office: &'a str,
    pub annual_income_kurus: Option<i64>,
    pub birth_date: Option<Date>,
}

pub async fn save_investor(
    db: &SqlitePool,
    user_id: i64,
    i: &Investor<'_>,
    now: OffsetDateTime,
) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE users SET investor_type = ?, turkish_citizen = ?, id_type = ?, identity_number = ?,
             company_name = ?, tax_office = ?, annual_income_kurus = ?, birth_date = ?, updated_at = ?
         WHERE id = ?",
        i.investor_type,
        i.turkish_citizen,
        i.id_type,
        i.identity_number,
        i.company_name,
        i.tax_office,
        i.annual_income_kurus,
        i.birth_date,
        now,
        user_id
    )
    .execute(db)
    .await?;
    Ok(())
}

/// The user's password hash; `None` for a member who joined through the identity provider.
pub async fn password_hash(db: &SqlitePool, user_id: i64) -> sqlx::Result<Option<String>> {
    sqlx::query_scalar!("SELECT password_hash FROM users WHERE id = ?", user_id)
        .fetch_one(db)
        .await
}

/// Sets a new password; the new session epoch signs every other device out.
pub async fn change_password(
    conn: &mut SqliteConnection,
    user_id: i64,
    password_hash: &str,
    now: OffsetDateTime,
) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE users SET password_hash = ?, session_epoch = session_epoch + 1, updated_at = ?
         WHERE id = ?",
        password_hash,
        now,
        user_id
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// The stored name of the user's profile photo, if any.
pub async fn profile_image(
    db: impl SqliteExecutor<'_>,
    user_id: i64,
) -> sqlx::Result<Option<String>> {
    sqlx::query_scalar!("SELECT profile_image FROM users WHERE id = ?", user_id)
        .fetch_one(db)
        .await
}

pub async fn set_profile_image(
    conn: &mut SqliteConnection,
    user_id: i64,
    filename: &str,
    now: OffsetDateTime,
) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE users SET profile_image = ?, updated_at = ? WHERE id = ?",
        filename,
        now,
        user_id
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// Whose profile photo `filename` is.
pub async fn image_owner(db: &SqlitePool, filename: &str) -> sqlx::Result<Option<i64>> {
    sqlx::query_scalar!("SELECT id FROM users WHERE profile_image = ?", filename)
        .fetch_optional(db)
        .await
}

/// When the account was created, verified and accepted the terms.
pub struct AccountDates {
    pub created_at: OffsetDateTime,
    pub email_verified_at: Option<OffsetDateTime>,
    pub terms_accepted_at: Option<OffsetDateTime>,
}

pub async fn account_dates(db: &SqlitePool, user_id: i64) -> sqlx::Result<AccountDates> {
    sqlx::query_as!(
        AccountDates,
        r#"SELECT created_at AS "created_at: OffsetDateTime",
                email_verified_at AS "email_verified_at: OffsetDateTime",
                terms_accepted_at AS "terms_accepted_at: OffsetDateTime"
         FROM users WHERE id = ?"#,
        user_id
    )
    .fetch_one(db)
    .await
}

/// Erases the member's personal data and keeps the row as an anonymous shell, so records the
/// law requires us to keep still point at a (now nameless) account. Their newsletter
/// subscription, tokens and second factor go; a new session epoch ends their sessions.
pub async fn erase_member(
    conn: &mut SqliteConnection,
    user_id: i64,
    email: &str,
    now: OffsetDateTime,
) -> sqlx::Result<()> {
    sqlx::query!("DELETE FROM newsletter_subscribers WHERE email = ?", email)
        .execute(&mut *conn)
        .await?;
    super::tokens::delete_all(&mut *conn, user_id).await?;
    // The authenticator's secret and the recovery codes go too.
    super::two_factor::remove(&mut *conn, user_id).await?;
    sqlx::query!(
        "UPDATE users SET email = 'deleted-' || id || '@deleted.invalid', password_hash = NULL, first_name = '',
             last_name = '', position = '', phone = '', country = '', city = '', company_name = '', tax_office = '',
             registration_purpose = NULL, budget_range = NULL, interests = '', how_heard = NULL,
             prior_experience = NULL, specific_investment = NULL, specific_startup = '', turkish_citizen = NULL,
             id_type = NULL, identity_number = '', annual_income_kurus = NULL, birth_date = NULL,
             profile_image = NULL, session_epoch = session_epoch + 1, deactivated_at = ?1, updated_at = ?1
         WHERE id = ?2",
        now,
        user_id
    )
    .execute(conn)
    .await?;
    Ok(())
}
