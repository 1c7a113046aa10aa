//! The SQL of reconfirmations: a material change to a round's terms, its items, and each open
//! request's answer (see `investing::reconfirmation`). Answers move only from `pending`, so a
//! repeated answer changes nothing.

use ortak_app::domain::investing::RequestStatus;
use ortak_app::domain::reconfirmation::{Answer, Term, TermChange};
use sqlx::{SqliteConnection, SqlitePool};
use time::{Date, OffsetDateTime};

/// A request that has not ended, and where it stands.
pub struct Open {
    pub id: i64,
    pub status: RequestStatus,
}

/// The startup's requests that have not ended: each is asked to reconfirm.
pub async fn open_requests(conn: &mut SqliteConnection, startup: i64) -> sqlx::Result<Vec<Open>> {
    sqlx::query_as!(
        Open,
        r#"SELECT id AS "id!", status AS "status: RequestStatus" FROM investment_requests
           WHERE startup_id = ? AND status IN
             ('waitlisted', 'submitted', 'under_review', 'approved', 'fee_paid', 'funded')
           ORDER BY id"#,
        startup
    )
    .fetch_all(conn)
    .await
}

pub async fn insert_change(
    conn: &mut SqliteConnection,
    startup: i64,
    by: i64,
    now: OffsetDateTime,
    deadline: OffsetDateTime,
) -> sqlx::Result<i64> {
    sqlx::query_scalar!(
        r#"INSERT INTO term_changes (startup_id, made_by, made_at, deadline_at)
           VALUES (?, ?, ?, ?) RETURNING id AS "id!""#,
        startup,
        by,
        now,
        deadline
    )
    .fetch_one(conn)
    .await
}

pub async fn insert_item(
    conn: &mut SqliteConnection,
    change: i64,
    item: &TermChange,
) -> sqlx::Result<()> {
    let term = item.term.code();
    sqlx::query!(
        "INSERT INTO term_change_items (change_id, term, before_value, after_value)
         VALUES (?, ?, ?, ?)",
        change,
        term,
        item.before,
        item.after
    )
    .execute(conn)
    .await?;
    Ok(())
}

pub async fn ask(conn: &mut SqliteConnection, request: i64, change: i64) -> sqlx::Result<()> {
    sqlx::query!(
        "INSERT INTO reconfirmations (request_id, change_id) VALUES (?, ?)",
        request,
        change
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// A question waiting for its investor's answer.
pub struct Pending {
    pub request_id: i64,
    pub deadline_at: OffsetDateTime,
}

/// The question request `request` waits on (the oldest, when staff changed terms twice).
pub async fn pending(conn: &mut SqliteConnection, request: i64) -> sqlx::Result<Option<Pending>> {
    sqlx::query_as!(
        Pending,
        r#"SELECT c.request_id, t.deadline_at AS "deadline_at: OffsetDateTime"
           FROM reconfirmations c JOIN term_changes t ON t.id = c.change_id
           WHERE c.request_id = ? AND c.answer = 'pending'
           ORDER BY c.change_id LIMIT 1"#,
        request
    )
    .fetch_optional(conn)
    .await
}

/// Every question whose deadline passed unanswered.
pub async fn expired(db: &SqlitePool, now: OffsetDateTime) -> sqlx::Result<Vec<Pending>> {
    sqlx::query_as!(
        Pending,
        r#"SELECT c.request_id, t.deadline_at AS "deadline_at: OffsetDateTime"
           FROM reconfirmations c JOIN term_changes t ON t.id = c.change_id
           WHERE c.answer = 'pending' AND t.deadline_at <= ?
           ORDER BY c.change_id, c.request_id"#,
        now
    )
    .fetch_all(db)
    .await
}

/// Records the answer to every question request `request` waits on; `false` when none was
/// waiting (answered meanwhile).
pub async fn answer(
    conn: &mut SqliteConnection,
    request: i64,
    answer: Answer,
    now: OffsetDateTime,
) -> sqlx::Result<bool> {
    let answer = answer.code();
    let done = sqlx::query!(
        "UPDATE reconfirmations SET answer = ?, answered_at = ?
         WHERE request_id = ? AND answer = 'pending'",
        answer,
        now,
        request
    )
    .execute(conn)
    .await?;
    Ok(done.rows_affected() > 0)
}

/// The changed terms request `request` waits on, every pending change together.
pub async fn pending_items(
    conn: &mut SqliteConnection,
    request: i64,
) -> sqlx::Result<Vec<TermChange>> {
    let rows = sqlx::query!(
        r#"SELECT i.term, i.before_value, i.after_value
           FROM reconfirmations c JOIN term_change_items i ON i.change_id = c.change_id
           WHERE c.request_id = ? AND c.answer = 'pending'
           ORDER BY c.change_id, i.term"#,
        request
    )
    .fetch_all(conn)
    .await?;
    Ok(rows
        .into_iter()
        .filter_map(|r| {
            Some(TermChange {
                term: Term::from_code(&r.term)?,
                before: r.before_value,
                after: r.after_value,
            })
        })
        .collect())
}

/// How many of the startup's requests wait on a reconfirmation, and the latest deadline.
pub struct Waiting {
    pub count: i64,
    pub until: Option<OffsetDateTime>,
}

pub async fn waiting(conn: &mut SqliteConnection, startup: i64) -> sqlx::Result<Waiting> {
    sqlx::query_as!(
        Waiting,
        r#"SELECT COUNT(DISTINCT c.request_id) AS "count!: i64",
               MAX(t.deadline_at) AS "until?: OffsetDateTime"
           FROM reconfirmations c JOIN term_changes t ON t.id = c.change_id
           WHERE t.startup_id = ? AND c.answer = 'pending'"#,
        startup
    )
    .fetch_one(conn)
    .await
}

/// The request now stands on the information form version `form` its investor opened.
pub async fn set_information_form(
    conn: &mut SqliteConnection,
    request: i64,
    form: i64,
) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE investment_requests SET information_form_id = ? WHERE id = ?",
        form,
        request
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// The round's terms whose change is material, as stored.
pub struct Terms {
    pub goal_kurus: i64,
    pub valuation_usd: Option<i64>,
    pub round_valuation_kurus: Option<i64>,
    pub starts_on: Date,
    pub ends_on: Date,
    /// The current information form's version (1 for the first upload), and when it came.
    pub information_forms: i64,
    pub information_form_at: Option<OffsetDateTime>,
}

pub async fn terms(conn: &mut SqliteConnection, startup: i64) -> sqlx::Result<Option<Terms>> {
    sqlx::query_as!(
        Terms,
        r#"SELECT funding_goal_kurus AS goal_kurus, valuation_usd, round_valuation_kurus,
               period_starts_on AS "starts_on: Date", period_ends_on AS "ends_on: Date",
               (SELECT COUNT(*) FROM round_documents
                WHERE startup_id = startups.id AND kind = 'information-form')
                 AS "information_forms!: i64",
               (SELECT uploaded_at FROM round_documents
                WHERE startup_id = startups.id AND kind = 'information-form'
                ORDER BY id DESC LIMIT 1) AS "information_form_at?: OffsetDateTime"
           FROM startups WHERE id = ?"#,
        startup
    )
    .fetch_optional(conn)
    .await
}
