//! The staff area under `/dashboard`: the navigation and the layout every staff page shares,
//! and the one-record detail page. The home page with its charts and the content and mail
//! editors live in submodules, re-exported here so the server names one path for each page;
//! staff lists are [`super::staff_table`], the startup editor [`super::startup_editor`].

mod confirm;
mod editors;
mod home;
mod round_close;
mod rounds;
mod statements;

use leptos::prelude::*;

pub use confirm::{Confirm, confirm_page};
pub use editors::{ContentForm, MailTemplateForm, content_editor_page, mail_template_page};
pub use home::{StaffHome, staff_home_page};
pub use round_close::{RoundClose, round_close_page};
pub use rounds::{RoundFiguresForm, RoundPage, ValuationForm, round_page};
pub use statements::{StatementsPage, statements_page};

use super::staff_table::{Cell, RowAction, action_forms};
use crate::shell::{Page, PageContext};

/// The sidebar's groups, in order, each with the navigation labels it holds; a section the
/// table does not name is listed under the last group.
const NAV_GROUPS: [(&str, &[&str]); 5] = [
    (
        "dashboard-group-investing",
        &[
            "dashboard-home",
            "dashboard-investments-title",
            "dashboard-pre-investments",
            "dashboard-rounds",
            "dashboard-takasbank",
            "statements-title",
        ],
    ),
    (
        "dashboard-group-startups",
        &[
            "dashboard-startups",
            "dashboard-applications",
            "committee-title",
            "disclosure-staff-title",
            "dashboard-vc-groups",
            "dashboard-vip-groups",
        ],
    ),
    (
        "dashboard-group-people",
        &[
            "dashboard-users",
            "dashboard-qualified-users",
            "dashboard-contacts",
            "dashboard-gsyf",
            "dashboard-academy",
        ],
    ),
    (
        "dashboard-group-content",
        &[
            "dashboard-blogs",
            "dashboard-faq",
            "dashboard-newsletter",
            "dashboard-auto-mail",
        ],
    ),
    (
        "dashboard-group-system",
        &["mailbox-title", "dashboard-audit"],
    ),
];

/// The staff navigation: the sections the viewer's role opens, as the server's route table
/// lists them, in labelled groups.
pub fn staff_nav(ctx: &PageContext) -> impl IntoView + use<> {
    let listed = |label: &str| NAV_GROUPS.iter().any(|(_, labels)| labels.contains(&label));
    let groups = NAV_GROUPS
        .iter()
        .enumerate()
        .filter_map(|(i, (group, labels))| {
            let last = i + 1 == NAV_GROUPS.len();
            let links = ctx
                .staff_nav
                .iter()
                .filter(|(_, label)| labels.contains(label) || (last && !listed(label)))
                .map(|(path, label)| {
                    // A section's own pages (`/dashboard/committee/12`) mark it current too.
                    let within = *path != "/dashboard"
                        && ctx
                            .path
                            .strip_prefix(*path)
                            .is_some_and(|rest| rest.starts_with('/'));
                    let current = (ctx.path == *path || within).then_some("page");
                    let path = path.to_string();
                    view! { <li><a href=path aria-current=current>{ctx.t(label)}</a></li> }
                })
                .collect::<Vec<_>>();
            (!links.is_empty()).then(|| {
                view! {
                    <li class="staff-nav__group">
                        <span class="staff-nav__heading">{ctx.t(group)}</span>
                        <ul>{links}</ul>
                    </li>
                }
            })
        })
        .collect_view();
    view! {
        <nav class="staff-nav" id="staff-menu" aria-label=ctx.t("dashboard-nav")>
            <a class="brand" href="/dashboard">{crate::brand::logo(ctx.t("site-name"))}</a>
            <ul class="staff-nav__menu">{groups}</ul>
        </nav>
    }
}

