//! The SQL of the startups area: cards and the catalogue (`cards`), a startup's page,
//! favourites, presentation pages, VIP early access and stored reports; the round's figures in
//! `rounds`. Everything is compile-checked but the catalogue's filters and the lists of cards
//! (`cards`: built from known fragments, checked by a unit test and the pages' tests).

mod cards;
pub use cards::{CardRow, Facets, card, catalogue_page, favorite_cards};
pub mod documents;
mod favorites;
pub use favorites::set_favorite;
pub mod images;
pub use images::presentation_page;
pub mod reports;
pub mod rounds;
pub mod terms;
pub mod track_record;

use ortak_app::pages::startup_editor::ReportForm;
use sqlx::{SqliteConnection, SqlitePool};
use time::{Date, OffsetDateTime};

/// What a startup's page shows beyond its card.
pub struct Profile {
    pub description_tr: String,
    pub description_en: String,
    pub website: String,
    pub stage: String,
    pub team_size: i64,
}

pub async fn profile(db: impl sqlx::SqliteExecutor<'_>, startup: i64) -> sqlx::Result<Profile> {
    sqlx::query_as!(
        Profile,
        "SELECT description_tr, description_en, website, stage, team_size FROM startups WHERE id = ?",
        startup
    )
    .fetch_one(db)
    .await
}

/// One analysis section in both languages.
pub struct Section {
    pub section: String,
    pub body_tr: String,
    pub body_en: String,
}

pub async fn sections(
    db: impl sqlx::SqliteExecutor<'_>,
    startup: i64,
) -> sqlx::Result<Vec<Section>> {
    sqlx::query_as!(
        Section,
        "SELECT section, body_tr, body_en FROM startup_sections WHERE startup_id = ?",
        startup
    )
    .fetch_all(db)
    .await
}

pub struct Founder {
    pub name: String,
    pub title: String,
    pub photo: Option<String>,
}

/// The founders in their order, each with their photo's stored name if one was uploaded.
pub async fn founders(
    db: impl sqlx::SqliteExecutor<'_>,
    startup: i64,
) -> sqlx::Result<Vec<Founder>> {
    sqlx::query_as!(
        Founder,
        r#"SELECT f.name, f.title, p.photo AS "photo?"
           FROM founders f
           LEFT JOIN founder_photos p ON p.startup_id = f.startup_id AND p.name = f.name
           WHERE f.startup_id = ? ORDER BY f.position_order"#,
        startup
    )
    .fetch_all(db)
    .await
}

/// The positions of the startup's presentation pages, in order.
pub async fn page_positions(
    db: impl sqlx::SqliteExecutor<'_>,
    startup: i64,
) -> sqlx::Result<Vec<i64>> {
    sqlx::query_scalar!(
        "SELECT position FROM startup_pages WHERE startup_id = ? ORDER BY position",
        startup
    )
    .fetch_all(db)
    .await
}

pub struct Accelerator {
    pub attended_on: Date,
    pub program: String,
    pub country: String,
}

pub async fn accelerators(
    db: impl sqlx::SqliteExecutor<'_>,
    startup: i64,
) -> sqlx::Result<Vec<Accelerator>> {
    sqlx::query_as!(
        Accelerator,
        r#"SELECT attended_on AS "attended_on: Date", program, country FROM startup_accelerators
           WHERE startup_id = ? ORDER BY attended_on"#,
        startup
    )
    .fetch_all(db)
    .await
}

pub struct PriorRound {
    pub raised_on: Date,
    pub investors: String,
    pub amount_usd: i64,
}

pub async fn prior_rounds(
    db: impl sqlx::SqliteExecutor<'_>,
    startup: i64,
) -> sqlx::Result<Vec<PriorRound>> {
    sqlx::query_as!(
        PriorRound,
        r#"SELECT raised_on AS "raised_on: Date", investors, amount_usd FROM startup_prior_rounds
           WHERE startup_id = ? ORDER BY raised_on"#,
        startup
    )
    .fetch_all(db)
    .await
}

/// A fund team's update in both languages.
pub struct Update {
    pub created_at: OffsetDateTime,
    pub body_tr: String,
    pub body_en: String,
}

/// The startup's 20 latest updates, newest first.
pub async fn latest_updates(
    db: impl sqlx::SqliteExecutor<'_>,
    startup: i64,
) -> sqlx::Result<Vec<Update>> {
    sqlx::query_as!(
        Update,
        r#"SELECT created_at AS "created_at: OffsetDateTime", body_tr, body_en FROM startup_updates
           WHERE startup_id = ? ORDER BY id DESC LIMIT 20"#,
        startup
    )
    .fetch_all(db)
    .await
}

/// Whether `user` belongs to a VIP group holding `startup`.
pub async fn is_vip(db: &SqlitePool, user: i64, startup: i64) -> sqlx::Result<bool> {
    sqlx::query_scalar!(
        r#"SELECT EXISTS (
               SELECT 1 FROM vip_group_members m JOIN vip_group_startups s ON s.group_id = m.group_id
               WHERE m.user_id = ? AND s.startup_id = ?) AS "vip!: bool""#,
        user,
        startup
    )
    .fetch_one(db)
    .await
}

/// A startup's address and name, if it exists.
pub async fn slug_and_name<'e>(
    db: impl sqlx::SqliteExecutor<'e>,
    id: i64,
) -> sqlx::Result<Option<(String, String)>> {
    let row = sqlx::query!("SELECT slug, name FROM startups WHERE id = ?", id)
        .fetch_optional(db)
        .await?;
    Ok(row.map(|r| (r.slug, r.name)))
}

/// Stores a report's row (its PDF is `file_name` under `reports/`); returns its id.
pub async fn insert_report(
    conn: &mut SqliteConnection,
    startup: i64,
    form: &ReportForm,
    file_name: &str,
) -> sqlx::Result<i64> {
    sqlx::query_scalar!(
        "INSERT INTO reports (startup_id, quarter, title_tr, title_en, summary_tr, summary_en, file_name)
         VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id AS \"id!\"",
        startup,
        form.quarter,
        form.title_tr,
        form.title_en,
        form.summary_tr,
        form.summary_en,
        file_name
    )
    .fetch_one(conn)
    .await
}
