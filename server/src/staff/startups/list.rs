//! `/dashboard/startups` (and its JSON): every startup with its fund, sector, round and
//! whether it is published, newest first.

use axum::response::Response;
use ortak_app::domain::startups::PeriodKind;
use ortak_app::pages::staff_table::{Cell, StaffRow, StaffTable};

use crate::error::AppError;
use crate::staff::queries::startups as queries;
use crate::staff::table::render_table;
use crate::web::Ctx;

pub async fn list(ctx: Ctx) -> Result<Response, AppError> {
    let rows = queries::listed(ctx.state().db())
        .await?
        .into_iter()
        .map(|s| StaffRow {
            id: s.id,
            cells: vec![
                s.name.into(),
                s.fund.into(),
                Cell::Label(format!("interest-{}", s.sector)),
                Cell::Label(
                    match s.period_kind {
                        PeriodKind::PreInvestment => "period-pre-investment",
                        PeriodKind::Investment => "period-investment",
                    }
                    .to_owned(),
                ),
                Cell::Day(s.ends_on),
                Cell::Label(
                    if s.published {
                        "dashboard-published"
                    } else {
                        "dashboard-draft"
                    }
                    .to_owned(),
                ),
            ],
            link: Some((
                format!("/dashboard/startups/{}", s.id),
                "dashboard-edit".to_owned(),
            )),
            actions: Vec::new(),
        })
        .collect();
    let table = StaffTable {
        title_id: "dashboard-startups",
        columns: vec![
            "dashboard-col-name",
            "dashboard-startup-fund",
            "dashboard-startup-sector",
            "dashboard-startup-period",
            "dashboard-startup-ends",
            "dashboard-col-handled",
        ],
        rows,
        search: None,
        csv: None,
        create: Some("/dashboard/startups/new"),
    };
    render_table(&ctx, table).await
}
