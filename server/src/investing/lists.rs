//! The investor's own requests: those that are not holdings (`/pendingInvestments`, each with
//! its timeline, the payment link when it is their turn and the cancellation window's
//! countdown) and their holdings (`/userInvestments`, with valuations and the sector chart).

use axum::extract::Path;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use ortak_app::domain::money::Money;
use ortak_app::domain::rounds::{holding_value, multiple_x100};
use ortak_app::domain::time_fmt::istanbul_date;
use ortak_app::pages::portfolio::{Holding, InEscrow, Valuation, my_investments_page};
use ortak_app::pages::requests::{RequestCard, pending_page};
use serde::de::IgnoredAny;
use sqlx::SqlitePool;

use super::notify::history;
use super::queries::timeline as queries;
use super::reconfirmation::{self, Reconfirmed};
use super::transitions;
use crate::error::AppError;
use crate::web::form::Form;
use crate::web::{Ctx, Member, flash};

/// `GET /pendingInvestments`.
pub async fn pending(ctx: Ctx, Member(user): Member) -> Result<Response, AppError> {
    let db = ctx.state().db();
    let now = ctx.state().now();
    let events = queries::events_of(db, user.id).await?;
    let mut conn = db.acquire().await?;
    let mut cards = Vec::new();
    for r in queries::pending_of(db, user.id).await? {
        let reconfirm = reconfirmation::question(&mut conn, r.id, ctx.locale).await?;
        let h = history(&r, &events);
        cards.push(RequestCard {
            id: r.id,
            startup_slug: r.slug,
            startup_name: r.name,
            kind: r.kind,
            amount: Money::from_kurus(r.amount_kurus),
            investment: Money::from_kurus(r.investment_kurus),
            fee: Money::from_kurus(r.fee_kurus),
            total: Money::from_kurus(r.total_kurus),
            status: r.status,
            created: istanbul_date(r.created_at),
            timeline: h.timeline(r.id),
            withdraw: h.withdrawable_until(now).map(|until| (until, until - now)),
            reason: r.rejection_reason,
            reconfirm,
        });
    }
    drop(conn);
    let page = ctx.page_ctx(|pc| pending_page(pc, cards));
    Ok(ctx.render(StatusCode::OK, page).await)
}

/// The investor's holdings, valued at their startups' latest valuations.
pub async fn holdings(db: &SqlitePool, user: i64) -> Result<Vec<Holding>, AppError> {
    Ok(queries::holdings_of(db, user)
        .await?
        .into_iter()
        .map(|h| {
            let amount = Money::from_kurus(h.amount_kurus);
            let valuation = match (h.valuation_kurus, h.valuation_source, h.valued_on) {
                (Some(v), Some(source), Some(on)) => Some(Valuation {
                    amount: Money::from_kurus(v),
                    source,
                    on,
                }),
                _ => None,
            };
            // Without a later valuation the holding is worth what the round valued it at.
            let value = h.round_valuation_kurus.and_then(|round| {
                let latest = valuation.as_ref().map_or(round, |v| v.amount.kurus());
                holding_value(amount, Money::from_kurus(round), Money::from_kurus(latest))
            });
            Holding {
                startup_slug: h.slug,
                startup_name: h.name,
                sector: h.sector,
                amount,
                share_ppm: h.share_ppm,
                allocated_on: istanbul_date(h.allocated_at),
                valuation,
                multiple_x100: value.and_then(|v| multiple_x100(amount, v)),
                value,
            }
        })
        .collect())
}

/// `GET /userInvestments`: holdings, and the money in escrow waiting for its round's close.
pub async fn mine(ctx: Ctx, Member(user): Member) -> Result<Response, AppError> {
    let db = ctx.state().db();
    let holdings = holdings(db, user.id).await?;
    let escrow = queries::pending_of(db, user.id)
        .await?
        .into_iter()
        .filter(|r| r.status == ortak_app::domain::investing::RequestStatus::Funded)
        .map(|r| InEscrow {
            request: r.id,
            startup: r.name,
            slug: r.slug,
            amount: Money::from_kurus(r.investment_kurus),
            since: istanbul_date(r.created_at),
        })
        .collect();
    let page = ctx.page_ctx(|pc| my_investments_page(pc, holdings, escrow));
    Ok(ctx.render(StatusCode::OK, page).await)
}

/// `POST /pendingInvestments/{id}/cancel`: the investor withdraws a request inside the
/// cancellation window; what was paid is refunded.
pub async fn cancel(
    ctx: Ctx,
    Member(user): Member,
    Path(id): Path<i64>,
    Form(_): Form<IgnoredAny>,
) -> Result<Response, AppError> {
    transitions::withdraw(ctx.state(), id, user.id).await?;
    flash::success(&ctx, "pending-cancelled").await?;
    Ok(Redirect::to("/pendingInvestments").into_response())
}

/// `POST /pendingInvestments/{id}/reconfirm`: the investor goes on under the changed terms.
pub async fn reconfirm(
    ctx: Ctx,
    Member(user): Member,
    Path(id): Path<i64>,
    Form(_): Form<IgnoredAny>,
) -> Result<Response, AppError> {
    match reconfirmation::reconfirm(ctx.state(), id, user.id).await? {
        Reconfirmed::Done => flash::success(&ctx, "reconfirm-done").await?,
        Reconfirmed::OpenTheForm => flash::error(&ctx, "reconfirm-open-the-form").await?,
    }
    Ok(Redirect::to("/pendingInvestments").into_response())
}

/// `POST /pendingInvestments/{id}/decline`: the investor withdraws rather than reconfirm.
pub async fn decline(
    ctx: Ctx,
    Member(user): Member,
    Path(id): Path<i64>,
    Form(_): Form<IgnoredAny>,
) -> Result<Response, AppError> {
    reconfirmation::decline(ctx.state(), id, user.id).await?;
    flash::success(&ctx, "pending-cancelled").await?;
    Ok(Redirect::to("/pendingInvestments").into_response())
}
