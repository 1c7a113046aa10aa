//! `/dashboard/rounds`: every startup's round with its figures from the ledger, and a page per
//! round (`/dashboard/rounds/{id}`): goal, received, committed, waitlist, deadlines, the
//! reconciliation of received transfers against references (mismatches flagged), and what
//! staff record beside the ledger (the lead fund's commitment, amounts raised outside the
//! platform, valuations). Superadmins close a round early and export the clearing bank's
//! refund list (IBAN, name, amount, reference). The SQL is in `staff/queries/rounds.rs`.

use axum::extract::Path;
use axum::http::StatusCode;
use axum::response::Response;
use ortak_app::domain::money::Money;
use ortak_app::domain::rounds::RoundStatus;
use ortak_app::forms::FieldErrors;
use ortak_app::i18n::FluentArg;
use ortak_app::pages::dashboard::{RoundFiguresForm, RoundPage, ValuationForm, round_page};
use ortak_app::pages::staff_table::{Cell, StaffRow, StaffTable};
use sqlx::SqlitePool;

use super::queries::rounds::{self as queries, Round};
use super::queries::transfers;
use super::table::{csv_download, render_table};
use super::transfers::{reconciliation_state, transfer_row};

use crate::error::AppError;
use crate::investing::reconfirmation;
use crate::web::{Access, Ctx, Routes, Staff, SuperAdmin};
use ortak_app::domain::timeline::format_moment;

mod close;
mod figures;

fn money(kurus: i64) -> Cell {
    Cell::Money(Money::from_kurus(kurus))
}

fn status_label(status: RoundStatus) -> Cell {
    let id = match status {
        RoundStatus::Open => "dashboard-round-open-status",
        RoundStatus::Closing => "dashboard-round-closing-status",
        RoundStatus::Funded => "dashboard-round-funded",
        RoundStatus::Failed => "dashboard-round-failed",
    };
    Cell::Label(id.to_owned())
}

/// `/dashboard/rounds`: every round, open ones ending soonest first.
pub async fn list(ctx: Ctx, _: Staff) -> Result<Response, AppError> {
    let rows = queries::list(ctx.state().db())
        .await?
        .into_iter()
        .map(|r| StaffRow {
            id: r.id,
            cells: vec![
                r.name.into(),
                status_label(r.status),
                Cell::Day(r.period_ends_on),
                money(r.goal_kurus),
                money(r.raised_kurus),
                money(r.committed_kurus),
                money(r.waitlisted_kurus),
                r.investor_count.to_string().into(),
            ],
            link: Some((
                format!("/dashboard/rounds/{}", r.id),
                "dashboard-round-open".to_owned(),
            )),
            actions: Vec::new(),
        })
        .collect();
    let table = StaffTable {
        title_id: "dashboard-rounds",
        columns: vec![
            "dashboard-col-startup",
            "dashboard-col-status",
            "dashboard-startup-ends",
            "startup-goal",
            "dashboard-round-received",
            "startup-committed",
            "dashboard-round-waitlisted",
            "startup-investors",
        ],
        rows,
        search: None,
        csv: None,
        create: None,
    };
    render_table(&ctx, table).await
}

