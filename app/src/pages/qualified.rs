//! `/qualifiedInvestor`: an investor declares that they are a qualified investor and uploads
//! the evidence; staff verify it in `/dashboard/qualifiedUsers`.

use leptos::prelude::*;

use crate::forms::{FieldErrors, checkbox, choice_group, csrf_field, error_summary};
use crate::shell::{Page, PageContext};

/// The grounds a declaration may rest on (SPK's qualified-investor criteria).
pub const BASES: [&str; 4] = ["assets", "income", "experience", "professional"];

/// The latest declaration: `(basis, status, rejection reason, date)`.
pub type Latest = Option<(String, String, Option<String>, String)>;

pub fn qualified_page(
    ctx: &PageContext,
    latest: Latest,
    basis: &str,
    errors: &FieldErrors,
) -> Page {
    let status = latest.map(|(basis, status, reason, date)| {
        view! {
            <div class="card stack" data-status=status.clone()>
                <p><strong>{ctx.t(&format!("qualified-status-{status}"))}</strong></p>
                <p>{ctx.t(&format!("qualified-basis-{basis}"))}" · "{date}</p>
                {reason.map(|r| view! { <p>{r}</p> })}
            </div>
        }
    });
    let options: Vec<(&'static str, String)> = BASES
        .iter()
        .map(|b| (*b, format!("qualified-basis-{b}")))
        .collect();
    let file_error = errors.get("evidence");
    let body = view! {
        <section class="container narrow stack">
            <h1>{ctx.t("qualified-title")}</h1>
            <p class="lead">{ctx.t("qualified-lead")}</p>
            {status}
            {error_summary(ctx, errors)}
            <form class="form" method="post" action="/qualifiedInvestor" enctype="multipart/form-data" novalidate>
                {csrf_field(ctx)}
                {choice_group(ctx, errors, "basis", "qualified-basis", "radio", &options, &[basis])}
                <div class="field">
                    <label class="field__label" for="evidence">{ctx.t("qualified-evidence")}</label>
                    <input class="input" id="evidence" type="file" name="evidence" accept="application/pdf,image/png,image/jpeg" aria-invalid=file_error.map(|_| "true") aria-describedby=file_error.map(|_| "evidence-error") />
                    {crate::forms::error_view(ctx, "evidence", file_error)}
                </div>
                {checkbox(ctx, errors, "declare", view! { {ctx.t("qualified-declare")} }.into_any(), false)}
                <div class="form__actions"><button class="button button--primary" type="submit">{ctx.t("qualified-submit")}</button></div>
            </form>
        </section>
    }
    .into_any();
    let mut page = Page::new(ctx.t("qualified-title"), ctx.t("qualified-lead"), body);
    page.indexable = false;
    page
}
