//! The SQL of the VIP groups section (`staff/vip_groups.rs`).

use sqlx::{SqliteConnection, SqlitePool};
use time::Date;

/// A row of `/dashboard/vipgroups`.
pub struct ListedGroup {
    pub id: i64,
    pub name: String,
    pub members: i64,
    /// The group's startups' names, comma-separated.
    pub startups: String,
}

/// Every group with its number of members and its startups, by name.
pub async fn groups(db: &SqlitePool) -> sqlx::Result<Vec<ListedGroup>> {
    sqlx::query_as!(
        ListedGroup,
        r#"SELECT g.id AS "id!", g.name,
                (SELECT COUNT(*) FROM vip_group_members m WHERE m.group_id = g.id)
                    AS "members!: i64",
                COALESCE((SELECT GROUP_CONCAT(s.name, ', ') FROM vip_group_startups gs
                          JOIN startups s ON s.id = gs.startup_id WHERE gs.group_id = g.id), '')
                    AS "startups!: String"
         FROM vip_groups g ORDER BY g.name"#
    )
    .fetch_all(db)
    .await
}

/// Adds a group; a taken name fails with a unique violation of `vip_groups.name`.
pub async fn insert_group(conn: &mut SqliteConnection, name: &str) -> sqlx::Result<i64> {
    sqlx::query_scalar!(
        r#"INSERT INTO vip_groups (name) VALUES (?) RETURNING id AS "id!""#,
        name
    )
    .fetch_one(conn)
    .await
}

pub async fn group_name(db: &SqlitePool, id: i64) -> sqlx::Result<Option<String>> {
    sqlx::query_scalar!("SELECT name FROM vip_groups WHERE id = ?", id)
        .fetch_optional(db)
        .await
}

pub async fn group_exists(conn: &mut SqliteConnection, id: i64) -> sqlx::Result<bool> {
    sqlx::query_scalar!(
        r#"SELECT EXISTS (SELECT 1 FROM vip_groups WHERE id = ?) AS "exists!: bool""#,
        id
    )
    .fetch_one(conn)
    .await
}

/// The members' addresses, in order.
pub async fn member_emails(db: &SqlitePool, id: i64) -> sqlx::Result<Vec<String>> {
    sqlx::query_scalar!(
        "SELECT u.email FROM vip_group_members m JOIN users u ON u.id = m.user_id
         WHERE m.group_id = ? ORDER BY u.email",
        id
    )
    .fetch_all(db)
    .await
}

/// A startup of a group, with the day until which only VIP members may pre-invest.
pub struct GroupStartup {
    pub name: String,
    pub slug: String,
    pub vip_until: Option<Date>,
}

pub async fn startups(db: &SqlitePool, id: i64) -> sqlx::Result<Vec<GroupStartup>> {
    sqlx::query_as!(
        GroupStartup,
        r#"SELECT s.name, s.slug, s.vip_until AS "vip_until: Date"
         FROM vip_group_startups gs JOIN startups s ON s.id = gs.startup_id
         WHERE gs.group_id = ? ORDER BY s.name"#,
        id
    )
    .fetch_all(db)
    .await
}

pub async fn startup_by_slug(db: &SqlitePool, slug: &str) -> sqlx::Result<Option<i64>> {
    sqlx::query_scalar!(r#"SELECT id AS "id!" FROM startups WHERE slug = ?"#, slug)
        .fetch_optional(db)
        .await
}

/// Adds a member (already there: nothing changes).
pub async fn add_member(conn: &mut SqliteConnection, group: i64, user: i64) -> sqlx::Result<()> {
    sqlx::query!(
        "INSERT OR IGNORE INTO vip_group_members (group_id, user_id) VALUES (?, ?)",
        group,
        user
    )
    .execute(conn)
    .await?;
    Ok(())
}

pub async fn remove_member(conn: &mut SqliteConnection, group: i64, user: i64) -> sqlx::Result<()> {
    sqlx::query!(
        "DELETE FROM vip_group_members WHERE group_id = ? AND user_id = ?",
        group,
        user
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// Adds a startup (already there: nothing changes).
pub async fn add_startup(
    conn: &mut SqliteConnection,
    group: i64,
    startup: i64,
) -> sqlx::Result<()> {
    sqlx::query!(
        "INSERT OR IGNORE INTO vip_group_startups (group_id, startup_id) VALUES (?, ?)",
        group,
        startup
    )
    .execute(conn)
    .await?;
    Ok(())
}

pub async fn remove_startup(
    conn: &mut SqliteConnection,
    group: i64,
    startup: i64,
) -> sqlx::Result<()> {
    sqlx::query!(
        "DELETE FROM vip_group_startups WHERE group_id = ? AND startup_id = ?",
        group,
        startup
    )
    .execute(conn)
    .await?;
    Ok(())
}