/// The round's facts, in the viewer's language.
fn facts(ctx: &Ctx, r: &Round) -> Vec<(String, Cell)> {
    let rules = ctx.state().shared().rounds.rules();
    let goal = Money::from_kurus(r.goal_kurus);
    let waitlist = ctx.locale.t_args(
        "dashboard-round-waitlist-of",
        &[
            ("count", FluentArg::Num(r.waitlisted)),
            (
                "amount",
                Money::from_kurus(r.waitlisted_kurus)
                    .format(ctx.locale)
                    .into(),
            ),
        ],
    );
    let period = match r.period_kind {
        ortak_app::domain::startups::PeriodKind::Investment => "period-investment",
        ortak_app::domain::startups::PeriodKind::PreInvestment => "period-pre-investment",
    };
    let mut facts = vec![
        (ctx.t("dashboard-col-status"), status_label(r.status)),
        (
            ctx.t("dashboard-startup-period"),
            Cell::Label(period.into()),
        ),
        (ctx.t("dashboard-startup-ends"), Cell::Day(r.period_ends_on)),
        (ctx.t("startup-goal"), money(r.goal_kurus)),
        (
            ctx.t("dashboard-round-capacity"),
            Cell::Money(rules.capacity(goal)),
        ),
        (ctx.t("dashboard-round-received"), money(r.raised_kurus)),
        (
            ctx.t("startup-investors"),
            r.investor_count.to_string().into(),
        ),
        (ctx.t("startup-committed"), money(r.committed_kurus)),
        (ctx.t("dashboard-round-waitlisted"), waitlist.into()),
        (
            ctx.t("startup-lead-commitment"),
            money(r.lead_commitment_kurus),
        ),
        (
            ctx.t("startup-outside-raised"),
            money(r.outside_raised_kurus),
        ),
        (
            ctx.t("dashboard-round-valuation"),
            r.round_valuation_kurus.map(money).into(),
        ),
    ];
    if !r.outside_raised_note.is_empty() {
        facts.push((
            ctx.t("dashboard-round-outside-note"),
            r.outside_raised_note.clone().into(),
        ));
    }
    if let Some(at) = r.closing_started_at {
        facts.push((ctx.t("dashboard-round-closing-started"), Cell::DateTime(at)));
    }
    if let Some(at) = r.closed_at {
        facts.push((ctx.t("dashboard-round-closed-at"), Cell::DateTime(at)));
    }
    facts.extend(at_close(ctx, r));
    facts
}

/// What the close settled: the ledger moves a failed round's money back out, so this stays.
fn at_close(ctx: &Ctx, r: &Round) -> Option<(String, Cell)> {
    let (total, investors) = (r.closing_total_kurus?, r.closing_investors?);
    let args = [
        ("amount", Money::from_kurus(total).format(ctx.locale).into()),
        ("investors", FluentArg::Num(investors)),
    ];
    let key = if r.status == RoundStatus::Failed {
        "round-at-close-refunded"
    } else {
        "round-at-close-allocated"
    };
    Some((
        ctx.t("round-at-close"),
        ctx.locale.t_args(key, &args).into(),
    ))
}

/// Requests waiting for their investor's reconfirmation, and until when, when there are any.
async fn reconfirming(ctx: &Ctx, id: i64) -> Result<Option<(String, Cell)>, AppError> {
    let waiting = reconfirmation::waiting(&mut *ctx.state().db().acquire().await?, id).await?;
    let (n @ 1.., Some(until)) = (waiting.count, waiting.until) else {
        return Ok(None);
    };
    let args = [
        ("count", FluentArg::Num(n)),
        ("until", format_moment(until, ctx.locale).into()),
    ];
    let text = ctx.locale.t_args("dashboard-round-reconfirming-of", &args);
    Ok(Some((ctx.t("dashboard-round-reconfirming"), text.into())))
}

/// The payment deadlines still running: request, investor, what is due, when.
async fn deadline_rows(db: &SqlitePool, id: i64) -> Result<Vec<Vec<Cell>>, AppError> {
    let rows = queries::deadlines(db, id).await?.into_iter().map(|d| {
        let due = if d.fee_due {
            "timeline-approved"
        } else {
            "timeline-fee_paid"
        };
        vec![
            d.request_id.to_string().into(),
            d.investor.into(),
            Cell::Label(due.into()),
            Cell::DateTime(d.due_at),
        ]
    });
    Ok(rows.collect())
}

/// The valuations recorded for the round: day, amount, source, who recorded it.
async fn valuation_rows(db: &SqlitePool, id: i64) -> Result<Vec<Vec<Cell>>, AppError> {
    let rows = queries::valuations(db, id).await?.into_iter().map(|v| {
        vec![
            Cell::Day(v.valued_on),
            money(v.valuation_kurus),
            v.source.into(),
            v.by.into(),
        ]
    });
    Ok(rows.collect())
}

/// The figures form: what staff typed when it is shown again with errors, else the round's own.
fn figures_form(round: &Round, typed: RoundFiguresForm, errors: &FieldErrors) -> RoundFiguresForm {
    if !typed.lead_commitment.is_empty() || !errors.is_empty() {
        return typed;
    }
    let shown = |kurus: i64| {
        let text = Money::from_kurus(kurus).format(ortak_app::i18n::Locale::Tr);
        text.trim_end_matches(" TL").to_owned()
    };
    RoundFiguresForm {
        lead_commitment: shown(round.lead_commitment_kurus),
        outside_raised: shown(round.outside_raised_kurus),
        outside_note: round.outside_raised_note.clone(),
        round_valuation: round.round_valuation_kurus.map(shown).unwrap_or_default(),
    }
}

