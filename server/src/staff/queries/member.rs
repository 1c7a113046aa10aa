//! The SQL of one member's staff page: their account, MKK details, qualified-investor
//! declaration, fund teams and requests; role changes and deactivation.

use ortak_app::domain::accounts::InvestorType;
use ortak_app::domain::identity::IdType;
use ortak_app::domain::investing::RequestStatus;
use ortak_app::domain::mkk::MkkStatus;
use sqlx::{SqliteConnection, SqlitePool};
use time::OffsetDateTime;

use crate::web::session::Role;

pub struct Account {
    pub email: String,
    pub name: String,
    pub role: Role,
    pub language: String,
    pub created_at: OffsetDateTime,
    pub email_verified_at: Option<OffsetDateTime>,
    /// Interest codes, comma-separated.
    pub interests: String,
    pub deactivated: bool,
    pub company_name: String,
    /// Whether the member enrolled an authenticator (second factor).
    pub has_totp: bool,
    /// A staff member sitting on the investment committee.
    pub committee_member: bool,
}

pub async fn account(db: &SqlitePool, id: i64) -> sqlx::Result<Option<Account>> {
    sqlx::query_as!(
        Account,
        r#"SELECT email, first_name || ' ' || last_name AS "name!: String", role AS "role: Role",
               language, created_at AS "created_at: OffsetDateTime",
               email_verified_at AS "email_verified_at: OffsetDateTime", interests,
               deactivated_at IS NOT NULL AS "deactivated!: bool", company_name,
               EXISTS (SELECT 1 FROM totp_factors t WHERE t.user_id = users.id) AS "has_totp!: bool",
               committee_member AS "committee_member: bool"
           FROM users WHERE id = ?"#,
        id
    )
    .fetch_optional(db)
    .await
}

/// A member's MKK details as staff check them.
pub struct Mkk {
    pub investor_type: InvestorType,
    pub id_type: IdType,
    pub identity_number: String,
    pub phone: String,
    pub status: MkkStatus,
    pub rejection_reason: Option<String>,
    /// The declared income and birth date staff verify (the yearly limit follows the income).
    pub annual_income_kurus: i64,
    pub birth_date: String,
    /// What staff (or e-government) verified: the kind of investor, and `VKN …`.
    pub verified_type: Option<InvestorType>,
    pub verified_identity: Option<String>,
    /// The member sent a request and no unlock is pending: the identity cannot change.
    pub identity_locked: bool,
}

pub async fn mkk(db: &SqlitePool, user_id: i64) -> sqlx::Result<Option<Mkk>> {
    sqlx::query_as!(
        Mkk,
        r#"SELECT investor_type AS "investor_type: InvestorType", id_type AS "id_type: IdType",
               identity_number, phone, status AS "status: MkkStatus", rejection_reason,
               annual_income_kurus, birth_date,
               CASE WHEN verified_at IS NOT NULL THEN verified_investor_type END
                   AS "verified_type?: InvestorType",
               CASE WHEN verified_at IS NOT NULL THEN upper(verified_id_type) || ' '
                    || verified_identity_number END AS "verified_identity?: String",
               (identity_unlocked_by IS NULL AND EXISTS (
                   SELECT 1 FROM investment_requests r WHERE r.user_id = m.user_id))
                   AS "identity_locked!: bool"
           FROM mkk_profiles m WHERE user_id = ?"#,
        user_id
    )
    .fetch_optional(db)
    .await
}

/// Every identity the member's account held, oldest first: `(ID TYPE number, when, unlocked
/// by whom)`.
pub struct PastIdentity {
    pub identity: String,
    pub recorded_at: OffsetDateTime,
    pub unlocked_by: Option<String>,
}

pub async fn identity_history(db: &SqlitePool, user_id: i64) -> sqlx::Result<Vec<PastIdentity>> {
    sqlx::query_as!(
        PastIdentity,
        r#"SELECT upper(h.id_type) || ' ' || h.identity_number AS "identity!: String",
               h.recorded_at AS "recorded_at: OffsetDateTime", u.email AS "unlocked_by?"
           FROM identity_history h LEFT JOIN users u ON u.id = h.unlocked_by
           WHERE h.user_id = ? ORDER BY h.id"#,
        user_id
    )
    .fetch_all(db)
    .await
}

