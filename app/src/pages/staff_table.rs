//! Staff lists: a table of typed cells, rendered as the server's paged HTML table inside the
//! `staff-table` island's mount point, and as the island's JSON (the `json` submodule). Cells
//! are formatted in the viewer's language and carry their own sort keys (kuruş, Unix time), so
//! nothing is parsed back from text.

mod json;

use leptos::prelude::*;
use time::{Date, OffsetDateTime};

use super::dashboard::staff_layout;
use crate::domain::money::Money;
use crate::domain::time_fmt::{ISTANBUL, format_date_short, format_day};
use crate::forms::csrf_field;
use crate::shell::{Page, PageContext};

/// One cell of a staff table.
#[derive(Clone, Debug)]
pub enum Cell {
    Text(String),
    /// A Fluent id, shown translated (statuses, roles, kinds).
    Label(String),
    /// An instant, shown as its date in Istanbul.
    Date(OffsetDateTime),
    /// An instant, shown as its date and time in Istanbul.
    DateTime(OffsetDateTime),
    /// A calendar day.
    Day(Date),
    Money(Money),
    Empty,
}

impl From<String> for Cell {
    fn from(text: String) -> Cell {
        Cell::Text(text)
    }
}

impl From<&str> for Cell {
    fn from(text: &str) -> Cell {
        Cell::Text(text.to_owned())
    }
}

impl<T: Into<Cell>> From<Option<T>> for Cell {
    fn from(value: Option<T>) -> Cell {
        value.map_or(Cell::Empty, Into::into)
    }
}

impl Cell {
    /// The cell as the viewer reads it (and as CSV exports it).
    pub fn text(&self, ctx: &PageContext) -> String {
        match self {
            Cell::Text(text) => text.clone(),
            Cell::Label(id) => ctx.t(id),
            Cell::Date(at) => format_day(*at, ctx.locale),
            Cell::DateTime(at) => {
                let local = at.to_offset(ISTANBUL);
                format!(
                    "{} {:02}:{:02}",
                    format_date_short(local.date(), ctx.locale),
                    local.hour(),
                    local.minute()
                )
            }
            Cell::Day(day) => format_date_short(*day, ctx.locale),
            Cell::Money(money) => money.format(ctx.locale),
            Cell::Empty => String::new(),
        }
    }

    /// What the island orders by instead of the text, if anything.
    pub fn sort_key(&self) -> Option<i64> {
        match self {
            Cell::Date(at) | Cell::DateTime(at) => Some(at.unix_timestamp()),
            Cell::Day(day) => Some(i64::from(day.to_julian_day())),
            Cell::Money(money) => Some(money.kurus()),
            Cell::Text(_) | Cell::Label(_) | Cell::Empty => None,
        }
    }
}

/// One action on a row: a small POST form with a button (and an optional note field).
pub struct RowAction {
    pub action: String,
    pub name: &'static str,
    pub value: String,
    pub label_id: String,
    /// Inputs sent with the button: `(name, Fluent id of the label, input type)`.
    pub fields: &'static [(&'static str, &'static str, &'static str)],
}

/// A free-text note (a reason for a rejection, say).
pub const NOTE: &[(&str, &str, &str)] = &[("note", "dashboard-note", "text")];

pub struct StaffRow {
    pub id: i64,
    pub cells: Vec<Cell>,
    /// An optional link per row, `(href, label id)`.
    pub link: Option<(String, String)>,
    pub actions: Vec<RowAction>,
}

/// A staff list: a search box, a table with per-row actions, and an optional CSV link.
pub struct StaffTable {
    pub title_id: &'static str,
    pub columns: Vec<&'static str>,
    pub rows: Vec<StaffRow>,
    pub search: Option<String>,
    pub csv: Option<&'static str>,
    /// A link to add a new item.
    pub create: Option<&'static str>,
}

/// A record's action forms, each a small POST form with its button (and its fields).
pub(crate) fn action_forms(
    ctx: &PageContext,
    id: i64,
    actions: &[RowAction],
) -> impl IntoView + use<> {
    actions
        .iter()
        .map(|a| {
            let inputs = a
                .fields
                .iter()
                .map(|(name, label, kind)| {
                    let id = format!("{name}-{id}-{}", a.value);
                    // A date field shows its own format, and may not have a placeholder.
                    let placeholder = (*kind != "date").then(|| ctx.t(label));
                    view! {
                        <label class="visually-hidden" for=id.clone()>{ctx.t(label)}</label>
                        <input class="input" id=id name=*name type=*kind placeholder=placeholder />
                    }
                })
                .collect_view();
            view! {
                <form class="inline-form" method="post" action=a.action.clone()>
                    {csrf_field(ctx)}
                    {inputs}
                    <button class="button button--ghost" type="submit" name=a.name value=a.value.clone()>{ctx.t(&a.label_id)}</button>
                </form>
            }
        })
        .collect_view()
}

pub(crate) fn row_view(ctx: &PageContext, row: StaffRow) -> impl IntoView + use<> {
    let cells = row
        .cells
        .iter()
        .map(|c| match c.sort_key() {
            // Amounts and dates never wrap; other cells carry no class at all.
            Some(_) => view! { <td class="cell--fixed">{c.text(ctx)}</td> }.into_any(),
            None => view! { <td>{c.text(ctx)}</td> }.into_any(),
        })
        .collect_view();
    let link = row
        .link
        .map(|(href, label)| view! { <a href=href>{ctx.t(&label)}</a> });
    // The row's actions behind one menu, so a row stays one line until staff open it.
    let menu = (!row.actions.is_empty()).then(|| {
        view! {
            <details class="row-menu">
                <summary>{ctx.t("dashboard-col-actions")}</summary>
                <div class="row-menu__panel">{action_forms(ctx, row.id, &row.actions)}</div>
            </details>
        }
    });
    view! { <tr data-row=row.id>{cells}<td class="row-actions">{link} {menu}</td></tr> }
}