/// The staff area's top bar: who is signed in, the public site, and signing out.
fn staff_bar(ctx: &PageContext) -> impl IntoView + use<> {
    let who = ctx
        .viewer
        .map(|v| format!("{} {}", v.first_name, v.last_name))
        .unwrap_or_default();
    let avatar = ctx
        .viewer
        .and_then(|v| v.avatar_url.clone())
        .unwrap_or_else(|| "/avatar.svg".to_owned());
    view! {
        <div class="staff-bar">
            <p class="staff-bar__who">
                <img class="avatar" src=avatar alt="" width="32" height="32" />
                <span><span class="muted">{ctx.t("dashboard-signed-in-as")}</span> " " <strong>{who}</strong></span>
            </p>
            <a class="staff-bar__menu" href="#staff-menu">{ctx.t("dashboard-nav")}</a>
            <a href="/">{ctx.t("dashboard-view-site")}</a>
            <form method="post" action="/logout">
                {crate::forms::csrf_field(ctx)}
                <button class="button button--ghost" type="submit">{ctx.t("logout")}</button>
            </form>
        </div>
    }
}

/// A staff page: the top bar, the navigation beside `content` under its `title`; never
/// indexed.
pub fn staff_layout(ctx: &PageContext, title: String, content: AnyView) -> Page {
    let body = view! {
        <div class="staff">
            {staff_bar(ctx)}
            {staff_nav(ctx)}
            <section class="staff__main stack">
                <h1>{title.clone()}</h1>
                {content}
            </section>
        </div>
    }
    .into_any();
    let mut page = Page::new(title.clone(), title, body);
    page.indexable = false;
    page
}

/// One record on its own page: its facts, the actions on it and a history table. Values are
/// typed cells, formatted in the viewer's language like the lists' cells.
pub struct StaffDetail {
    pub title: String,
    /// `(translated label, value)`.
    pub facts: Vec<(String, Cell)>,
    /// The history table's column ids and rows.
    pub columns: Vec<&'static str>,
    pub history: Vec<Vec<Cell>>,
    pub actions: Vec<RowAction>,
    /// An optional link, `(href, label id)`.
    pub link: Option<(String, String)>,
    /// Irreversible actions, set apart: links to their confirmation pages, `(href, label id)`.
    pub irreversible: Vec<(String, String)>,
}

pub fn staff_detail_page(ctx: &PageContext, detail: StaffDetail) -> Page {
    let StaffDetail {
        title,
        facts,
        columns,
        history,
        actions,
        link,
        irreversible,
    } = detail;
    let facts = facts
        .into_iter()
        .map(|(k, v)| view! { <dt>{k}</dt><dd>{v.text(ctx)}</dd> })
        .collect_view();
    let head = columns
        .iter()
        .map(|c| view! { <th scope="col">{ctx.t(c)}</th> })
        .collect_view();
    let rows = history
        .into_iter()
        .map(|cells| {
            let cells = cells
                .iter()
                .map(|c| view! { <td>{c.text(ctx)}</td> })
                .collect_view();
            view! { <tr>{cells}</tr> }
        })
        .collect_view();
    // One record's page shows its actions open: they are what the page is for.
    let link = link.map(|(href, label)| view! { <p><a href=href>{ctx.t(&label)}</a></p> });
    let actions =
        view! { {link} <div class="record-actions">{action_forms(ctx, 0, &actions)}</div> };
    // A record without a history (or one the viewer may not see) has no history table.
    let history = (!columns.is_empty()).then(|| {
        view! {
            <h2>{ctx.t("dashboard-history")}</h2>
            <div class="table-wrap">
                <table class="table">
                    <thead><tr>{head}</tr></thead>
                    <tbody>{rows}</tbody>
                </table>
            </div>
        }
    });
    let irreversible = (!irreversible.is_empty()).then(|| {
        let links = irreversible
            .into_iter()
            .map(|(href, label)| view! { <li><a class="button button--ghost button--danger-text" href=href>{ctx.t(&label)}</a></li> })
            .collect_view();
        view! {
            <section class="danger-zone" aria-labelledby="danger-zone">
                <h2 id="danger-zone">{ctx.t("dashboard-danger-zone")}</h2>
                <p class="muted">{ctx.t("dashboard-danger-zone-text")}</p>
                <ul class="danger-zone__actions">{links}</ul>
            </section>
        }
    });
    let content = view! {
        <dl class="facts">{facts}</dl>
        {actions}
        {history}
        {irreversible}
    }
    .into_any();
    staff_layout(ctx, title, content)
}
