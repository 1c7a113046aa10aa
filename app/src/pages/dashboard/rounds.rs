//! A round's staff page (`/dashboard/rounds/{id}`): its figures from the ledger (goal,
//! received, committed, waitlist), the payment deadlines under way, the close button for
//! superadmins, the clearing bank's refund list, what staff record beside the ledger (the lead
//! fund's commitment, amounts raised outside the platform, valuations), and the reconciliation
//! of received transfers against references with mismatches flagged.

use leptos::prelude::*;

use super::staff_layout;
use crate::forms::{FieldErrors, csrf_field, error_summary, input};
use crate::pages::staff_table::{Cell, StaffRow, table_view};
use crate::shell::{Page, PageContext};

/// What staff type beside the ledger, as typed.
#[derive(Clone, Debug, Default)]
pub struct RoundFiguresForm {
    pub lead_commitment: String,
    pub outside_raised: String,
    pub outside_note: String,
    pub round_valuation: String,
}

/// A valuation as typed.
#[derive(Clone, Debug, Default)]
pub struct ValuationForm {
    pub valuation: String,
    pub valued_on: String,
    pub source: String,
}

pub struct RoundPage {
    pub id: i64,
    pub name: String,
    /// `(translated label, value)`.
    pub facts: Vec<(String, Cell)>,
    /// The round's rules (window and deadlines), as a sentence.
    pub rules: String,
    /// Rows of request, investor, what is due, when.
    pub deadlines: Vec<Vec<Cell>>,
    /// Rows of date, valuation, source, recorded by.
    pub valuations: Vec<Vec<Cell>>,
    /// The committee's last decision on the campaign, as a sentence, and its votes: rows of
    /// member, vote, note, when.
    pub committee: Option<(String, Vec<Vec<Cell>>)>,
    pub reconciliation: Vec<StaffRow>,
    pub mismatches: usize,
    pub refunds: usize,
    pub superadmin: bool,
    /// Where the round stands: an open one a superadmin may end early.
    pub status: crate::domain::rounds::RoundStatus,
    pub figures: RoundFiguresForm,
    pub valuation: ValuationForm,
    pub errors: FieldErrors,
}

