//! The SQL of the startups area: the catalogue (its filters are the one dynamic query, built
//! with a `QueryBuilder` from known fragments only), a startup's page, favourites, presentation
//! pages, VIP early access and stored reports; the round's figures in `rounds`. Everything
//! else is compile-checked.

pub mod documents;
mod favorites;
pub use favorites::set_favorite;
pub mod images;
pub use images::presentation_page;
pub mod reports;
pub mod rounds;
pub mod terms;
pub mod track_record;

use ortak_app::domain::rounds::RoundStatus;
use ortak_app::domain::startups::{
    COMPLETION_RANGES, GOAL_RANGES, INVESTOR_RANGES, ListQuery, PeriodKind, Range, SECTORS, Sort,
    find_range,
};
use ortak_app::i18n::Locale;
use ortak_app::pages::startup_editor::ReportForm;
use sqlx::{FromRow, QueryBuilder, Sqlite, SqliteConnection, SqlitePool};
use time::{Date, OffsetDateTime};

/// A startup as its card shows it (whether a member saved it is theirs: `kept::Mine`).
#[derive(Clone, FromRow)]
pub struct CardRow {
    pub id: i64,
    pub slug: String,
    pub name: String,
    pub sector: String,
    pub fund: String,
    pub city: String,
    pub funding_goal_kurus: i64,
    /// Received in escrow, kept from the ledger by the database.
    pub raised_kurus: i64,
    pub investor_count: i64,
    pub funded: bool,
    pub round_status: RoundStatus,
    pub period_kind: PeriodKind,
    pub period_starts_on: Date,
    pub period_ends_on: Date,
    pub vip_until: Option<Date>,
    /// The stored logo's and cover's names (`images`), if staff uploaded them.
    pub logo: Option<String>,
    pub cover: Option<String>,
    /// A closed round: what escrow held at its close, from how many investors, and when the
    /// close was settled.
    pub closing_total_kurus: Option<i64>,
    pub closing_investors: Option<i64>,
    pub closed_at: Option<OffsetDateTime>,
}

/// `SELECT` of [`CardRow`]s from `startups s` joined to `funds fu`.
fn select_cards() -> QueryBuilder<'static, Sqlite> {
    QueryBuilder::new(
        "SELECT s.id, s.slug, s.name, s.sector, fu.name AS fund, s.city, s.funding_goal_kurus, s.raised_kurus,
             s.investor_count, s.funded, s.round_status, s.period_kind, s.period_starts_on, s.period_ends_on, s.vip_until,
             s.logo, s.cover, s.closing_total_kurus, s.closing_investors, s.closed_at
             FROM startups s JOIN funds fu ON fu.id = s.fund_id",
    )
}

fn push_range(qb: &mut QueryBuilder<Sqlite>, column: &'static str, range: &Range, scale: i64) {
    qb.push(" AND ")
        .push(column)
        .push(" >= ")
        .push_bind(range.min * scale);
    if let Some(max) = range.max {
        qb.push(" AND ")
            .push(column)
            .push(" < ")
            .push_bind(max * scale);
    }
}

/// Adds the list filters to a query over `startups s`.
fn push_filters(qb: &mut QueryBuilder<Sqlite>, q: &ListQuery) {
    qb.push(" WHERE s.published = 1");
    if !q.fund.is_empty() {
        qb.push(" AND s.fund_id = (SELECT id FROM funds WHERE slug = ")
            .push_bind(q.fund.clone())
            .push(")");
    }
    if SECTORS.contains(&q.sector.as_str()) {
        qb.push(" AND s.sector = ").push_bind(q.sector.clone());
    }
    if !q.city.is_empty() {
        qb.push(" AND s.city = ").push_bind(q.city.clone());
    }
    if let Some(r) = find_range(&GOAL_RANGES, &q.goal) {
        push_range(qb, "s.funding_goal_kurus", r, 100);
    }
    if let Some(r) = find_range(&INVESTOR_RANGES, &q.investors) {
        push_range(qb, "s.investor_count", r, 1);
    }
    if let Some(r) = find_range(&COMPLETION_RANGES, &q.completion) {
        push_range(qb, "s.completion_pct", r, 1);
    }
}

/// What the catalogue shows around its cards: how many published startups pass the filters
/// (counted from the indexes alone: no join, no row read), and the funds and cities its
/// filters offer. One statement, so one trip to SQLite's thread instead of one per row.
#[derive(Clone)]
pub struct Facets {
    pub total: i64,
    /// `(slug, name)` of every fund, by name.
    pub funds: Vec<(String, String)>,
    /// The cities of published startups, sorted.
    pub cities: Vec<String>,
}

