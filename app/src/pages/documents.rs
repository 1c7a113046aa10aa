//! `/documents`: the member's document vault: every text they accepted (with its version and
//! time), an investment confirmation for each holding and a yearly statement for taxes. The
//! PDFs are made when opened, for this member only.

use leptos::prelude::*;

use crate::shell::{Page, PageContext};

/// An accepted text: its name (already in the page's language), version and when.
pub struct Accepted {
    pub document: String,
    pub version: String,
    pub at: String,
}

/// A holding with its confirmation: startup, amount, date, request id.
pub struct Confirmation {
    /// The round's shareholder agreement and side letters: `(href, label)`.
    pub documents: Vec<(String, String)>,
    pub startup: String,
    pub amount: String,
    pub at: String,
    pub request_id: i64,
}

pub struct Vault {
    pub accepted: Vec<Accepted>,
    pub confirmations: Vec<Confirmation>,
    pub years: Vec<i64>,
}

pub fn documents_page(ctx: &PageContext, v: &Vault) -> Page {
    let accepted = v
        .accepted
        .iter()
        .map(|a| {
            view! {
                <tr><td>{a.document.clone()}</td><td>{a.version.clone()}</td><td>{a.at.clone()}</td></tr>
            }
        })
        .collect_view();
    let confirmations = v
        .confirmations
        .iter()
        .map(|c| {
            let href = format!("/documents/confirmation/{}", c.request_id);
            let round = c
                .documents
                .iter()
                .map(|(href, label)| view! { " · " <a href=href.clone()>{label.clone()}</a> })
                .collect_view();
            view! {
                <li>
                    <a href=href download>{c.startup.clone()} " · " {c.amount.clone()} " · " {c.at.clone()}</a>
                    {round}
                </li>
            }
        })
        .collect_view();
    let years = v
        .years
        .iter()
        .map(|year| {
            let label = ctx
                .locale
                .t_args("documents-statement-year", &[("year", (*year).into())]);
            view! { <li><a href=format!("/documents/statement/{year}") download>{label}</a></li> }
        })
        .collect_view();
    let none = |empty: bool, id: &str| empty.then(|| view! { <p class="muted">{ctx.t(id)}</p> });
    let body = view! {
        <header class="prose__header">
            <h1>{ctx.t("documents-title")}</h1>
            <p class="lead">{ctx.t("documents-description")}</p>
        </header>
        <div class="documents-page">
        <section class="stack" aria-labelledby="accepted-title">
            <h2 id="accepted-title">{ctx.t("documents-accepted")}</h2>
            <div class="table-wrap">
                <table class="table">
                    <thead><tr>
                        <th scope="col">{ctx.t("documents-document")}</th>
                        <th scope="col">{ctx.t("documents-version")}</th>
                        <th scope="col">{ctx.t("documents-accepted-at")}</th>
                    </tr></thead>
                    <tbody>{accepted}</tbody>
                </table>
            </div>
        </section>
        <section class="stack" aria-labelledby="confirmations-title">
            <h2 id="confirmations-title">{ctx.t("documents-confirmations")}</h2>
            {none(v.confirmations.is_empty(), "documents-no-confirmations")}
            <ul>{confirmations}</ul>
        </section>
        <section class="stack" aria-labelledby="statements-title">
            <h2 id="statements-title">{ctx.t("documents-statements")}</h2>
            {none(v.years.is_empty(), "documents-no-statements")}
            <ul>{years}</ul>
        </section>
        </div>
    }
    .into_any();
    let mut page = Page::new(
        ctx.t("documents-title"),
        ctx.t("documents-description"),
        body,
    );
    page.indexable = false;
    page
}
