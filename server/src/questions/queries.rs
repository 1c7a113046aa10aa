//! The SQL of questions and founders.

use sqlx::{SqliteConnection, SqlitePool};
use time::OffsetDateTime;

/// A question as the thread shows it.
pub struct Question {
    pub id: i64,
    pub body: String,
    pub asked_at: OffsetDateTime,
    pub answer: Option<String>,
    pub answered_at: Option<OffsetDateTime>,
    pub hidden_reason: Option<String>,
    /// Whether the viewer asked it.
    pub mine: bool,
    /// Who answered, while their account exists: their name, whether they are one of the
    /// startup's founders (else they answered for its fund's team), and the fund's name.
    pub answerer: Option<String>,
    pub by_founder: bool,
    pub fund: String,
}

/// The thread of `startup`, oldest first; hidden questions only when `with_hidden` (staff).
pub async fn thread(
    db: &SqlitePool,
    startup: i64,
    viewer: i64,
    with_hidden: bool,
) -> sqlx::Result<Vec<Question>> {
    sqlx::query_as!(
        Question,
        r#"SELECT q.id AS "id!", q.body, q.asked_at AS "asked_at: OffsetDateTime", q.answer,
               q.answered_at AS "answered_at: OffsetDateTime", q.hidden_reason,
               q.user_id = ?2 AS "mine!: bool",
               trim(a.first_name || ' ' || a.last_name) AS "answerer?: String",
               EXISTS (SELECT 1 FROM founder_accounts fa
                       WHERE fa.startup_id = q.startup_id AND fa.email = a.email) AS "by_founder!: bool",
               f.name AS fund
         FROM questions q JOIN startups s ON s.id = q.startup_id JOIN funds f ON f.id = s.fund_id
              LEFT JOIN users a ON a.id = q.answered_by
         WHERE q.startup_id = ?1 AND (q.hidden_at IS NULL OR ?3)
         ORDER BY q.id"#,
        startup,
        viewer,
        with_hidden
    )
    .fetch_all(db)
    .await
}

/// Whether `user` answers for `startup`: a member of its fund's team, or a founder staff
/// invited whose address is verified.
pub async fn answers_for(db: &SqlitePool, user: i64, startup: i64) -> sqlx::Result<bool> {
    sqlx::query_scalar!(
        r#"SELECT EXISTS (SELECT 1 FROM startup_teams WHERE user_id = ?1 AND startup_id = ?2)
             AS "answers!: bool""#,
        user,
        startup
    )
    .fetch_one(db)
    .await
}

pub async fn insert(
    conn: &mut SqliteConnection,
    startup: i64,
    user: i64,
    body: &str,
    now: OffsetDateTime,
) -> sqlx::Result<i64> {
    sqlx::query_scalar!(
        r#"INSERT INTO questions (startup_id, user_id, body, asked_at) VALUES (?, ?, ?, ?)
           RETURNING id AS "id!""#,
        startup,
        user,
        body,
        now
    )
    .fetch_one(conn)
    .await
}

/// A visible question of `startup` waiting for its answer.
pub struct Open {
    pub body: String,
    pub asker: i64,
}

/// Answers question `id` of `startup` if it is visible and unanswered; `None` otherwise
/// (nothing changes then: an answer is given once).
pub async fn answer(
    conn: &mut SqliteConnection,
    startup: i64,
    id: i64,
    text: &str,
    by: i64,
    now: OffsetDateTime,
) -> sqlx::Result<Option<Open>> {
    sqlx::query_as!(
        Open,
        r#"UPDATE questions SET answer = ?, answered_by = ?, answered_at = ?
           WHERE id = ? AND startup_id = ? AND answer IS NULL AND hidden_at IS NULL
           RETURNING body, user_id AS "asker!""#,
        text,
        by,
        now,
        id,
        startup
    )
    .fetch_optional(conn)
    .await
}

/// Hides question `id` with `reason`; the question's startup, or `None` when there is no such
/// visible question.
pub async fn hide(
    conn: &mut SqliteConnection,
    id: i64,
    reason: &str,
    by: i64,
    now: OffsetDateTime,
) -> sqlx::Result<Option<i64>> {
    sqlx::query_scalar!(
        r#"UPDATE questions SET hidden_reason = ?, hidden_by = ?, hidden_at = ?
           WHERE id = ? AND hidden_at IS NULL RETURNING startup_id AS "startup!""#,
        reason,
        by,
        now,
        id
    )
    .fetch_optional(conn)
    .await
}

/// Who answered for `startup`: `user`'s name, whether they are one of its founders, and its
/// fund's name (for the mails, in the words of the thread).
pub async fn answerer(
    conn: &mut SqliteConnection,
    startup: i64,
    user: i64,
) -> sqlx::Result<(String, bool, String)> {
    let row = sqlx::query!(
        r#"SELECT trim(u.first_name || ' ' || u.last_name) AS "name!: String",
               EXISTS (SELECT 1 FROM founder_accounts fa
                       WHERE fa.startup_id = s.id AND fa.email = u.email) AS "founder!: bool",
               f.name AS fund
         FROM users u, startups s JOIN funds f ON f.id = s.fund_id
         WHERE u.id = ?1 AND s.id = ?2"#,
        user,
        startup
    )
    .fetch_one(conn)
    .await?;
    Ok((row.name, row.founder, row.fund))
}

/// The slug of the startup a question is about.
pub async fn slug_of_question(db: &SqlitePool, id: i64) -> sqlx::Result<Option<String>> {
    sqlx::query_scalar!(
        "SELECT s.slug FROM questions q JOIN startups s ON s.id = q.startup_id WHERE q.id = ?",
        id
    )
    .fetch_optional(db)
    .await
}
