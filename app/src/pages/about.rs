//! Who runs Ortak (issue 28): the operator's legal identity and SPK permission in every page's
//! footer, the data controller box on the KVKK notices, and `/about`, a public page with the
//! identity, the regulation the platform works under and every way to reach it.

use leptos::prelude::*;

use crate::domain::operator::Operator;
use crate::shell::{Page, PageContext};

/// The footer's lines: the trade name and address, the registry numbers, the SPK permission
/// with the Board's list, and the contact channels.
pub fn operator_footer(ctx: &PageContext) -> impl IntoView + use<> {
    let o = ctx.operator;
    let permission = permission(ctx, o);
    view! {
        <div class="footer-operator">
            <p><strong>{o.legal_name.clone()}</strong>" · "{o.address.clone()}</p>
            <p>"MERSİS "{o.mersis.clone()}" · "{o.trade_registry.clone()}</p>
            <p>
                {permission.clone()} " "
                <a href=o.spk_list_url.clone() rel="noopener noreferrer">{ctx.t("operator-spk-list")}</a>
            </p>
            <p>
                <a href=o.phone_link()>{o.phone_shown()}</a>" · "
                <a href=format!("mailto:{}", o.email)>{o.email.clone()}</a>" · KEP: "{o.kep.clone()}" · "
                <a href="/about">{ctx.t("about-link")}</a>
            </p>
        </div>
    }
}

/// The sentence naming the SPK decision that permits the platform.
fn permission(ctx: &PageContext, o: &Operator) -> String {
    let date = o.spk_decision_date.map_or_else(String::new, |d| {
        crate::domain::time_fmt::format_date_short(d, ctx.locale)
    });
    let args = [
        ("date", date.into()),
        ("number", o.spk_decision_number.clone().into()),
    ];
    ctx.locale.t_args("operator-permission", &args)
}

/// One line for bare pages: the trade name, MERSİS, the permission's decision and `/about`.
pub fn operator_line(ctx: &PageContext) -> impl IntoView + use<> {
    let o = ctx.operator;
    view! {
        <p class="operator-line">
            {o.legal_name.clone()}" · MERSİS "{o.mersis.clone()}" · "{permission(ctx, o)}" "
            <a href="/about">{ctx.t("about-link")}</a>
        </p>
    }
}

/// The operator's identity as facts: `(label, value)`.
fn identity(ctx: &PageContext, o: &Operator) -> impl IntoView + use<> {
    let rows = [
        ("operator-legal-name", o.legal_name.clone()),
        ("operator-address", o.address.clone()),
        ("operator-mersis", o.mersis.clone()),
        ("operator-trade-registry", o.trade_registry.clone()),
        ("operator-kep", o.kep.clone()),
    ]
    .into_iter()
    .map(|(label, value)| view! { <dt>{ctx.t(label)}</dt><dd>{value}</dd> })
    .collect_view();
    view! { <dl class="facts">{rows}</dl> }
}

/// The data controller of a KVKK notice (article 10: its identity comes first).
pub fn data_controller(ctx: &PageContext) -> impl IntoView + use<> {
    view! {
        <aside class="card controller" aria-labelledby="controller-title">
            <h2 id="controller-title">{ctx.t("operator-controller")}</h2>
            {identity(ctx, ctx.operator)}
            <p>
                {ctx.t("operator-controller-contact")} " "
                <a href=format!("mailto:{}", ctx.operator.email)>{ctx.operator.email.clone()}</a>
            </p>
        </aside>
    }
}

/// `/about`: who runs Ortak, under which permission, and how to reach it.
pub fn about_page(ctx: &PageContext) -> Page {
    let o = ctx.operator;
    let title = ctx.t("about-title");
    let permission = permission(ctx, o);
    let body = view! {
        <article class="prose stack about">
            <h1>{title.clone()}</h1>
            <p class="lead">{ctx.locale.t_args("about-lead", &[("name", o.legal_name.clone().into())])}</p>
            <section class="stack" aria-labelledby="about-identity">
                <h2 id="about-identity">{ctx.t("about-identity")}</h2>
                {identity(ctx, o)}
            </section>
            <section class="stack" aria-labelledby="about-regulation">
                <h2 id="about-regulation">{ctx.t("about-regulation")}</h2>
                <p>{permission.clone()}</p>
                <p>{ctx.t("about-regulation-text")}</p>
                <p><a href=o.spk_list_url.clone() rel="noopener noreferrer">{ctx.t("operator-spk-list")}</a></p>
            </section>
            <section class="stack" aria-labelledby="about-contact">
                <h2 id="about-contact">{ctx.t("about-contact")}</h2>
                <dl class="facts">
                    <dt>{ctx.t("operator-phone")}</dt><dd><a href=o.phone_link()>{o.phone_shown()}</a></dd>
                    <dt>{ctx.t("operator-email")}</dt><dd><a href=format!("mailto:{}", o.email)>{o.email.clone()}</a></dd>
                    <dt>{ctx.t("operator-kep")}</dt><dd>{o.kep.clone()}</dd>
                    <dt>{ctx.t("operator-address")}</dt><dd>{o.address.clone()}</dd>
                </dl>
                <p><a class="button button--primary" href="/contactUs">{ctx.t("about-write")}</a></p>
            </section>
        </article>
    }
    .into_any();
    Page::new(title, ctx.t("about-description"), body)
}
