//! The SQL of onboarding: the answers kept on `users` and the step reached.

use ortak_app::domain::onboarding::Answers;
use sqlx::{SqliteConnection, SqlitePool};
use time::OffsetDateTime;

/// The stored answers, as the forms show them (unanswered: empty; yes/no as `yes`/`no`).
pub struct Stored {
    pub phone: String,
    pub country: String,
    pub city: String,
    pub investor_type: String,
    pub company_name: String,
    pub tax_office: String,
    pub position: String,
    pub purpose: String,
    pub budget: String,
    /// Comma-separated interest codes.
    pub interests: String,
    pub how_heard: String,
    pub experience: String,
    pub specific: String,
    pub specific_startup: String,
    /// The first step not yet saved.
    pub step: i64,
}

pub async fn answers(db: &SqlitePool, user_id: i64) -> sqlx::Result<Stored> {
    sqlx::query_as!(
        Stored,
        r#"SELECT phone, country, city, COALESCE(investor_type, '') AS "investor_type!: String",
                company_name, tax_office, position,
                COALESCE(registration_purpose, '') AS "purpose!: String",
                COALESCE(budget_range, '') AS "budget!: String", interests,
                COALESCE(how_heard, '') AS "how_heard!: String",
                CASE prior_experience WHEN 1 THEN 'yes' WHEN 0 THEN 'no' ELSE '' END AS "experience!: String",
                CASE specific_investment WHEN 1 THEN 'yes' WHEN 0 THEN 'no' ELSE '' END AS "specific!: String",
                specific_startup, onboarding_step AS step
         FROM users WHERE id = ?"#,
        user_id
    )
    .fetch_one(db)
    .await
}

/// The first onboarding step the user has not saved.
pub async fn step(db: &SqlitePool, user_id: i64) -> sqlx::Result<i64> {
    sqlx::query_scalar!("SELECT onboarding_step FROM users WHERE id = ?", user_id)
        .fetch_one(db)
        .await
}

/// Whether the user finished onboarding before.
pub async fn completed(conn: &mut SqliteConnection, user_id: i64) -> sqlx::Result<bool> {
    sqlx::query_scalar!(
        r#"SELECT onboarding_completed_at IS NOT NULL AS "done!: bool" FROM users WHERE id = ?"#,
        user_id
    )
    .fetch_one(conn)
    .await
}

/// Where a save leaves the user: the step saved, the furthest step reached (the later of the
/// two), and how many steps there are.
pub struct Progress {
    pub saved: i64,
    pub furthest: i64,
    pub steps: i64,
}

/// Stores every answer, moves the step forward (never back) and stamps completion the first
/// time the furthest step passes the last.
pub async fn save(
    conn: &mut SqliteConnection,
    user_id: i64,
    a: &Answers,
    progress: Progress,
    now: OffsetDateTime,
) -> sqlx::Result<()> {
    let interests = a.interests.join(",");
    let next_step = progress.saved + 1;
    let reached = progress.furthest + 1;
    sqlx::query!(
        "UPDATE users SET phone = ?, country = ?, city = ?, investor_type = NULLIF(?, ''), company_name = ?,
             tax_office = ?, position = ?, registration_purpose = NULLIF(?, ''), budget_range = NULLIF(?, ''),
             interests = ?, how_heard = NULLIF(?, ''),
             prior_experience = CASE ? WHEN 'yes' THEN 1 WHEN 'no' THEN 0 END,
             specific_investment = CASE ? WHEN 'yes' THEN 1 WHEN 'no' THEN 0 END, specific_startup = ?,
             onboarding_step = MAX(onboarding_step, ?),
             onboarding_completed_at = CASE WHEN ? > ? THEN COALESCE(onboarding_completed_at, ?) END,
             updated_at = ?
         WHERE id = ?",
        a.phone,
        a.country,
        a.city,
        a.investor_type,
        a.company_name,
        a.tax_office,
        a.position,
        a.purpose,
        a.budget,
        interests,
        a.how_heard,
        a.experience,
        a.specific,
        a.specific_startup,
        next_step,
        reached,
        progress.steps,
        now,
        now,
        user_id
    )
    .execute(conn)
    .await?;
    Ok(())
}