/// A superadmin allows one change of the member's locked identity; `false` when they sent no
/// MKK data.
pub async fn unlock_identity(
    conn: &mut SqliteConnection,
    user_id: i64,
    by: i64,
) -> sqlx::Result<bool> {
    let done = sqlx::query!(
        "UPDATE mkk_profiles SET identity_unlocked_by = ? WHERE user_id = ?",
        by,
        user_id
    )
    .execute(conn)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// The state of the member's latest qualified-investor declaration, if any.
pub async fn latest_declaration(db: &SqlitePool, user_id: i64) -> sqlx::Result<Option<MkkStatus>> {
    sqlx::query_scalar!(
        r#"SELECT status AS "status: MkkStatus" FROM qualified_declarations
           WHERE user_id = ? ORDER BY id DESC LIMIT 1"#,
        user_id
    )
    .fetch_optional(db)
    .await
}

/// The funds whose teams the member is on.
pub async fn fund_names(db: &SqlitePool, user_id: i64) -> sqlx::Result<Vec<String>> {
    sqlx::query_scalar!(
        "SELECT f.name FROM fund_members m JOIN funds f ON f.id = m.fund_id WHERE m.user_id = ?",
        user_id
    )
    .fetch_all(db)
    .await
}

/// One of the member's investment requests.
pub struct Request {
    pub created_at: OffsetDateTime,
    pub startup: String,
    pub amount_kurus: i64,
    pub status: RequestStatus,
}

/// The member's investment requests, newest first.
pub async fn requests(db: &SqlitePool, user_id: i64) -> sqlx::Result<Vec<Request>> {
    sqlx::query_as!(
        Request,
        r#"SELECT r.created_at AS "created_at: OffsetDateTime", s.name AS startup, r.amount_kurus,
               r.status AS "status: RequestStatus"
           FROM investment_requests r JOIN startups s ON s.id = r.startup_id
           WHERE r.user_id = ? ORDER BY r.id DESC"#,
        user_id
    )
    .fetch_all(db)
    .await
}

/// Gives a member a role; it takes effect on their next request (sessions load the role
/// each time).
pub async fn set_role(
    conn: &mut SqliteConnection,
    id: i64,
    role: Role,
    now: OffsetDateTime,
) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE users SET role = ?, updated_at = ? WHERE id = ?",
        role,
        now,
        id
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// Deactivates an active account and ends its sessions; whether it was active.
pub async fn deactivate(
    conn: &mut SqliteConnection,
    id: i64,
    now: OffsetDateTime,
) -> sqlx::Result<bool> {
    let done = sqlx::query!(
        "UPDATE users SET deactivated_at = ?1, session_epoch = session_epoch + 1, updated_at = ?1
         WHERE id = ?2 AND deactivated_at IS NULL",
        now,
        id
    )
    .execute(conn)
    .await?;
    Ok(done.rows_affected() > 0)
}

/// Restores a deactivated account; whether it was deactivated.
pub async fn reactivate(
    conn: &mut SqliteConnection,
    id: i64,
    now: OffsetDateTime,
) -> sqlx::Result<bool> {
    let done = sqlx::query!(
        "UPDATE users SET deactivated_at = NULL, updated_at = ? WHERE id = ? AND deactivated_at IS NOT NULL",
        now,
        id
    )
    .execute(conn)
    .await?;
    Ok(done.rows_affected() > 0)
}

/// What the KVKK archive keeps of a deleted member (superadmins only).
pub struct Archived {
    /// The identity they invested under, as JSON.
    pub identity: String,
    pub retain_until: OffsetDateTime,
}

pub async fn archived(db: &SqlitePool, id: i64) -> sqlx::Result<Option<Archived>> {
    sqlx::query_as!(
        Archived,
        r#"SELECT identity, retain_until AS "retain_until: OffsetDateTime"
           FROM kvkk_archive WHERE user_id = ?"#,
        id
    )
    .fetch_optional(db)
    .await
}
