//! The startups catalogue, a startup's page, and favourites.

pub mod reports;

use crate::web::form::Form;
use axum::extract::{Path, Query};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use ortak_app::domain::money::Money;
use ortak_app::domain::paths::local_path;
use ortak_app::domain::startups::{
    COMPLETION_RANGES, Funding, FundingStatus, GOAL_RANGES, INVESTOR_RANGES, ListQuery, PeriodKind,
    Range, SECTORS, Sort, find_range,
};
use ortak_app::domain::text::contains_turkish_ci;
use ortak_app::i18n::Locale;
use ortak_app::pages::startups::{
    ListPage, StartupCard, StartupDetail, favorites_page, startup_page, startups_page,
};
use ortak_app::shell::{Flash, FlashKind};
use serde::Deserialize;
use sqlx::{FromRow, QueryBuilder, Sqlite};
use time::Date;

use crate::error::AppError;
use crate::web::session::Role;
use crate::web::{Access, Ctx, Routes};

pub const PER_PAGE: u32 = 12;

#[derive(FromRow)]
pub struct CardRow {
    pub id: i64,
    pub slug: String,
    pub name: String,
    pub sector: String,
    pub fund: String,
    pub city: String,
    pub funding_goal_kurus: i64,
    pub raised_kurus: i64,
    pub investor_count: i64,
    pub funded: bool,
    pub period_kind: String,
    pub period_starts_on: String,
    pub period_ends_on: String,
    pub vip_until: Option<String>,
    pub favorite: Option<bool>,
}

/// `SELECT` of [`CardRow`]s from `startups s` joined to `funds fu`; `favorite` is for `viewer`.
pub fn select_cards(viewer: Option<i64>) -> QueryBuilder<'static, Sqlite> {
    let mut qb = QueryBuilder::new(
        "SELECT s.id, s.slug, s.name, s.sector, fu.name AS fund, s.city, s.funding_goal_kurus, s.raised_kurus,
             s.investor_count, s.funded, s.period_kind, s.period_starts_on, s.period_ends_on, s.vip_until,
             EXISTS (SELECT 1 FROM favorites f WHERE f.startup_id = s.id AND f.user_id = ",
    );
    qb.push_bind(viewer.unwrap_or(0))
        .push(") AS favorite FROM startups s JOIN funds fu ON fu.id = s.fund_id");
    qb
}

impl CardRow {
    pub fn funding(&self) -> Funding {
        Funding {
            goal: Money::from_kurus(self.funding_goal_kurus),
            raised: Money::from_kurus(self.raised_kurus),
            funded: self.funded,
            period: PeriodKind::from_code(&self.period_kind),
            starts_on: crate::db::parse_date(&self.period_starts_on),
            ends_on: crate::db::parse_date(&self.period_ends_on),
            vip_until: self.vip_until.as_deref().map(crate::db::parse_date),
        }
    }

    pub fn card(&self, signed_in: bool, today: Date) -> StartupCard {
        let funding = self.funding();
        StartupCard {
            slug: self.slug.clone(),
            name: self.name.clone(),
            sector: self.sector.clone(),
            fund: self.fund.clone(),
            city: self.city.clone(),
            goal: funding.goal,
            raised: funding.raised,
            investors: self.investor_count,
            completion_pct: funding.completion_pct(),
            status: funding.status(),
            period: funding.period,
            days_left: funding.days_left(today),
            favorite: signed_in.then_some(self.favorite.unwrap_or(false)),
        }
    }
}

