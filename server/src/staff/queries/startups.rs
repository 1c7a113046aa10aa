//! The startup editor's SQL (`staff/startups/`): the list, one startup with its analysis
//! sections and founders, saving them, and the first-publication announcement. Presentation
//! pages are in `startup_pages`, drafts made from applications in `startup_drafts`.

use std::collections::BTreeMap;

use ortak_app::domain::collation::sort_key;
use ortak_app::domain::startup_form::{Founder, StartupRecord};
use ortak_app::domain::startups::PeriodKind;
use ortak_app::i18n::Locale;
use sqlx::{SqliteConnection, SqlitePool};
use time::Date;

/// A row of `/dashboard/startups`.
pub struct ListedStartup {
    pub id: i64,
    pub name: String,
    pub fund: String,
    pub sector: String,
    pub period_kind: PeriodKind,
    pub ends_on: Date,
    pub published: bool,
}

/// Every startup, newest first.
pub async fn listed(db: &SqlitePool) -> sqlx::Result<Vec<ListedStartup>> {
    sqlx::query_as!(
        ListedStartup,
        r#"SELECT s.id AS "id!", s.name, f.name AS fund, s.sector,
                s.period_kind AS "period_kind: PeriodKind",
                s.period_ends_on AS "ends_on: Date", s.published AS "published: bool"
         FROM startups s JOIN funds f ON f.id = s.fund_id
         ORDER BY s.created_at DESC, s.id DESC"#
    )
    .fetch_all(db)
    .await
}

/// A startup's own columns, as the editor shows them.
pub struct StoredStartup {
    pub name: String,
    pub slug: String,
    pub sector: String,
    pub subcategory: String,
    pub fund_id: i64,
    pub country: String,
    pub city: String,
    pub description_tr: String,
    pub description_en: String,
    pub website: String,
    pub instagram: String,
    pub twitter: String,
    pub youtube: String,
    pub team_size: i64,
    pub established_on: Option<Date>,
    pub stage: String,
    pub monthly_income_kurus: Option<i64>,
    pub monthly_expense_kurus: Option<i64>,
    pub valuation_usd: Option<i64>,
    pub amount_sought_usd: Option<i64>,
    pub funding_goal_kurus: i64,
    pub period_kind: PeriodKind,
    pub period_starts_on: Date,
    pub period_ends_on: Date,
    pub vip_until: Option<Date>,
    pub published: bool,
}

pub async fn startup(conn: &mut SqliteConnection, id: i64) -> sqlx::Result<Option<StoredStartup>> {
    sqlx::query_as!(
        StoredStartup,
        r#"SELECT name, slug, sector, subcategory, fund_id, country, city, description_tr,
                description_en, website, instagram, twitter, youtube, team_size,
                established_on AS "established_on: Date", stage, monthly_income_kurus,
                monthly_expense_kurus, valuation_usd, amount_sought_usd, funding_goal_kurus,
                period_kind AS "period_kind: PeriodKind",
                period_starts_on AS "period_starts_on: Date",
                period_ends_on AS "period_ends_on: Date", vip_until AS "vip_until: Date",
                published AS "published: bool"
         FROM startups WHERE id = ?"#,
        id
    )
    .fetch_optional(conn)
    .await
}

/// One analysis section in both languages.
pub struct StoredSection {
    pub section: String,
    pub body_tr: String,
    pub body_en: String,
}

pub async fn sections(conn: &mut SqliteConnection, id: i64) -> sqlx::Result<Vec<StoredSection>> {
    sqlx::query_as!(
        StoredSection,
        "SELECT section, body_tr, body_en FROM startup_sections WHERE startup_id = ?",
        id
    )
    .fetch_all(conn)
    .await
}

/// The founders in their order.
pub async fn founders(conn: &mut SqliteConnection, id: i64) -> sqlx::Result<Vec<Founder>> {
    sqlx::query_as!(
        Founder,
        "SELECT name, title, linkedin FROM founders WHERE startup_id = ? ORDER BY position_order",
        id
    )
    .fetch_all(conn)
    .await
}

/// A fund staff may choose in the editor.
pub struct FundChoice {
    pub id: i64,
    pub name: String,
}

/// The funds, by name.
pub async fn funds(db: &SqlitePool) -> sqlx::Result<Vec<FundChoice>> {
    sqlx::query_as!(FundChoice, "SELECT id, name FROM funds ORDER BY name")
        .fetch_all(db)
        .await
}