fn cells_table(
    ctx: &PageContext,
    columns: &[&'static str],
    rows: &[Vec<Cell>],
) -> impl IntoView + use<> {
    let head = columns
        .iter()
        .map(|c| view! { <th scope="col">{ctx.t(c)}</th> })
        .collect_view();
    let rows = rows
        .iter()
        .map(|cells| {
            let cells = cells
                .iter()
                .map(|c| view! { <td>{c.text(ctx)}</td> })
                .collect_view();
            view! { <tr>{cells}</tr> }
        })
        .collect_view();
    view! {
        <div class="table-wrap">
            <table class="table"><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>
        </div>
    }
}

/// The investment committee's decision on the campaign, with every vote (its minutes are in
/// the document vault).
fn committee_section(ctx: &PageContext, p: &RoundPage) -> impl IntoView + use<> {
    let columns = [
        "committee-member",
        "committee-vote",
        "committee-note",
        "dashboard-col-date",
    ];
    let record = match &p.committee {
        Some((decision, votes)) => view! {
            <p>{decision.clone()} " " <a href=format!("/dashboard/startups/{}#round-documents-title", p.id)>{ctx.t("round-committee-minutes")}</a></p>
            {cells_table(ctx, &columns, votes)}
        }
        .into_any(),
        None => view! { <p class="muted">{ctx.t("round-committee-none")}</p> }.into_any(),
    };
    view! {
        <h2>{ctx.t("round-committee-title")}</h2>
        {record}
    }
}

/// Closing early and the refund list: superadmins only.
fn close_section(ctx: &PageContext, p: &RoundPage) -> impl IntoView + use<> {
    use crate::domain::rounds::RoundStatus;
    let closed = match p.status {
        RoundStatus::Open => "dashboard-round-closed",
        RoundStatus::Closing => "dashboard-round-closing-now",
        RoundStatus::Funded => "dashboard-round-closed-funded",
        RoundStatus::Failed => "dashboard-round-closed-failed",
    };
    let close = match (p.superadmin, p.status == RoundStatus::Open) {
        (true, true) => view! {
            <p><a class="button button--ghost" href=format!("/dashboard/rounds/{}/close", p.id)>{ctx.t("dashboard-round-close")}</a></p>
            <p class="muted">{ctx.t("dashboard-round-close-hint")}</p>
        }
        .into_any(),
        (false, true) => view! { <p class="muted">{ctx.t("dashboard-round-close-superadmin")}</p> }.into_any(),
        (_, false) => view! { <p class="muted">{ctx.t(closed)}</p> }.into_any(),
    };
    let refunds = p.superadmin.then(|| {
        let count = ctx.locale.t_args(
            "dashboard-round-refunds-count",
            &[("count", crate::i18n::FluentArg::Num(p.refunds as i64))],
        );
        view! {
            <p>{count} " " <a href=format!("/dashboard/rounds/{}/refunds.csv", p.id)>{ctx.t("dashboard-round-refunds-csv")}</a></p>
        }
    });
    view! {
        <h2>{ctx.t("dashboard-round-close-title")}</h2>
        {close}
        {refunds}
    }
}

/// The figures staff record beside the ledger, and a new valuation.
fn forms_section(ctx: &PageContext, p: &RoundPage) -> impl IntoView + use<> {
    let (f, v, e) = (&p.figures, &p.valuation, &p.errors);
    view! {
        <h2>{ctx.t("dashboard-round-figures")}</h2>
        <p class="muted">{ctx.t("dashboard-round-figures-hint")}</p>
        {error_summary(ctx, e)}
        <form class="form" method="post" action=format!("/dashboard/rounds/{}/figures", p.id) novalidate>
            {csrf_field(ctx)}
            <div class="form__row">
                {input(ctx, e, "lead_commitment", "startup-lead-commitment", "text", &f.lead_commitment, "off")}
                {input(ctx, e, "round_valuation", "dashboard-round-valuation", "text", &f.round_valuation, "off")}
            </div>
            <div class="form__row">
                {input(ctx, e, "outside_raised", "startup-outside-raised", "text", &f.outside_raised, "off")}
                {input(ctx, e, "outside_note", "dashboard-round-outside-note", "text", &f.outside_note, "off")}
            </div>
            <div class="form__actions"><button class="button button--primary" type="submit">{ctx.t("dashboard-round-save")}</button></div>
        </form>
        <h2>{ctx.t("portfolio-valuation")}</h2>
        {cells_table(ctx, &["dashboard-col-date", "portfolio-valuation", "dashboard-round-source", "dashboard-col-by"], &p.valuations)}
        <form class="form" method="post" action=format!("/dashboard/rounds/{}/valuations", p.id) novalidate>
            {csrf_field(ctx)}
            <div class="form__row">
                {input(ctx, e, "valuation", "dashboard-round-new-valuation", "text", &v.valuation, "off")}
                {input(ctx, e, "valued_on", "dashboard-col-date", "date", &v.valued_on, "off")}
                {input(ctx, e, "source", "dashboard-round-source", "text", &v.source, "off")}
            </div>
            <div class="form__actions"><button class="button button--primary" type="submit">{ctx.t("dashboard-round-add-valuation")}</button></div>
        </form>
    }
}

pub fn round_page(ctx: &PageContext, p: RoundPage) -> Page {
    let facts = p
        .facts
        .iter()
        .map(|(k, v)| view! { <dt>{k.clone()}</dt><dd>{v.text(ctx)}</dd> })
        .collect_view();
    let mismatches = (p.mismatches > 0).then(|| {
        let text = ctx.locale.t_args(
            "dashboard-round-mismatches",
            &[("count", crate::i18n::FluentArg::Num(p.mismatches as i64))],
        );
        view! { <p class="flash flash--error" role="status">{text}</p> }
    });
    let deadline_columns = [
        "dashboard-col-number",
        "dashboard-col-investor",
        "dashboard-round-due",
        "dashboard-col-date",
    ];
    let transfer_columns = [
        "dashboard-transfer-reference",
        "dashboard-col-email",
        "dashboard-col-startup",
        "dashboard-col-amount",
        "dashboard-col-status",
        "dashboard-transfer-received-amount",
        "dashboard-transfer-received-on",
        "dashboard-transfer-returned-amount",
    ];
    let content = view! {
        <p><a href="/dashboard/rounds">{ctx.t("dashboard-rounds")}</a></p>
        <dl class="facts">{facts}</dl>
        <h2>{ctx.t("dashboard-round-deadlines")}</h2>
        <p class="muted">{p.rules.clone()}</p>
        {cells_table(ctx, &deadline_columns, &p.deadlines)}
        {committee_section(ctx, &p)}
        {close_section(ctx, &p)}
        {forms_section(ctx, &p)}
        <h2>{ctx.t("dashboard-round-reconciliation")}</h2>
        {mismatches}
        {table_view(ctx, &transfer_columns, p.reconciliation)}
    }
    .into_any();
    staff_layout(ctx, p.name, content)
}
