//! VIP groups: their members may pre-invest in the group's startups before everyone else
//! (staff manage the groups in `/dashboard/vipgroups`).

/// Whether `user` belongs to a VIP group holding `startup`.
pub async fn is_vip(db: &sqlx::SqlitePool, user: i64, startup: i64) -> Result<bool, sqlx::Error> {
    let found: Option<i64> = sqlx::query_scalar(
        "SELECT 1 FROM vip_group_members m JOIN vip_group_startups s ON s.group_id = m.group_id
         WHERE m.user_id = ? AND s.startup_id = ? LIMIT 1",
    )
    .bind(user)
    .bind(startup)
    .fetch_optional(db)
    .await?;
    Ok(found.is_some())
}
