//! The SQL of the member list and the review of members' MKK details.

use ortak_app::domain::mkk::MkkStatus;
use ortak_app::i18n::Locale;
use sqlx::{SqliteConnection, SqlitePool};
use time::OffsetDateTime;

use crate::web::session::Role;

/// One member in the list.
pub struct UserRow {
    pub id: i64,
    pub email: String,
    pub name: String,
    pub role: Role,
    pub created_at: OffsetDateTime,
    /// The state of their MKK details, if they sent any.
    pub mkk: Option<MkkStatus>,
    pub deactivated: bool,
}

/// The newest 5,000 members.
pub async fn list(db: &SqlitePool) -> sqlx::Result<Vec<UserRow>> {
    sqlx::query_as!(
        UserRow,
        r#"SELECT u.id, u.email, u.first_name || ' ' || u.last_name AS "name!: String",
               u.role AS "role: Role", u.created_at AS "created_at: OffsetDateTime",
               m.status AS "mkk?: MkkStatus", u.deactivated_at IS NOT NULL AS "deactivated!: bool"
           FROM users u LEFT JOIN mkk_profiles m ON m.user_id = u.id ORDER BY u.id DESC LIMIT 5000"#
    )
    .fetch_all(db)
    .await
}

/// The state of a member's MKK details, if they sent any.
pub async fn mkk_status(
    conn: &mut SqliteConnection,
    user_id: i64,
) -> sqlx::Result<Option<MkkStatus>> {
    sqlx::query_scalar!(
        r#"SELECT status AS "status: MkkStatus" FROM mkk_profiles WHERE user_id = ?"#,
        user_id
    )
    .fetch_optional(conn)
    .await
}

/// Staff's decision on a member's MKK details: `verified`, or `rejected` with the reason the
/// investor sees.
pub async fn review_mkk(
    conn: &mut SqliteConnection,
    user_id: i64,
    status: MkkStatus,
    rejection_reason: Option<&str>,
    now: OffsetDateTime,
) -> sqlx::Result<()> {
    let verified_by = (status == MkkStatus::Verified).then_some("staff");
    sqlx::query!(
        "UPDATE mkk_profiles SET status = ?, rejection_reason = ?, verified_by = ?, reviewed_at = ?
         WHERE user_id = ?",
        status,
        rejection_reason,
        verified_by,
        now,
        user_id
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// Whom to tell that their MKK data was rejected, and how many of their requests it holds.
pub struct MkkAddressee {
    pub email: String,
    pub first_name: String,
    pub language: Locale,
    pub open_requests: i64,
}

pub async fn mkk_addressee(
    conn: &mut SqliteConnection,
    user_id: i64,
) -> sqlx::Result<MkkAddressee> {
    sqlx::query_as!(
        MkkAddressee,
        r#"SELECT u.email, u.first_name, u.language AS "language: Locale",
               (SELECT COUNT(*) FROM investment_requests r WHERE r.user_id = u.id
                AND r.status IN ('waitlisted', 'submitted', 'under_review', 'approved', 'fee_paid', 'funded'))
                   AS "open_requests!: i64"
           FROM users u WHERE u.id = ?"#,
        user_id
    )
    .fetch_one(conn)
    .await
}