pub async fn fund_ids(db: &SqlitePool) -> sqlx::Result<Vec<i64>> {
    sqlx::query_scalar!(r#"SELECT id AS "id!" FROM funds"#)
        .fetch_all(db)
        .await
}

/// The stored address of startup `id` (the editor's links use it, not the one being typed).
pub async fn slug(db: &SqlitePool, id: i64) -> sqlx::Result<String> {
    sqlx::query_scalar!("SELECT slug FROM startups WHERE id = ?", id)
        .fetch_one(db)
        .await
}

/// Whether another startup than `except` has `slug`. Only for showing a form again (a
/// preview, a refused form): saving relies on the unique constraint.
pub async fn slug_taken(db: &SqlitePool, slug: &str, except: Option<i64>) -> sqlx::Result<bool> {
    sqlx::query_scalar!(
        r#"SELECT EXISTS (SELECT 1 FROM startups WHERE slug = ? AND id IS NOT ?) AS "taken!: bool""#,
        slug,
        except
    )
    .fetch_one(db)
    .await
}

/// The presentation pages' positions, in order.
pub async fn page_positions(db: &SqlitePool, id: i64) -> sqlx::Result<Vec<i64>> {
    sqlx::query_scalar!(
        "SELECT position FROM startup_pages WHERE startup_id = ? ORDER BY position",
        id
    )
    .fetch_all(db)
    .await
}

/// A quarterly report's quarter and title in both languages.
pub struct ReportTitle {
    pub quarter: String,
    pub title_tr: String,
    pub title_en: String,
}

/// The startup's reports, newest first.
pub async fn reports(db: &SqlitePool, id: i64) -> sqlx::Result<Vec<ReportTitle>> {
    sqlx::query_as!(
        ReportTitle,
        "SELECT quarter, title_tr, title_en FROM reports WHERE startup_id = ?
         ORDER BY published_at DESC",
        id
    )
    .fetch_all(db)
    .await
}

/// Writes the startup, its sections and founders; returns its id. A taken slug fails the
/// first statement with a unique violation of `startups.slug`.
pub async fn store(
    conn: &mut SqliteConnection,
    id: Option<i64>,
    r: &StartupRecord,
) -> sqlx::Result<i64> {
    let (key_tr, key_en) = (sort_key(&r.name, Locale::Tr), sort_key(&r.name, Locale::En));
    let id = match id {
        Some(id) => {
            sqlx::query!(
                "UPDATE startups SET slug = ?, name = ?, sort_key_tr = ?, sort_key_en = ?
                 WHERE id = ?",
                r.slug,
                r.name,
                key_tr,
                key_en,
                id
            )
            .execute(&mut *conn)
            .await?;
            id
        }
        // The row is completed by `update_details`; the fund must exist already.
        None => sqlx::query_scalar!(
            r#"INSERT INTO startups (slug, name, sort_key_tr, sort_key_en, sector, fund_id, city,
                     description_tr, description_en, stage, funding_goal_kurus, period_kind,
                     period_starts_on, period_ends_on, published)
                 VALUES (?, ?, ?, ?, '', ?, '', '', '', '', 1, 'investment', '', '', 0)
                 RETURNING id AS "id!""#,
            r.slug,
            r.name,
            key_tr,
            key_en,
            r.fund_id
        )
        .fetch_one(&mut *conn)
        .await?,
    };
    update_details(conn, id, r).await?;
    replace_sections(conn, id, &r.sections).await?;
    replace_founders(conn, id, &r.founders).await?;
    Ok(id)
}

async fn update_details(
    conn: &mut SqliteConnection,
    id: i64,
    r: &StartupRecord,
) -> sqlx::Result<()> {
    let monthly_income = r.monthly_income.map(|m| m.kurus());
    let monthly_expense = r.monthly_expense.map(|m| m.kurus());
    let goal = r.goal.kurus();
    let period_kind = r.period_kind.code();
    sqlx::query!(
        "UPDATE startups SET sector = ?, subcategory = ?, fund_id = ?, country = ?, city = ?,
             description_tr = ?, description_en = ?, website = ?, instagram = ?, twitter = ?,
             youtube = ?, team_size = ?, established_on = ?, stage = ?, monthly_income_kurus = ?,
             monthly_expense_kurus = ?, valuation_usd = ?, amount_sought_usd = ?,
             funding_goal_kurus = ?, completion_pct = raised_kurus * 100 / ?,
             period_kind = ?, period_starts_on = ?, period_ends_on = ?, vip_until = ?, published = ?
         WHERE id = ?",
        r.sector,
        r.subcategory,
        r.fund_id,
        r.country,
        r.city,
        r.description_tr,
        r.description_en,
        r.website,
        r.instagram,
        r.twitter,
        r.youtube,
        r.team_size,
        r.established_on,
        r.stage,
        monthly_income,
        monthly_expense,
        r.valuation_usd,
        r.amount_sought_usd,
        goal,
        goal,
        period_kind,
        r.starts_on,
        r.ends_on,
        r.vip_until,
        r.published,
        id
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// Stores the sections that have text in either language.
async fn replace_sections(
    conn: &mut SqliteConnection,
    id: i64,
    sections: &BTreeMap<String, (String, String)>,
) -> sqlx::Result<()> {
    sqlx::query!("DELETE FROM startup_sections WHERE startup_id = ?", id)
        .execute(&mut *conn)
        .await?;
    for (section, (tr, en)) in sections {
        if tr.is_empty() && en.is_empty() {
            continue;
        }
        sqlx::query!(
            "INSERT INTO startup_sections (startup_id, section, body_tr, body_en)
             VALUES (?, ?, ?, ?)",
            id,
            section,
            tr,
            en
        )
        .execute(&mut *conn)
        .await?;
    }
    Ok(())
}

async fn replace_founders(
    conn: &mut SqliteConnection,
    id: i64,
    founders: &[Founder],
) -> sqlx::Result<()> {
    sqlx::query!("DELETE FROM founders WHERE startup_id = ?", id)
        .execute(&mut *conn)
        .await?;
    for (i, f) in founders.iter().enumerate() {
        let position = i as i64;
        sqlx::query!(
            "INSERT INTO founders (startup_id, position_order, name, title, linkedin)
             VALUES (?, ?, ?, ?, ?)",
            id,
            position,
            f.name,
            f.title,
            f.linkedin
        )
        .execute(&mut *conn)
        .await?;
    }
    Ok(())
}