fn push_range(qb: &mut QueryBuilder<Sqlite>, column: &str, range: &Range, scale: i64) {
    qb.push(format!(" AND {column} >= "))
        .push_bind(range.min * scale);
    if let Some(max) = range.max {
        qb.push(format!(" AND {column} < ")).push_bind(max * scale);
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

pub async fn list(ctx: Ctx, Query(mut q): Query<ListQuery>) -> Result<Response, AppError> {
    let db = ctx.state().db();
    let page = q.page_number();
    q = q.sanitized();
    q.page.clear();
    // Counted from the indexes alone: no join, no row read.
    let mut count = QueryBuilder::<Sqlite>::new("SELECT COUNT(*) FROM startups s");
    push_filters(&mut count, &q);
    let total: i64 = count.build_query_scalar().fetch_one(db).await?;

    let viewer = ctx.user.as_ref().map(|u| u.id);
    let mut select = select_cards(viewer);
    push_filters(&mut select, &q);
    let order = match (Sort::from_code(&q.sort), ctx.locale) {
        (Sort::Recent, _) => " ORDER BY s.created_at DESC, s.id DESC",
        (Sort::AToZ, Locale::Tr) => " ORDER BY s.sort_key_tr, s.id",
        (Sort::AToZ, Locale::En) => " ORDER BY s.sort_key_en, s.id",
        (Sort::ZToA, Locale::Tr) => " ORDER BY s.sort_key_tr DESC, s.id DESC",
        (Sort::ZToA, Locale::En) => " ORDER BY s.sort_key_en DESC, s.id DESC",
    };
    select
        .push(order)
        .push(" LIMIT ")
        .push_bind(i64::from(PER_PAGE))
        .push(" OFFSET ")
        .push_bind(i64::from((page - 1) * PER_PAGE));
    let rows: Vec<CardRow> = select.build_query_as().fetch_all(db).await?;
    let today = ctx.state().today();
    let cards = rows
        .iter()
        .map(|r| r.card(viewer.is_some(), today))
        .collect();
    let funds: Vec<(String, String)> = sqlx::query_as("SELECT slug, name FROM funds ORDER BY name")
        .fetch_all(db)
        .await?;
    let cities: Vec<String> =
        sqlx::query_scalar("SELECT DISTINCT city FROM startups WHERE published = 1 ORDER BY city")
            .fetch_all(db)
            .await?;
    let list = ListPage {
        cards,
        total,
        page,
        per_page: PER_PAGE,
        query: q,
        funds,
        cities,
    };
    let page = ctx.page_ctx(|pc| startups_page(pc, list));
    Ok(ctx.render(StatusCode::OK, page).await)
}

#[derive(FromRow)]
struct DetailRow {
    description_tr: String,
    description_en: String,
    website: String,
    stage: String,
    team_size: i64,
}

fn pick(locale: Locale, tr: String, en: String) -> String {
    match locale {
        Locale::En if !en.trim().is_empty() => en,
        Locale::Tr if tr.trim().is_empty() => en,
        _ => tr,
    }
}

/// A published startup's card row, for the viewer (staff also see drafts, to check them).
pub async fn find_card(ctx: &Ctx, slug: &str) -> Result<CardRow, AppError> {
    let mut qb = select_cards(ctx.user.as_ref().map(|u| u.id));
    let staff = ctx.user.as_ref().is_some_and(|u| u.role >= Role::Admin);
    qb.push(" WHERE (s.published = 1 OR ")
        .push_bind(staff)
        .push(") AND s.slug = ")
        .push_bind(slug.to_owned());
    qb.build_query_as()
        .fetch_optional(ctx.state().db())
        .await?
        .ok_or(AppError::NotFound)
}

/// A startup's page: signed-in members only (visitors are sent to join or sign in).
pub async fn detail(ctx: Ctx, Path(slug): Path<String>) -> Result<Response, AppError> {
    let user_id = ctx.require(Role::Investor)?.id;
    let row = find_card(&ctx, &slug).await?;
    let db = ctx.state().db();
    let d: DetailRow =
        sqlx::query_as("SELECT description_tr, description_en, website, stage, team_size FROM startups WHERE id = ?")
            .bind(row.id)
            .fetch_one(db)
            .await?;
    let sections: Vec<(String, String, String)> = sqlx::query_as(
        "SELECT section, body_tr, body_en FROM startup_sections WHERE startup_id = ?",
    )
    .bind(row.id)
    .fetch_all(db)
    .await?;
    let mut sections: Vec<(String, String)> = sections
        .into_iter()
        .map(|(k, tr, en)| (k, pick(ctx.locale, tr, en)))
        .collect();
    let order = |k: &str| {
        ortak_app::domain::startups::SECTIONS
            .iter()
            .position(|s| *s == k)
            .unwrap_or(usize::MAX)
    };
    sections.sort_by_key(|(k, _)| order(k));
    let founders: Vec<(String, String)> = sqlx::query_as(
        "SELECT name, title FROM founders WHERE startup_id = ? ORDER BY position_order",
    )
    .bind(row.id)
    .fetch_all(db)
    .await?;
    let pages: Vec<i64> = sqlx::query_scalar(
        "SELECT position FROM startup_pages WHERE startup_id = ? ORDER BY position",
    )
    .bind(row.id)
    .fetch_all(db)
    .await?;
    let accelerators: Vec<(String, String, String)> = sqlx::query_as(
        "SELECT attended_on, program, country FROM startup_accelerators WHERE startup_id = ? ORDER BY attended_on",
    )
    .bind(row.id)
    .fetch_all(db)
    .await?;
    let prior_rounds: Vec<(String, String, i64)> = sqlx::query_as(
        "SELECT raised_on, investors, amount_usd FROM startup_prior_rounds WHERE startup_id = ? ORDER BY raised_on",
    )
    .bind(row.id)
    .fetch_all(db)
    .await?;
    let updates: Vec<(String, String, String)> = sqlx::query_as(
        "SELECT created_at, body_tr, body_en FROM startup_updates WHERE startup_id = ? ORDER BY id DESC LIMIT 20",
    )
    .bind(row.id)
    .fetch_all(db)
    .await?;
    let updates = updates
        .into_iter()
        .map(|(at, tr, en)| (crate::db::stored_date_tr(&at), pick(ctx.locale, tr, en)))
        .collect();
    let today = ctx.state().today();
    let detail = StartupDetail {
        updates,
        pages,
        accelerators,
        prior_rounds,
        offer: row.funding().offer_for(
            today,
            crate::investing::vip::is_vip(db, user_id, row.id).await?,
        ),
        card: row.card(true, today),
        description: pick(ctx.locale, d.description_tr, d.description_en),
        website: d.website,
        stage: d.stage,
        team_size: d.team_size,
        sections,
        founders,
    };
    let page = ctx.page_ctx(|pc| startup_page(pc, detail));
    Ok(ctx.render(StatusCode::OK, page).await)
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct FavoriteForm {
    csrf: String,
    #[serde(rename = "return")]
    return_to: String,
    /// "1" saves, "0" removes.
    favorite: String,
}

/// `POST /favorites/{slug}`: save or remove, then back to where the form was.
pub async fn toggle_favorite(
    ctx: Ctx,
    Path(slug): Path<String>,
    Form(form): Form<FavoriteForm>,
) -> Result<Response, AppError> {
    let user = ctx.require(Role::Investor)?.clone();
    let row = find_card(&ctx, &slug).await?;
    let save = form.favorite == "1";
    set_favorite(&ctx, user.id, row.id, save).await?;
    let message = if save {
        "favorite-added"
    } else {
        "favorite-removed"
    };
    ctx.set_flash(Flash {
        kind: FlashKind::Success,
        message_id: message.into(),
    })
    .await?;
    Ok(Redirect::to(local_path(&form.return_to)).into_response())
}

pub async fn set_favorite(
    ctx: &Ctx,
    user_id: i64,
    startup_id: i64,
    save: bool,
) -> Result<(), AppError> {
    let sql = if save {
        "INSERT OR IGNORE INTO favorites (user_id, startup_id) VALUES (?, ?)"
    } else {
        "DELETE FROM favorites WHERE user_id = ? AND startup_id = ?"
    };
    sqlx::query(sql)
        .bind(user_id)
        .bind(startup_id)
        .execute(ctx.state().db())
        .await?;
    Ok(())
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct FavoritesQuery {
    q: String,
    status: String,
}

/// `/favorites`: saved startups, searched by Turkish case rules and filtered by status.
pub async fn favorites(
    ctx: Ctx,
    Query(query): Query<FavoritesQuery>,
) -> Result<Response, AppError> {
    let user = ctx.require(Role::Investor)?.clone();
    let mut qb = select_cards(Some(user.id));
    qb.push(" JOIN favorites mine ON mine.startup_id = s.id AND mine.user_id = ")
        .push_bind(user.id)
        .push(" WHERE s.published = 1 ORDER BY mine.created_at DESC");
    let rows: Vec<CardRow> = qb.build_query_as().fetch_all(ctx.state().db()).await?;
    let today = ctx.state().today();
    let status = FundingStatus::from_code(&query.status);
    let q = query.q.trim();
    let cards = rows
        .iter()
        .map(|r| {
            let card = r.card(true, today);
            let shown = status.is_none_or(|s| card.status == s)
                && (q.is_empty()
                    || contains_turkish_ci(&card.name, q)
                    || contains_turkish_ci(&card.city, q));
            (card, shown)
        })
        .collect();
    let status_code = status.map(|s| s.code()).unwrap_or("");
    let page = ctx.page_ctx(|pc| favorites_page(pc, cards, &query.q, status_code));
    Ok(ctx.render(StatusCode::OK, page).await)
}

/// `GET /startups/{slug}/pages/{n}`: a presentation page, for members only.
pub async fn presentation_page(
    ctx: Ctx,
    Path((slug, n)): Path<(String, i64)>,
) -> Result<Response, AppError> {
    ctx.require(Role::Investor)?;
    let row = find_card(&ctx, &slug).await?;
    let page: Option<(String, String)> = sqlx::query_as(
        "SELECT file_name, content_type FROM startup_pages WHERE startup_id = ? AND position = ?",
    )
    .bind(row.id)
    .bind(n)
    .fetch_optional(ctx.state().db())
    .await?;
    let (file, content_type) = page.ok_or(AppError::NotFound)?;
    crate::web::files::serve(
        &ctx.state()
            .shared()
            .data_dir
            .join("presentations")
            .join(file),
        &content_type,
    )
    .await
}

pub fn routes() -> Vec<Routes> {
    let public = Routes::new(Access::Public).get("/startups", list);
    let member = Routes::new(Access::Member)
        .get("/startups/{slug}", detail)
        .get("/startups/{slug}/pages/{n}", presentation_page)
        .get("/favorites", favorites)
        .post("/favorites/{slug}", toggle_favorite);
    vec![public, member]
}
