//! The clearing bank's statements (`/dashboard/takasbank/statements`, superadmins): the upload
//! of the day's statement (camt.053 or MT940), the lines imported with what became of each
//! (flagged ones first, each resolved by a person with a note), and typed receipts waiting for
//! a second superadmin.

use leptos::prelude::*;

use super::staff_layout;
use crate::forms::{FieldErrors, csrf_field, error_summary, error_view};
use crate::pages::staff_table::{StaffRow, table_view};
use crate::shell::{Page, PageContext};

pub struct StatementsPage {
    pub errors: FieldErrors,
    pub lines: Vec<StaffRow>,
    pub flagged: usize,
    pub receipts: Vec<StaffRow>,
}

pub fn statements_page(ctx: &PageContext, p: StatementsPage) -> Page {
    let error = p.errors.get("statement");
    let described = error.map(|_| "statement-error");
    let flagged = (p.flagged > 0).then(|| {
        let count = [("count", crate::i18n::FluentArg::Num(p.flagged as i64))];
        let text = ctx.locale.t_args("statements-flagged", &count);
        view! { <p class="flash flash--error" role="status">{text}</p> }
    });
    let line_columns = [
        "dashboard-col-date",
        "dashboard-col-amount",
        "statements-payer",
        "statements-payer-iban",
        "statements-remittance",
        "dashboard-col-status",
        "dashboard-col-number",
        "statements-resolution",
    ];
    let receipt_columns = [
        "dashboard-transfer-reference",
        "dashboard-col-amount",
        "dashboard-transfer-received-on",
        "dashboard-note",
        "statements-proposed-by",
        "dashboard-col-date",
    ];
    let receipts = (!p.receipts.is_empty()).then(|| {
        view! {
            <h2>{ctx.t("statements-typed-title")}</h2>
            <p class="muted">{ctx.t("statements-typed-text")}</p>
            {table_view(ctx, &receipt_columns, p.receipts)}
        }
    });
    let content = view! {
        <p><a href="/dashboard/takasbank">{ctx.t("dashboard-takasbank")}</a></p>
        <p>{ctx.t("statements-text")}</p>
        {error_summary(ctx, &p.errors)}
        <form class="form" method="post" action="/dashboard/takasbank/statements" enctype="multipart/form-data" novalidate>
            {csrf_field(ctx)}
            <div class="field">
                <label class="field__label" for="statement">{ctx.t("statements-file")}</label>
                <input class="input" id="statement" name="statement" type="file"
                    accept=".xml,.sta,.txt,.940,.mt940" aria-invalid=error.map(|_| "true")
                    aria-describedby=described />
                {error_view(ctx, "statement", error)}
            </div>
            <div class="form__actions">
                <button class="button button--primary" type="submit">{ctx.t("statements-import")}</button>
            </div>
        </form>
        {receipts}
        <h2>{ctx.t("statements-lines-title")}</h2>
        {flagged}
        {table_view(ctx, &line_columns, p.lines)}
    }
    .into_any();
    staff_layout(ctx, ctx.t("statements-title"), content)
}
