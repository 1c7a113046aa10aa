//! The SQL of notifications: members' choices of optional mails, who gets each, and the
//! scheduled mails already queued. A kind is on for a member when they turned it on, or never
//! chose and it is on by default (`MailKind::on_by_default`).

use ortak_app::domain::investing::RequestStatus;
use ortak_app::domain::notifications::MailKind;
use ortak_app::i18n::Locale;
use sqlx::{SqliteConnection, SqlitePool};
use time::{Date, OffsetDateTime};

/// Who an optional mail goes to.
pub struct Recipient {
    pub id: i64,
    pub email: String,
    pub first_name: String,
    pub language: Locale,
}

/// The kinds `user` gets.
pub async fn enabled(db: &SqlitePool, user: i64) -> sqlx::Result<Vec<MailKind>> {
    let chosen = sqlx::query!(
        r#"SELECT kind, enabled AS "enabled: bool" FROM mail_preferences WHERE user_id = ?"#,
        user
    )
    .fetch_all(db)
    .await?;
    Ok(MailKind::ALL
        .into_iter()
        .filter(|kind| {
            chosen
                .iter()
                .find(|c| c.kind == kind.code())
                .map_or(kind.on_by_default(), |c| c.enabled)
        })
        .collect())
}

/// A member's recorded choice, for their data export.
#[derive(serde::Serialize)]
pub struct Choice {
    pub kind: String,
    pub enabled: bool,
    pub changed_via: String,
    #[serde(with = "time::serde::rfc3339")]
    pub changed_at: OffsetDateTime,
}

/// Every choice `user` recorded.
pub async fn choices(db: &SqlitePool, user: i64) -> sqlx::Result<Vec<Choice>> {
    sqlx::query_as!(
        Choice,
        r#"SELECT kind, enabled AS "enabled: bool", changed_via,
               changed_at AS "changed_at: OffsetDateTime"
         FROM mail_preferences WHERE user_id = ? ORDER BY kind"#,
        user
    )
    .fetch_all(db)
    .await
}

/// Where a choice was made, as `mail_preferences.changed_via` stores it.
#[derive(Clone, Copy)]
pub enum Via {
    Profile,
    Unsubscribe,
}

impl Via {
    fn code(self) -> &'static str {
        match self {
            Via::Profile => "profile",
            Via::Unsubscribe => "unsubscribe",
        }
    }
}

