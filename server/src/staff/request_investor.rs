//! Who the investor of a request is, as the request's page shows it to superadmins: what the
//! request was made as (the verified class, identity and yearly limit then), and where the
//! investor stands now (MKK review, verified class, this year's limit counted for their
//! identity). Approval checks the same figures again (`investing::staff_transition`).

use ortak_app::domain::limits::LimitStatus;
use ortak_app::domain::mkk::MkkStatus;
use ortak_app::domain::money::Money;
use ortak_app::pages::staff_table::Cell;

use super::queries::investments::RequestFacts;
use crate::error::AppError;
use crate::investing::limits;
use crate::investing::mkk::mkk_review;
use crate::web::Ctx;

/// The limit in one line: "200.000 TL · used 150.000 TL · 50.000 TL left".
fn limit_line(ctx: &Ctx, limit: Option<LimitStatus>) -> Cell {
    match limit {
        None => Cell::Label("dashboard-request-not-capped".into()),
        Some(l) => ctx
            .locale
            .t_args(
                "dashboard-request-limit-figures",
                &[
                    ("limit", l.limit.format(ctx.locale).into()),
                    ("used", l.used.format(ctx.locale).into()),
                    ("remaining", l.remaining.format(ctx.locale).into()),
                ],
            )
            .into(),
    }
}

/// The facts about the request's investor.
pub async fn investor_facts(ctx: &Ctx, r: &RequestFacts) -> Result<Vec<(String, Cell)>, AppError> {
    let state = ctx.state();
    let mut facts = Vec::new();
    let made_as = match (&r.investor_class, &r.identity_key) {
        (Some(class), Some(identity)) => {
            let class = ctx.t(&format!("investor-class-{class}"));
            let limit = r.limit_kurus.map_or_else(
                || ctx.t("dashboard-request-not-capped"),
                |k| Money::from_kurus(k).format(ctx.locale),
            );
            let identity = ortak_app::domain::mkk::identity_label(identity);
            format!("{class} · {identity} · {limit}").into()
        }
        _ => Cell::Label("dashboard-request-no-snapshot".into()),
    };
    facts.push((ctx.t("dashboard-request-made-as"), made_as));
    let review = mkk_review(state.db(), r.user_id).await?;
    let mkk = match &review {
        None => Cell::Label("dashboard-request-no-mkk".into()),
        Some(m) if m.status == MkkStatus::Rejected => Cell::Label("dashboard-request-held".into()),
        Some(m) => Cell::Label(format!("dashboard-mkk-{}", m.status.code())),
    };
    facts.push((ctx.t("dashboard-request-mkk"), mkk));
    let mut conn = state.db().acquire().await?;
    match limits::standing(&mut conn, state, r.user_id).await? {
        Some(now) => {
            let class = format!("investor-class-{}", now.class.code());
            facts.push((ctx.t("dashboard-request-class"), Cell::Label(class)));
            facts.push((ctx.t("dashboard-request-limit"), limit_line(ctx, now.limit)));
        }
        None => facts.push((
            ctx.t("dashboard-request-class"),
            Cell::Label("dashboard-request-unverified".into()),
        )),
    }
    Ok(facts)
}
