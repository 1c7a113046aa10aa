//! The SQL of what an approval writes: the issuer's checks, the approved campaign made live,
//! and the documents it files in the round's vault.

use ortak_app::domain::campaign::Campaign;
use ortak_app::domain::issuer::Issuer;
use sqlx::SqliteConnection;
use time::OffsetDateTime;

/// The issuer's checks as staff recorded them.
pub async fn issuer(conn: &mut SqliteConnection, startup: i64) -> sqlx::Result<Issuer> {
    sqlx::query_as!(
        Issuer,
        r#"SELECT legal_form, registry_number, issuer_assets_kurus AS assets_kurus,
               issuer_revenue_kurus AS revenue_kurus, raised_last_12m_kurus
           FROM startups WHERE id = ?"#,
        startup
    )
    .fetch_one(conn)
    .await
}

pub async fn save_issuer(
    conn: &mut SqliteConnection,
    startup: i64,
    i: &Issuer,
    by: i64,
    now: OffsetDateTime,
) -> sqlx::Result<bool> {
    let done = sqlx::query!(
        "UPDATE startups SET legal_form = ?, registry_number = ?, issuer_assets_kurus = ?,
             issuer_revenue_kurus = ?, raised_last_12m_kurus = ?, issuer_checked_by = ?,
             issuer_checked_at = ?
         WHERE id = ?",
        i.legal_form,
        i.registry_number,
        i.assets_kurus,
        i.revenue_kurus,
        i.raised_last_12m_kurus,
        by,
        now,
        startup
    )
    .execute(conn)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Makes `campaign` (approved version `version`) the startup's live campaign, and publishes it.
pub async fn apply(
    conn: &mut SqliteConnection,
    startup: i64,
    version: i64,
    c: &Campaign,
) -> sqlx::Result<()> {
    let t = &c.terms;
    let funds = serde_json::to_string(&t.use_of_funds).unwrap_or_else(|_| "[]".into());
    sqlx::query!(
        "UPDATE startups SET description_tr = ?, description_en = ?, funding_goal_kurus = ?,
             period_starts_on = ?, period_ends_on = ?, pre_money_valuation_kurus = ?,
             share_price_kurus = ?, shares_offered = ?, minimum_raise_kurus = ?,
             maximum_raise_kurus = ?, use_of_funds = ?, financials_period = ?, revenue_kurus = ?,
             net_income_kurus = ?, pitch_video = ?, approved_version_id = ?, published = 1
         WHERE id = ?",
        c.description_tr,
        c.description_en,
        c.goal_kurus,
        c.starts_on,
        c.ends_on,
        t.pre_money_valuation_kurus,
        t.share_price_kurus,
        t.shares_offered,
        t.minimum_raise_kurus,
        t.maximum_raise_kurus,
        funds,
        c.financials.period,
        c.financials.revenue_kurus,
        c.financials.net_income_kurus,
        c.pitch_video,
        version,
        startup
    )
    .execute(&mut *conn)
    .await?;
    sqlx::query!("DELETE FROM startup_sections WHERE startup_id = ?", startup)
        .execute(&mut *conn)
        .await?;
    for (section, (tr, en)) in &c.sections {
        sqlx::query!(
            "INSERT INTO startup_sections (startup_id, section, body_tr, body_en) VALUES (?, ?, ?, ?)",
            startup,
            section,
            tr,
            en
        )
        .execute(&mut *conn)
        .await?;
    }
    Ok(())
}

/// The label (content hash) of the round's current information form, if it has one.
pub async fn current_form_label(
    conn: &mut SqliteConnection,
    startup: i64,
) -> sqlx::Result<Option<String>> {
    sqlx::query_scalar!(
        "SELECT label FROM round_documents WHERE startup_id = ? AND kind = 'information-form'
         ORDER BY id DESC LIMIT 1",
        startup
    )
    .fetch_optional(conn)
    .await
}

/// A document of the vault, made from (or for) a version.
pub struct NewDocument<'a> {
    pub startup: i64,
    pub kind: &'a str,
    pub file_name: &'a str,
    pub by: Option<i64>,
    pub version: Option<i64>,
    pub label: &'a str,
}

pub async fn insert_document(
    conn: &mut SqliteConnection,
    d: &NewDocument<'_>,
    now: OffsetDateTime,
) -> sqlx::Result<i64> {
    sqlx::query_scalar!(
        r#"INSERT INTO round_documents (startup_id, kind, file_name, uploaded_by, uploaded_at, version_id, label)
           VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id AS "id!""#,
        d.startup,
        d.kind,
        d.file_name,
        d.by,
        now,
        d.version,
        d.label
    )
    .fetch_one(conn)
    .await
}
