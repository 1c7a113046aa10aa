//! `/track-record`: the platform's record, from the ledger's closes and the reports posted
//! (`ortak_app::domain::track_record`).

use axum::http::StatusCode;
use axum::response::Response;
use ortak_app::domain::money::Money;
use ortak_app::domain::quarters::Quarter;
use ortak_app::domain::time_fmt::istanbul_date;
use ortak_app::domain::track_record::{ClosedRound, reports_on_time, summary};
use ortak_app::pages::track_record::{PartnerFund, TrackRecord, pick, track_record_page};

use super::queries::track_record as queries;
use crate::error::AppError;
use crate::web::Ctx;

pub async fn page(ctx: Ctx) -> Result<Response, AppError> {
    let db = ctx.state().db();
    let today = ctx.state().today();
    let closed = queries::closed(db).await?;
    let posted = queries::reports(db).await?;
    let mut due = (0, 0);
    for r in closed.iter().filter(|r| r.funded) {
        let reports: Vec<(Quarter, time::Date)> = posted
            .iter()
            .filter(|p| p.startup_id == r.id)
            .filter_map(|p| Some((Quarter::parse(&p.quarter)?, istanbul_date(p.published_at))))
            .collect();
        let (d, on_time) = reports_on_time(istanbul_date(r.closed_at), &reports, today);
        due = (due.0 + d, due.1 + on_time);
    }
    let rounds: Vec<ClosedRound> = closed
        .into_iter()
        .map(|r| ClosedRound {
            name: r.name,
            slug: r.slug,
            fund: r.fund,
            funded: r.funded,
            closed_on: istanbul_date(r.closed_at),
            goal: Money::from_kurus(r.goal_kurus),
            total: Money::from_kurus(r.total_kurus),
            investors: r.investors,
        })
        .collect();
    let partners = queries::partners(db)
        .await?
        .into_iter()
        .map(|f| PartnerFund {
            description: pick(ctx.locale, f.description_tr, f.description_en),
            slug: f.slug,
            name: f.name,
            website: f.website,
            startups: f.startups,
            funded: f.funded,
        })
        .collect();
    let record = TrackRecord {
        summary: summary(&rounds),
        investors: queries::allocated_investors(db).await?,
        reports: due,
        rounds,
        partners,
    };
    let page = ctx.page_ctx(|pc| track_record_page(pc, record));
    Ok(ctx.render(StatusCode::OK, page).await)
}
