//! The SQL of the fund teams section (`staff/funds.rs`), and the member lookup it shares with
//! the VIP groups.

use sqlx::{SqliteConnection, SqlitePool};

/// A row of `/dashboard/vcGroups`.
pub struct ListedFund {
    pub id: i64,
    pub name: String,
    /// The team's addresses, comma-separated.
    pub members: String,
    pub startups: i64,
}

/// Every fund with its team and number of startups, by name.
pub async fn funds(db: &SqlitePool) -> sqlx::Result<Vec<ListedFund>> {
    sqlx::query_as!(
        ListedFund,
        r#"SELECT f.id, f.name,
                COALESCE((SELECT GROUP_CONCAT(u.email, ', ') FROM fund_members m
                          JOIN users u ON u.id = m.user_id WHERE m.fund_id = f.id), '')
                    AS "members!: String",
                (SELECT COUNT(*) FROM startups s WHERE s.fund_id = f.id) AS "startups!: i64"
         FROM funds f ORDER BY f.name"#
    )
    .fetch_all(db)
    .await
}

/// The active member with this (lower-case) address.
pub async fn active_member(db: &SqlitePool, email: &str) -> sqlx::Result<Option<i64>> {
    sqlx::query_scalar!(
        r#"SELECT id AS "id!" FROM users WHERE email = ? AND deactivated_at IS NULL"#,
        email
    )
    .fetch_optional(db)
    .await
}

/// Adds a fund; a taken slug fails with a unique violation of `funds.slug`.
pub async fn insert_fund(
    conn: &mut SqliteConnection,
    slug: &str,
    name: &str,
    website: &str,
) -> sqlx::Result<i64> {
    sqlx::query_scalar!(
        r#"INSERT INTO funds (slug, name, website) VALUES (?, ?, ?) RETURNING id AS "id!""#,
        slug,
        name,
        website
    )
    .fetch_one(conn)
    .await
}

pub async fn fund_exists(conn: &mut SqliteConnection, id: i64) -> sqlx::Result<bool> {
    sqlx::query_scalar!(
        r#"SELECT EXISTS (SELECT 1 FROM funds WHERE id = ?) AS "exists!: bool""#,
        id
    )
    .fetch_one(conn)
    .await
}

/// Adds `user` to the fund's team (already there: nothing changes).
pub async fn add_member(conn: &mut SqliteConnection, fund: i64, user: i64) -> sqlx::Result<()> {
    sqlx::query!(
        "INSERT OR IGNORE INTO fund_members (fund_id, user_id) VALUES (?, ?)",
        fund,
        user
    )
    .execute(conn)
    .await?;
    Ok(())
}

pub async fn remove_member(conn: &mut SqliteConnection, fund: i64, user: i64) -> sqlx::Result<()> {
    sqlx::query!(
        "DELETE FROM fund_members WHERE fund_id = ? AND user_id = ?",
        fund,
        user
    )
    .execute(conn)
    .await?;
    Ok(())
}