/// The round's page, with `errors` on what staff typed.
async fn show(
    ctx: &Ctx,
    staff: &Staff,
    id: i64,
    status: StatusCode,
    typed: (RoundFiguresForm, ValuationForm),
    errors: FieldErrors,
) -> Result<Response, AppError> {
    let db = ctx.state().db();
    let round = queries::round(db, id).await?.ok_or(AppError::NotFound)?;
    let settings = &ctx.state().shared().rounds;
    let rules = ctx.locale.t_args(
        "dashboard-round-rules",
        &[
            ("window", FluentArg::Num(settings.cancel_window_hours)),
            ("fee", FluentArg::Num(settings.fee_deadline_hours)),
            ("transfer", FluentArg::Num(settings.transfer_deadline_hours)),
        ],
    );
    // Who sent what into escrow is superadmins' business (issue 26, item 5).
    let transfers = if staff.superadmin {
        transfers::list(db, Some(id)).await?
    } else {
        Vec::new()
    };
    let mismatches = transfers
        .iter()
        .filter(|t| reconciliation_state(t) == "dashboard-transfer-mismatch")
        .count();
    let mut facts = facts(ctx, &round);
    facts.extend(reconfirming(ctx, id).await?);
    let mut conn = db.acquire().await?;
    let committee = crate::campaigns::committee::record(&mut conn, ctx.locale, id).await?;
    drop(conn);
    let page = RoundPage {
        id,
        committee,
        name: round.name.clone(),
        facts,
        rules,
        deadlines: deadline_rows(db, id).await?,
        valuations: valuation_rows(db, id).await?,
        reconciliation: transfers.into_iter().map(transfer_row).collect(),
        mismatches,
        refunds: queries::refunds(db, id).await?.len(),
        superadmin: staff.superadmin,
        status: round.status,
        figures: figures_form(&round, typed.0, &errors),
        valuation: typed.1,
        errors,
    };
    let page = ctx.page_ctx(|pc| round_page(pc, page));
    Ok(ctx.render(status, page).await)
}

/// `GET /dashboard/rounds/{id}`.
pub async fn page(ctx: Ctx, staff: Staff, Path(id): Path<i64>) -> Result<Response, AppError> {
    let none = FieldErrors::default();
    show(&ctx, &staff, id, StatusCode::OK, Default::default(), none).await
}

/// `GET /dashboard/rounds/{id}/refunds.csv`: the clearing bank's refund list.
pub async fn refunds_csv(
    ctx: Ctx,
    _: SuperAdmin,
    Path(id): Path<i64>,
) -> Result<Response, AppError> {
    let round = queries::round(ctx.state().db(), id)
        .await?
        .ok_or(AppError::NotFound)?;
    let header = [
        "IBAN",
        "AD_SOYAD",
        "TUTAR",
        "REFERANS",
        "TALEP",
        "KAYIT_TARIHI",
    ];
    let mut lines = vec![header.iter().map(|h| (*h).to_owned()).collect::<Vec<_>>()];
    for r in queries::refunds(ctx.state().db(), id).await? {
        lines.push(vec![
            r.iban,
            r.payer_name,
            // Machine-readable: lira and kuruş with a dot, no thousands separator.
            format!("{}.{:02}", r.amount_kurus / 100, r.amount_kurus % 100),
            r.reference,
            r.request_id.to_string(),
            ortak_app::domain::time_fmt::istanbul_date(r.recorded_at).to_string(),
        ]);
    }
    csv_download(&format!("ortak-iade-{}.csv", round.slug), lines)
}

pub fn routes() -> Vec<Routes> {
    vec![
        Routes::new(Access::Staff)
            .get("/dashboard/rounds", list)
            .nav("dashboard-rounds")
            .get("/dashboard/rounds.json", list)
            .get("/dashboard/rounds/{id}", page)
            .post("/dashboard/rounds/{id}/figures", figures::save_figures)
            .post("/dashboard/rounds/{id}/valuations", figures::add_valuation),
        Routes::new(Access::SuperAdmin)
            .get("/dashboard/rounds/{id}/close", close::page)
            .post("/dashboard/rounds/{id}/close", close::act)
            .get("/dashboard/rounds/{id}/refunds.csv", refunds_csv),
    ]
}
