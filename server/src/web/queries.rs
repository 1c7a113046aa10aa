//! The SQL of the request layer: who is signed in.

use sqlx::SqlitePool;
use time::OffsetDateTime;

use ortak_app::domain::terms::VERSION;
use ortak_app::i18n::Locale;

use super::session::Role;

pub struct SignedInUser {
    pub id: i64,
    pub email: String,
    pub first_name: String,
    pub last_name: String,
    pub position: String,
    pub role: Role,
    pub verified: bool,
    pub language: Locale,
    pub session_epoch: i64,
    pub deactivated: bool,
    pub onboarding_step: i64,
    pub profile_image: Option<String>,
    pub fund_member: bool,
    /// Staff marked as members of the investment committee.
    pub committee_member: bool,
    /// Whether the user enrolled an authenticator (second factor).
    pub has_totp: bool,
    /// Whether the user accepted the current membership agreement (staff are not bound by it).
    pub terms_current: bool,
    /// The startups they saved, a JSON array of ids.
    pub saved_json: String,
    /// The startups their VIP groups hold, a JSON array of ids.
    pub vip_json: String,
}

pub async fn signed_in_user(db: &SqlitePool, id: i64) -> sqlx::Result<Option<SignedInUser>> {
    sqlx::query_as!(
        SignedInUser,
        r#"SELECT id, email, first_name, last_name, position, role AS "role: Role",
                email_verified_at IS NOT NULL AS "verified!: bool", language AS "language: Locale",
                session_epoch,
                deactivated_at IS NOT NULL AS "deactivated!: bool", onboarding_step, profile_image,
                EXISTS (SELECT 1 FROM startup_teams t WHERE t.user_id = users.id) AS "fund_member!: bool",
                committee_member = 1 AND role IN ('admin', 'superadmin') AS "committee_member!: bool",
                EXISTS (SELECT 1 FROM totp_factors t WHERE t.user_id = users.id) AS "has_totp!: bool",
                role <> 'investor' OR EXISTS (
                    SELECT 1 FROM acceptances a WHERE a.user_id = users.id
                    AND a.document = 'membership-agreement' AND a.version = ?
                ) AS "terms_current!: bool",
                (SELECT json_group_array(f.startup_id) FROM favorites f WHERE f.user_id = users.id)
                    AS "saved_json!: String",
                (SELECT json_group_array(DISTINCT s.startup_id) FROM vip_group_members m
                 JOIN vip_group_startups s ON s.group_id = m.group_id WHERE m.user_id = users.id)
                    AS "vip_json!: String"
         FROM users WHERE id = ?"#,
        VERSION,
        id
    )
    .fetch_optional(db)
    .await
}

/// Stamps the sign-in and returns the user's session epoch.
pub async fn record_sign_in(db: &SqlitePool, id: i64, now: OffsetDateTime) -> sqlx::Result<i64> {
    let mut tx = crate::db::write(db).await?;
    let epoch = sqlx::query_scalar!(
        "UPDATE users SET last_sign_in_at = ? WHERE id = ? RETURNING session_epoch",
        now,
        id
    )
    .fetch_one(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(epoch)
}

/// What decides whether signing in takes a second factor.
#[derive(Clone, Copy)]
pub struct SecondFactorNeed {
    pub role: Role,
    pub has_totp: bool,
    pub session_epoch: i64,
    pub deactivated: bool,
}

pub async fn second_factor_need(
    db: &SqlitePool,
    id: i64,
) -> sqlx::Result<Option<SecondFactorNeed>> {
    sqlx::query_as!(
        SecondFactorNeed,
        r#"SELECT role AS "role: Role",
                EXISTS (SELECT 1 FROM totp_factors t WHERE t.user_id = users.id) AS "has_totp!: bool",
                session_epoch, deactivated_at IS NOT NULL AS "deactivated!: bool"
         FROM users WHERE id = ?"#,
        id
    )
    .fetch_optional(db)
    .await
}