pub async fn facets(db: impl sqlx::SqliteExecutor<'_>, q: &ListQuery) -> sqlx::Result<Facets> {
    let mut select = QueryBuilder::<Sqlite>::new("SELECT (SELECT COUNT(*) FROM startups s");
    push_filters(&mut select, q);
    select.push(
        "), (SELECT json_group_array(json_array(slug, name) ORDER BY name) FROM funds),
            (SELECT json_group_array(city ORDER BY city)
             FROM (SELECT DISTINCT city FROM startups WHERE published = 1))",
    );
    let (total, funds, cities): (i64, String, String) =
        select.build_query_as().fetch_one(db).await?;
    let decode = |e: serde_json::Error| sqlx::Error::Decode(Box::new(e));
    Ok(Facets {
        total,
        funds: serde_json::from_str(&funds).map_err(decode)?,
        cities: serde_json::from_str(&cities).map_err(decode)?,
    })
}

/// One page of the catalogue, in the order `q.sort` asks for (names in `locale`'s collation).
pub async fn listed_cards(
    db: impl sqlx::SqliteExecutor<'_>,
    q: &ListQuery,
    locale: Locale,
    limit: i64,
    offset: i64,
) -> sqlx::Result<Vec<CardRow>> {
    let mut select = select_cards();
    push_filters(&mut select, q);
    let order = match (Sort::from_code(&q.sort), locale) {
        (Sort::Recent, _) => " ORDER BY s.created_at DESC, s.id DESC",
        (Sort::AToZ, Locale::Tr) => " ORDER BY s.sort_key_tr, s.id",
        (Sort::AToZ, Locale::En) => " ORDER BY s.sort_key_en, s.id",
        (Sort::ZToA, Locale::Tr) => " ORDER BY s.sort_key_tr DESC, s.id DESC",
        (Sort::ZToA, Locale::En) => " ORDER BY s.sort_key_en DESC, s.id DESC",
    };
    select
        .push(order)
        .push(" LIMIT ")
        .push_bind(limit)
        .push(" OFFSET ")
        .push_bind(offset);
    select.build_query_as().fetch_all(db).await
}

/// The card of the startup at `slug`: published ones, and drafts too when `drafts`.
pub async fn card(db: &SqlitePool, drafts: bool, slug: &str) -> sqlx::Result<Option<CardRow>> {
    sqlx::query_as!(
        CardRow,
        r#"SELECT s.id AS "id!", s.slug, s.name, s.sector, fu.name AS fund, s.city, s.funding_goal_kurus,
               s.raised_kurus, s.investor_count, s.funded AS "funded: bool",
               s.round_status AS "round_status: RoundStatus",
               s.period_kind AS "period_kind: PeriodKind", s.period_starts_on AS "period_starts_on: Date",
               s.period_ends_on AS "period_ends_on: Date", s.vip_until AS "vip_until: Date",
               s.logo, s.cover, s.closing_total_kurus, s.closing_investors,
               s.closed_at AS "closed_at: OffsetDateTime"
           FROM startups s JOIN funds fu ON fu.id = s.fund_id
           WHERE (s.published = 1 OR ?) AND s.slug = ?"#,
        drafts,
        slug
    )
    .fetch_optional(db)
    .await
}

/// The published startups `user` saved, most recently saved first.
pub async fn favorite_cards(db: &SqlitePool, user: i64) -> sqlx::Result<Vec<CardRow>> {
    sqlx::query_as!(
        CardRow,
        r#"SELECT s.id AS "id!", s.slug, s.name, s.sector, fu.name AS fund, s.city, s.funding_goal_kurus,
               s.raised_kurus, s.investor_count, s.funded AS "funded: bool",
               s.round_status AS "round_status: RoundStatus",
               s.period_kind AS "period_kind: PeriodKind", s.period_starts_on AS "period_starts_on: Date",
               s.period_ends_on AS "period_ends_on: Date", s.vip_until AS "vip_until: Date",
               s.logo, s.cover, s.closing_total_kurus, s.closing_investors,
               s.closed_at AS "closed_at: OffsetDateTime"
           FROM startups s JOIN funds fu ON fu.id = s.fund_id
           JOIN favorites mine ON mine.startup_id = s.id AND mine.user_id = ?
           WHERE s.published = 1 ORDER BY mine.created_at DESC"#,
        user
    )
    .fetch_all(db)
    .await
}

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