/// Records `user`'s choice for `kind`. A choice that changes nothing keeps its earlier time (the
/// time consent was given stays the time it was given).
pub async fn choose(
    conn: &mut SqliteConnection,
    user: i64,
    kind: MailKind,
    on: bool,
    via: Via,
    now: OffsetDateTime,
) -> sqlx::Result<()> {
    let (kind, via) = (kind.code(), via.code());
    sqlx::query!(
        "INSERT INTO mail_preferences (user_id, kind, enabled, changed_via, changed_at)
         VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (user_id, kind) DO UPDATE SET enabled = excluded.enabled,
             changed_via = excluded.changed_via, changed_at = excluded.changed_at
         WHERE enabled <> excluded.enabled",
        user,
        kind,
        on,
        via,
        now
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// Whether `user` is an active account (an unsubscribe link may outlive its member).
pub async fn active(conn: &mut SqliteConnection, user: i64) -> sqlx::Result<bool> {
    sqlx::query_scalar!(
        r#"SELECT EXISTS (SELECT 1 FROM users WHERE id = ? AND deactivated_at IS NULL) AS "e!: bool""#,
        user
    )
    .fetch_one(conn)
    .await
}

/// Members who saved `startup` or hold a request on it, and get its updates.
pub async fn update_recipients(
    conn: &mut SqliteConnection,
    startup: i64,
) -> sqlx::Result<Vec<Recipient>> {
    sqlx::query_as!(
        Recipient,
        r#"SELECT u.id AS "id!", u.email, u.first_name, u.language AS "language: Locale" FROM users u
         WHERE u.role = 'investor' AND u.deactivated_at IS NULL AND u.email_verified_at IS NOT NULL
           AND (EXISTS (SELECT 1 FROM favorites f WHERE f.user_id = u.id AND f.startup_id = ?1)
             OR EXISTS (SELECT 1 FROM investment_requests r WHERE r.user_id = u.id AND r.startup_id = ?1))
           AND COALESCE((SELECT p.enabled FROM mail_preferences p
                         WHERE p.user_id = u.id AND p.kind = 'updates'), 1) = 1
         ORDER BY u.id"#,
        startup
    )
    .fetch_all(conn)
    .await
}

/// Who is told of an answer: the asker and the members who saved the startup, when they get
/// answers; never the one who answered.
pub async fn answer_recipients(
    conn: &mut SqliteConnection,
    startup: i64,
    asker: i64,
    answerer: i64,
) -> sqlx::Result<Vec<Recipient>> {
    sqlx::query_as!(
        Recipient,
        r#"SELECT u.id AS "id!", u.email, u.first_name, u.language AS "language: Locale" FROM users u
         WHERE u.deactivated_at IS NULL AND u.email_verified_at IS NOT NULL AND u.id <> ?3
           AND (u.id = ?2 OR EXISTS (SELECT 1 FROM favorites f
                                      WHERE f.user_id = u.id AND f.startup_id = ?1))
           AND COALESCE((SELECT p.enabled FROM mail_preferences p
                         WHERE p.user_id = u.id AND p.kind = 'answers'), 1) = 1
         ORDER BY u.id"#,
        startup,
        asker,
        answerer
    )
    .fetch_all(conn)
    .await
}

/// Investors whose interests include `sector` and who get new startups' announcements.
pub async fn interested_in(
    conn: &mut SqliteConnection,
    sector: &str,
) -> sqlx::Result<Vec<Recipient>> {
    sqlx::query_as!(
        Recipient,
        r#"SELECT u.id AS "id!", u.email, u.first_name, u.language AS "language: Locale" FROM users u
         WHERE u.role = 'investor' AND u.deactivated_at IS NULL AND u.email_verified_at IS NOT NULL
           AND (',' || u.interests || ',') LIKE '%,' || ? || ',%'
           AND COALESCE((SELECT p.enabled FROM mail_preferences p
                         WHERE p.user_id = u.id AND p.kind = 'new-startups'), 1) = 1
         ORDER BY u.id"#,
        sector
    )
    .fetch_all(conn)
    .await
}

/// A saved startup whose round closes soon, and a member to tell.
pub struct ClosingSoon {
    pub user_id: i64,
    pub email: String,
    pub first_name: String,
    pub language: Locale,
    pub startup_id: i64,
    pub slug: String,
    pub name: String,
}

/// Members who saved a published startup whose investment period ends between `today` and
/// `last_day`, have no request on it, get closing-soon mails and were not told yet.
pub async fn closing_soon(
    conn: &mut SqliteConnection,
    today: Date,
    last_day: Date,
) -> sqlx::Result<Vec<ClosingSoon>> {
    sqlx::query_as!(
        ClosingSoon,
        r#"SELECT u.id AS "user_id!", u.email, u.first_name, u.language AS "language: Locale",
               s.id AS "startup_id!", s.slug, s.name
         FROM favorites f JOIN users u ON u.id = f.user_id JOIN startups s ON s.id = f.startup_id
         WHERE s.published = 1 AND s.round_status = 'open' AND s.period_kind = 'investment'
           AND s.period_ends_on >= ? AND s.period_ends_on <= ?
           AND u.role = 'investor' AND u.deactivated_at IS NULL AND u.email_verified_at IS NOT NULL
           AND NOT EXISTS (SELECT 1 FROM investment_requests r
                           WHERE r.user_id = u.id AND r.startup_id = s.id)
           AND COALESCE((SELECT p.enabled FROM mail_preferences p
                         WHERE p.user_id = u.id AND p.kind = 'closing-soon'), 1) = 1
           AND NOT EXISTS (SELECT 1 FROM scheduled_mails m WHERE m.user_id = u.id
                           AND m.kind = 'closing-soon' AND m.subject = CAST(s.id AS TEXT))
         ORDER BY u.id, s.id"#,
        today,
        last_day
    )
    .fetch_all(conn)
    .await
}

/// Members who consented to the weekly digest and have not had this `week`'s.
pub async fn digest_recipients(
    conn: &mut SqliteConnection,
    week: &str,
) -> sqlx::Result<Vec<Recipient>> {
    sqlx::query_as!(
        Recipient,
        r#"SELECT u.id AS "id!", u.email, u.first_name, u.language AS "language: Locale" FROM users u
         JOIN mail_preferences p ON p.user_id = u.id AND p.kind = 'digest' AND p.enabled = 1
         WHERE u.role = 'investor' AND u.deactivated_at IS NULL AND u.email_verified_at IS NOT NULL
           AND NOT EXISTS (SELECT 1 FROM scheduled_mails m WHERE m.user_id = u.id
                           AND m.kind = 'digest' AND m.subject = ?)
         ORDER BY u.id"#,
        week
    )
    .fetch_all(conn)
    .await
}

/// A line of a digest: a startup and, for an update, its text in both languages.
pub struct DigestItem {
    pub slug: String,
    pub name: String,
    pub update_tr: Option<String>,
    pub update_en: Option<String>,
}

/// What `user`'s digest lists: startups published since `since` in the member's interest
/// sectors, then updates posted since about startups they saved or hold a request on.
pub async fn digest_items(
    conn: &mut SqliteConnection,
    user: i64,
    since: OffsetDateTime,
) -> sqlx::Result<Vec<DigestItem>> {
    sqlx::query_as!(
        DigestItem,
        r#"SELECT slug AS "slug!", name AS "name!", update_tr, update_en FROM (
             SELECT 0 AS part, s.announced_at AS at, s.slug, s.name,
                    NULL AS update_tr, NULL AS update_en
             FROM startups s JOIN users u ON u.id = ?1
             WHERE s.published = 1 AND s.announced_at >= ?2
               AND (',' || u.interests || ',') LIKE '%,' || s.sector || ',%'
             UNION ALL
             SELECT 1, d.created_at, s.slug, s.name, d.body_tr, d.body_en
             FROM startup_updates d JOIN startups s ON s.id = d.startup_id
             WHERE s.published = 1 AND d.created_at >= ?2
               AND (EXISTS (SELECT 1 FROM favorites f WHERE f.user_id = ?1 AND f.startup_id = s.id)
                 OR EXISTS (SELECT 1 FROM investment_requests r
                            WHERE r.user_id = ?1 AND r.startup_id = s.id))
           ) ORDER BY part, at DESC"#,
        user,
        since
    )
    .fetch_all(conn)
    .await
}

/// Records that a scheduled mail was queued; `false` when it already was (nothing changes).
pub async fn mark_scheduled(
    conn: &mut SqliteConnection,
    user: i64,
    kind: MailKind,
    subject: &str,
    now: OffsetDateTime,
) -> sqlx::Result<bool> {
    let kind = kind.code();
    let done = sqlx::query!(
        "INSERT OR IGNORE INTO scheduled_mails (user_id, kind, subject, queued_at)
         VALUES (?, ?, ?, ?)",
        user,
        kind,
        subject,
        now
    )
    .execute(conn)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Marks the startup announced: its address and sector, or `None` when it already was.
pub async fn mark_announced(
    conn: &mut SqliteConnection,
    startup: i64,
    now: OffsetDateTime,
) -> sqlx::Result<Option<(String, String)>> {
    let row = sqlx::query!(
        "UPDATE startups SET announced_at = ? WHERE id = ? AND announced_at IS NULL
         RETURNING slug, sector",
        now,
        startup
    )
    .fetch_optional(conn)
    .await?;
    Ok(row.map(|r| (r.slug, r.sector)))
}

/// Records that the startup's fund-use report due `due_on` was chased; `false` when it was.
pub async fn mark_fund_use_reminder(
    conn: &mut SqliteConnection,
    startup: i64,
    due_on: time::Date,
    now: OffsetDateTime,
) -> sqlx::Result<bool> {
    let done = sqlx::query!(
        "INSERT OR IGNORE INTO fund_use_reminders (startup_id, due_on, sent_at) VALUES (?, ?, ?)",
        startup,
        due_on,
        now
    )
    .execute(conn)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Records that the startup's overdue report for `quarter` was told; `false` when it already
/// was.
pub async fn mark_report_reminder(
    conn: &mut SqliteConnection,
    startup: i64,
    quarter: &str,
    now: OffsetDateTime,
) -> sqlx::Result<bool> {
    let done = sqlx::query!(
        "INSERT OR IGNORE INTO report_reminders (startup_id, quarter, sent_at) VALUES (?, ?, ?)",
        startup,
        quarter,
        now
    )
    .execute(conn)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Who works for the startup (its fund's team and its verified founders).
pub async fn team_of(conn: &mut SqliteConnection, startup: i64) -> sqlx::Result<Vec<Recipient>> {
    sqlx::query_as!(
        Recipient,
        r#"SELECT u.id AS "id!", u.email, u.first_name, u.language AS "language: Locale" FROM users u
         WHERE u.deactivated_at IS NULL
           AND u.id IN (SELECT user_id FROM startup_teams WHERE startup_id = ?)
         ORDER BY u.id"#,
        startup
    )
    .fetch_all(conn)
    .await
}

/// The startup's investors (their money arrived) who get updates and reports.
pub async fn investors_for_updates(
    conn: &mut SqliteConnection,
    startup: i64,
) -> sqlx::Result<Vec<Recipient>> {
    let invested = RequestStatus::invested_json();
    sqlx::query_as!(
        Recipient,
        r#"SELECT u.id AS "id!", u.email, u.first_name, u.language AS "language: Locale" FROM users u
         WHERE u.deactivated_at IS NULL AND u.email_verified_at IS NOT NULL
           AND EXISTS (SELECT 1 FROM investment_requests r WHERE r.user_id = u.id
                       AND r.startup_id = ?1 AND r.status IN (SELECT value FROM json_each(?2)))
           AND COALESCE((SELECT p.enabled FROM mail_preferences p
                         WHERE p.user_id = u.id AND p.kind = 'updates'), 1) = 1
         ORDER BY u.id"#,
        startup,
        invested
    )
    .fetch_all(conn)
    .await
}
