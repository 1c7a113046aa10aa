//! The SQL of the investment committee: its members, their votes on a version, the versions
//! before it and its decisions.

use sqlx::{SqliteConnection, SqlitePool};
use time::OffsetDateTime;

/// A committee member.
pub struct Member {
    pub id: i64,
    pub name: String,
}

pub async fn members(conn: &mut SqliteConnection) -> sqlx::Result<Vec<Member>> {
    sqlx::query_as!(
        Member,
        r#"SELECT id AS "id!", first_name || ' ' || last_name AS "name!: String" FROM users
           WHERE committee_member = 1 AND role IN ('admin', 'superadmin') AND deactivated_at IS NULL
           ORDER BY id"#
    )
    .fetch_all(conn)
    .await
}

/// A vote cast on a version.
pub struct Vote {
    pub user_id: i64,
    pub name: String,
    pub vote: String,
    pub note: String,
    pub voted_at: OffsetDateTime,
}

pub async fn votes(conn: &mut SqliteConnection, version: i64) -> sqlx::Result<Vec<Vote>> {
    sqlx::query_as!(
        Vote,
        r#"SELECT v.user_id, u.first_name || ' ' || u.last_name AS "name!: String", v.vote, v.note,
               v.voted_at AS "voted_at: OffsetDateTime"
           FROM committee_votes v JOIN users u ON u.id = v.user_id
           WHERE v.version_id = ? ORDER BY v.voted_at, v.user_id"#,
        version
    )
    .fetch_all(conn)
    .await
}

/// Records `user`'s vote; `false` when they had voted on this version already.
pub async fn vote(
    conn: &mut SqliteConnection,
    version: i64,
    user: i64,
    (vote, note): (&str, &str),
    now: OffsetDateTime,
) -> sqlx::Result<bool> {
    let done = sqlx::query!(
        "INSERT INTO committee_votes (version_id, user_id, vote, note, voted_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (version_id, user_id) DO NOTHING",
        version,
        user,
        vote,
        note,
        now
    )
    .execute(conn)
    .await?;
    Ok(done.rows_affected() == 1)
}

pub async fn record_decision(
    conn: &mut SqliteConnection,
    version: i64,
    outcome: &str,
    members: &str,
    minutes: i64,
    now: OffsetDateTime,
) -> sqlx::Result<()> {
    sqlx::query!(
        "INSERT INTO committee_decisions (version_id, outcome, members, decided_at, minutes_document_id)
         VALUES (?, ?, ?, ?, ?)",
        version,
        outcome,
        members,
        now,
        minutes
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// A version before the committee, as its list shows it.
pub struct Queued {
    pub version_id: i64,
    pub startup: String,
    pub number: i64,
    pub submitted_at: OffsetDateTime,
    pub approvals: i64,
    pub rejections: i64,
}

pub async fn queue(db: &SqlitePool) -> sqlx::Result<Vec<Queued>> {
    sqlx::query_as!(
        Queued,
        r#"SELECT v.id AS "version_id!", s.name AS startup, v.number,
               v.submitted_at AS "submitted_at: OffsetDateTime",
               (SELECT COUNT(*) FROM committee_votes c WHERE c.version_id = v.id AND c.vote = 'approve')
                   AS "approvals!: i64",
               (SELECT COUNT(*) FROM committee_votes c WHERE c.version_id = v.id AND c.vote = 'reject')
                   AS "rejections!: i64"
           FROM campaign_versions v JOIN startups s ON s.id = v.startup_id
           WHERE v.status = 'committee' ORDER BY v.id"#
    )
    .fetch_all(db)
    .await
}

/// Marks (or unmarks) staff member `user` as a committee member; `false` when not staff.
pub async fn set_member(
    conn: &mut SqliteConnection,
    user: i64,
    member: bool,
) -> sqlx::Result<bool> {
    let done = sqlx::query!(
        "UPDATE users SET committee_member = ? WHERE id = ? AND role IN ('admin', 'superadmin')",
        member,
        user
    )
    .execute(conn)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// The committee's decision on a version of a startup's campaign.
pub struct Decision {
    pub version_id: i64,
    pub number: i64,
    pub outcome: String,
    pub decided_at: OffsetDateTime,
}

/// The committee's latest decision on the startup's campaign.
pub async fn latest_decision(
    conn: &mut SqliteConnection,
    startup: i64,
) -> sqlx::Result<Option<Decision>> {
    sqlx::query_as!(
        Decision,
        r#"SELECT d.version_id AS "version_id!", v.number, d.outcome,
               d.decided_at AS "decided_at: OffsetDateTime"
           FROM committee_decisions d JOIN campaign_versions v ON v.id = d.version_id
           WHERE v.startup_id = ? ORDER BY d.decided_at DESC, d.version_id DESC LIMIT 1"#,
        startup
    )
    .fetch_optional(conn)
    .await
}
