//! What the startups' pages keep in memory between writes (issue 16, `db::snapshot`), so a
//! member's page view reads nothing from SQLite while nothing was written:
//!
//! - shared by everyone: a catalogue page's cards and filters per language and query, a
//!   startup's card per address (drafts kept apart, for staff only), and a round's figures;
//! - each member's own ([`Mine`]): the startups they saved, as cards, kept under their user id
//!   and never looked up under another (the marks on cards and pages, which startups they saved
//!   and which VIP rounds are theirs, come with who they are: `web::CurrentUser`).
//!
//! The money's figures may be kept too: any write (a request, a payment, a closing round) ends
//! every entry, and the investment itself re-checks the round's room in its own transaction.

use std::sync::{Arc, LazyLock};

use ortak_app::domain::startups::ListQuery;
use ortak_app::i18n::Locale;

use super::queries::{self, CardRow, Facets, rounds::RoundFigures};
use crate::db::snapshot::{RECORD_BYTES, Reads, Snapshot};
use crate::error::AppError;
use crate::web::Ctx;

/// The published startups a member saved, as cards, newest first.
pub struct Mine {
    pub favorites: Vec<CardRow>,
}

static MINE: LazyLock<Snapshot<i64, Arc<Mine>>> = LazyLock::new(|| {
    Snapshot::new(Reads::OneMember, 4 << 20, |_, m| {
        RECORD_BYTES * (1 + m.favorites.len())
    })
});
type CataloguePage = Arc<(Facets, Vec<CardRow>)>;
static CATALOGUE: LazyLock<Snapshot<(Locale, String), CataloguePage>> = LazyLock::new(|| {
    Snapshot::new(Reads::SharedTables, 4 << 20, |key, page| {
        let facets = 64 * (page.0.funds.len() + page.0.cities.len());
        key.1.len() + facets + RECORD_BYTES * (1 + page.1.len())
    })
});
/// A card by `(address, drafts too)`; `None` when there is none.
type KeptCard = Option<Arc<CardRow>>;
static CARDS: LazyLock<Snapshot<(String, bool), KeptCard>> = LazyLock::new(|| {
    Snapshot::new(Reads::SharedTables, 2 << 20, |key, _| {
        key.0.len() + RECORD_BYTES
    })
});
static ROUNDS: LazyLock<Snapshot<i64, Arc<RoundFigures>>> = LazyLock::new(|| {
    Snapshot::new(Reads::SharedTables, 1 << 20, |_, r| {
        128 + r.outside_raised_note.len()
    })
});

/// The startups `user` saved.
pub async fn mine(ctx: &Ctx, user: i64) -> Result<Arc<Mine>, AppError> {
    let db = ctx.state().db();
    MINE.get_or_make(user, ctx.state().writes().of_member(user), || async {
        Ok(Arc::new(Mine {
            favorites: queries::favorite_cards(db, user).await?,
        }))
    })
    .await
}

/// One catalogue page: its filters' facets and its cards.
pub async fn catalogue_page(
    ctx: &Ctx,
    q: &ListQuery,
    page: u32,
    per_page: u32,
) -> Result<CataloguePage, AppError> {
    let db = ctx.state().db();
    let key = (ctx.locale, q.to_query(page));
    let (limit, offset) = (i64::from(per_page), i64::from((page - 1) * per_page));
    CATALOGUE
        .get_or_make(key, ctx.state().writes(), || async {
            let page = queries::catalogue_page(db, q, ctx.locale, limit, offset).await?;
            Ok(Arc::new(page))
        })
        .await
}

/// The card of the startup at `slug`: published ones, drafts too when `drafts`.
pub async fn card(ctx: &Ctx, drafts: bool, slug: &str) -> Result<Arc<CardRow>, AppError> {
    let key = (slug.to_owned(), drafts);
    CARDS
        .get_or_make(key, ctx.state().writes(), || async {
            let row = queries::card(ctx.state().db(), drafts, slug).await?;
            Ok::<_, AppError>(row.map(Arc::new))
        })
        .await?
        .ok_or(AppError::NotFound)
}

/// The round's figures beside `startup`'s card.
pub async fn round_figures(ctx: &Ctx, startup: i64) -> Result<Arc<RoundFigures>, AppError> {
    ROUNDS
        .get_or_make(startup, ctx.state().writes(), || async {
            let figures = queries::rounds::round_figures(ctx.state().db(), startup).await?;
            Ok(Arc::new(figures))
        })
        .await
}