/// Rows per page of a server-rendered staff list (the island pages its own way).
pub const STAFF_PAGE_ROWS: usize = 50;

/// The search as it goes into a query string, when there is one.
fn encoded_search(search: Option<&str>) -> Option<String> {
    search
        .filter(|q| !q.is_empty())
        .map(crate::domain::paths::encode_query)
}

/// The search box (`q` as typed), submitting to the list itself.
fn search_form(ctx: &PageContext, q: String) -> impl IntoView + use<> {
    view! {
        <form class="filters" method="get" action=ctx.path.to_owned()>
            <div class="field">
                <label class="field__label" for="staff-q">{ctx.t("favorites-search")}</label>
                <input class="input" id="staff-q" type="search" name="q" value=q />
            </div>
            <div class="form__actions"><button class="button button--primary" type="submit">{ctx.t("filter-apply")}</button></div>
        </form>
    }
}

/// Previous and next links around "page x of y", keeping the search.
fn pager_view(
    ctx: &PageContext,
    search: Option<&str>,
    page: usize,
    pages: usize,
) -> impl IntoView + use<> {
    let query = |n: usize| match encoded_search(search) {
        Some(q) => format!("{}?q={q}&page={n}", ctx.path),
        None => format!("{}?page={n}", ctx.path),
    };
    let previous = (page > 1)
        .then(|| view! { <a href=query(page - 1) rel="prev">{ctx.t("pager-previous")}</a> });
    let next = (page < pages)
        .then(|| view! { <a href=query(page + 1) rel="next">{ctx.t("pager-next")}</a> });
    let args = [
        ("page", page.to_string().into()),
        ("pages", pages.to_string().into()),
    ];
    view! { <nav class="pager" aria-label=ctx.t("pagination-label")>{previous} <span>{ctx.locale.t_args("pager-page", &args)}</span> {next}</nav> }
}

/// The `staff-table` island's props: where its JSON is, the CSV file name, and its texts.
fn island_props(ctx: &PageContext, search: Option<&str>) -> String {
    let src = match encoded_search(search) {
        Some(q) => format!("{}.json?q={q}", ctx.path),
        None => format!("{}.json", ctx.path),
    };
    let slug = ctx.path.trim_start_matches("/dashboard").trim_matches('/');
    let labels = serde_json::json!({
        "search": ctx.t("favorites-search"),
        "filterAll": ctx.t("dashboard-filter-all"),
        "export": ctx.t("dashboard-csv"),
        "previous": ctx.t("pager-previous"),
        "next": ctx.t("pager-next"),
        "page": ctx.t("dashboard-page-template"),
        "loading": ctx.t("dashboard-loading"),
        "failed": ctx.t("dashboard-load-failed"),
        "empty": ctx.t("dashboard-empty"),
        "actions": ctx.t("dashboard-col-actions"),
        "shown": ctx.t("dashboard-shown-template"),
        "pager": ctx.t("pagination-label"),
        "reload": ctx.t("dashboard-reload"),
    });
    serde_json::json!({
        "src": src,
        "csrf": ctx.csrf,
        "csvName": format!("ortak-{}.csv", if slug.is_empty() { "dashboard" } else { slug }),
        "locale": ctx.locale.code(),
        "labels": labels,
    })
    .to_string()
}

/// The table itself: the column heads, then `rows` with their actions.
pub(crate) fn table_view(
    ctx: &PageContext,
    columns: &[&'static str],
    rows: Vec<StaffRow>,
) -> impl IntoView + use<> {
    let head = columns
        .iter()
        .map(|c| view! { <th scope="col">{ctx.t(c)}</th> })
        .collect_view();
    let rows = rows.into_iter().map(|r| row_view(ctx, r)).collect_view();
    view! {
        <div class="table-wrap">
            <table class="table">
                <thead><tr>{head}<th scope="col">{ctx.t("dashboard-col-actions")}</th></tr></thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
    }
}

/// A staff list page: `page` (from 1) of the rows, inside the table island's mount point.
pub fn staff_table_page(ctx: &PageContext, table: StaffTable, page: usize) -> Page {
    let pages = table.rows.len().div_ceil(STAFF_PAGE_ROWS).max(1);
    let page = page.clamp(1, pages);
    let empty = table
        .rows
        .is_empty()
        .then(|| view! { <p class="empty-state">{ctx.t("dashboard-empty")}</p> });
    let q = table.search.clone();
    let search = table.search.map(|q| search_form(ctx, q));
    let csv = table.csv.map(|href| view! { <p><a class="button button--ghost" href=href>{ctx.t("dashboard-csv")}</a></p> });
    let create = table.create.map(|href| view! { <p><a class="button button--primary" href=href>{ctx.t("dashboard-new")}</a></p> });
    let rows = table
        .rows
        .into_iter()
        .skip((page - 1) * STAFF_PAGE_ROWS)
        .take(STAFF_PAGE_ROWS)
        .collect();
    let table_view = table_view(ctx, &table.columns, rows);
    let pager = (pages > 1).then(|| pager_view(ctx, q.as_deref(), page, pages));
    let props = island_props(ctx, q.as_deref());
    let content = view! {
        {create}
        <div data-island="staff-table" data-props=props>
            {search}
            {csv}
            {empty}
            {table_view}
            {pager}
        </div>
    }
    .into_any();
    let mut page = staff_layout(ctx, ctx.t(table.title_id), content);
    page.islands.push("staff-table");
    page
}
