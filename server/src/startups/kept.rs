//! What the startups' pages keep in memory between writes (issue 16, `db::snapshot`), so a
//! member's page view reads nothing from SQLite while nothing was written:
//!
//! - shared by everyone: a catalogue page's cards and filters per language and query, a
//!   startup's card per address (drafts kept apart, for staff only), and a round's figures;
//! - each member's own ([`Mine`]): the startups they saved and those their VIP groups hold,
//!   kept under their user id and never looked up under another.
//!
//! The money's figures may be kept too: any write (a request, a payment, a closing round) ends
//! every entry, and the investment itself re-checks the round's room in its own transaction.

use std::sync::{Arc, LazyLock};

use ortak_app::domain::startups::ListQuery;
use ortak_app::i18n::Locale;

use super::queries::{self, CardRow, Facets, rounds::RoundFigures};
use crate::db::snapshot::Snapshot;
use crate::error::AppError;
use crate::web::Ctx;

/// A member's own marks: the published startups they saved (as cards, newest first) and the
/// startups their VIP groups hold.
pub struct Mine {
    pub favorites: Vec<CardRow>,
    pub vip: Vec<i64>,
}

impl Mine {
    pub fn saved(&self, startup: i64) -> bool {
        self.favorites.iter().any(|c| c.id == startup)
    }
}

static MINE: LazyLock<Snapshot<i64, Arc<Mine>>> = LazyLock::new(|| Snapshot::new(10_000));
type CataloguePage = Arc<(Facets, Vec<CardRow>)>;
static CATALOGUE: LazyLock<Snapshot<(Locale, String), CataloguePage>> =
    LazyLock::new(|| Snapshot::new(1024));
static CARDS: LazyLock<Snapshot<(String, bool), Arc<CardRow>>> =
    LazyLock::new(|| Snapshot::new(4096));
static ROUNDS: LazyLock<Snapshot<i64, Arc<RoundFigures>>> = LazyLock::new(|| Snapshot::new(4096));

/// `user`'s marks.
pub async fn mine(ctx: &Ctx, user: i64) -> Result<Arc<Mine>, AppError> {
    let writes = ctx.state().writes();
    if let Some(kept) = MINE.get(&user, writes) {
        return Ok(kept);
    }
    let db = ctx.state().db();
    let made = Arc::new(Mine {
        favorites: queries::favorite_cards(db, user).await?,
        vip: queries::vip_startups(db, user).await?,
    });
    MINE.put(user, writes, made.clone());
    Ok(made)
}

/// One catalogue page: its filters' facets and its cards, unmarked (`favorite` is false).
pub async fn catalogue_page(
    ctx: &Ctx,
    q: &ListQuery,
    page: u32,
    per_page: u32,
) -> Result<CataloguePage, AppError> {
    let key = (ctx.locale, q.to_query(page));
    let writes = ctx.state().writes();
    if let Some(kept) = CATALOGUE.get(&key, writes) {
        return Ok(kept);
    }
    let db = ctx.state().db();
    let facets = queries::facets(db, q).await?;
    let (limit, offset) = (i64::from(per_page), i64::from((page - 1) * per_page));
    let cards = queries::listed_cards(db, q, ctx.locale, limit, offset).await?;
    let made = Arc::new((facets, cards));
    CATALOGUE.put(key, writes, made.clone());
    Ok(made)
}

/// The card of the startup at `slug`, unmarked: published ones, drafts too when `drafts`.
pub async fn card(ctx: &Ctx, drafts: bool, slug: &str) -> Result<Arc<CardRow>, AppError> {
    let key = (slug.to_owned(), drafts);
    let writes = ctx.state().writes();
    if let Some(kept) = CARDS.get(&key, writes) {
        return Ok(kept);
    }
    let row = queries::card(ctx.state().db(), None, drafts, slug)
        .await?
        .ok_or(AppError::NotFound)?;
    let made = Arc::new(row);
    CARDS.put(key, writes, made.clone());
    Ok(made)
}

/// The round's figures beside `startup`'s card.
pub async fn round_figures(ctx: &Ctx, startup: i64) -> Result<Arc<RoundFigures>, AppError> {
    let writes = ctx.state().writes();
    if let Some(kept) = ROUNDS.get(&startup, writes) {
        return Ok(kept);
    }
    let made = Arc::new(queries::rounds::round_figures(ctx.state().db(), startup).await?);
    ROUNDS.put(startup, writes, made.clone());
    Ok(made)
}
