//! Favourites: members save startups from any card (`POST /favorites/{slug}`) and find them
//! again at `/favorites`, searched by Turkish case rules and filtered by status.

use axum::extract::{Path, Query};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use ortak_app::domain::paths::local_path;
use ortak_app::domain::startups::FundingStatus;
use ortak_app::domain::text::contains_turkish_ci;
use ortak_app::pages::startups::{StartupCard, favorites_page};
use serde::Deserialize;

use super::cards::find_card;
use super::queries;
use crate::error::AppError;
use crate::web::form::Form;
use crate::web::{Ctx, Member, Staff, flash};

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct FavoriteForm {
    #[serde(rename = "return")]
    return_to: String,
    /// "1" saves, "0" removes.
    favorite: String,
}

/// `POST /favorites/{slug}`: save or remove, then back to where the form was.
pub async fn toggle_favorite(
    ctx: Ctx,
    Member(user): Member,
    staff: Option<Staff>,
    Path(slug): Path<String>,
    Form(form): Form<FavoriteForm>,
) -> Result<Response, AppError> {
    let row = find_card(&ctx, staff.as_ref(), &slug).await?;
    let save = form.favorite == "1";
    queries::set_favorite(ctx.state().db(), user.id, row.id, save).await?;
    let message = if save {
        "favorite-added"
    } else {
        "favorite-removed"
    };
    flash::success(&ctx, message).await?;
    Ok(Redirect::to(local_path(&form.return_to)).into_response())
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct FavoritesQuery {
    q: String,
    status: String,
}

/// The startups a member follows (saved), newest first, at most `limit`, as cards: the
/// overview shows them.
pub async fn followed(ctx: &Ctx, user_id: i64, limit: usize) -> Result<Vec<StartupCard>, AppError> {
    let today = ctx.state().today();
    let mine = super::kept::mine(ctx, user_id).await?;
    Ok(mine
        .favorites
        .iter()
        .take(limit)
        .map(|r| r.card(Some(true), today))
        .collect())
}

/// `GET /favorites`: every saved startup, each marked shown or hidden by the search, so the
/// island can filter without asking again.
pub async fn favorites(
    ctx: Ctx,
    Member(user): Member,
    Query(query): Query<FavoritesQuery>,
) -> Result<Response, AppError> {
    let mine = super::kept::mine(&ctx, user.id).await?;
    let today = ctx.state().today();
    let status = FundingStatus::from_code(&query.status);
    let q = query.q.trim();
    let cards = mine
        .favorites
        .iter()
        .map(|r| {
            let card = r.card(Some(true), today);
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
