//! Staff lists: a table of typed cells, rendered as the server's paged HTML table inside the
//! `staff-table` island's mount point, and as the island's JSON. Cells are formatted in the
//! viewer's language and carry their own sort keys (kuruş, Unix time), so nothing is parsed
//! back from text.

use leptos::prelude::*;
use time::{Date, OffsetDateTime};

use super::dashboard::staff_layout;
use crate::domain::money::Money;
use crate::domain::time_fmt::{ISTANBUL, format_date_short, istanbul_date};
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
            Cell::Date(at) => format_date_short(istanbul_date(*at), ctx.locale),
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
            Cell::Text(text) => legacy_sort_key(text),
            Cell::Label(_) | Cell::Empty => None,
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

pub(crate) fn row_view(ctx: &PageContext, row: StaffRow) -> impl IntoView + use<> {
    let cells = row
        .cells
        .iter()
        .map(|c| view! { <td>{c.text(ctx)}</td> })
        .collect_view();
    let link = row
        .link
        .map(|(href, label)| view! { <a href=href>{ctx.t(&label)}</a> });
    let actions = row
        .actions
        .into_iter()
        .map(|a| {
            let inputs = a
                .fields
                .iter()
                .map(|(name, label, kind)| {
                    let id = format!("{name}-{}-{}", row.id, a.value);
                    // A date field shows its own format, and may not have a placeholder.
                    let placeholder = (*kind != "date").then(|| ctx.t(label));
                    view! {
                        <label class="visually-hidden" for=id.clone()>{ctx.t(label)}</label>
                        <input class="input" id=id name=*name type=*kind placeholder=placeholder />
                    }
                })
                .collect_view();
            view! {
                <form class="inline-form" method="post" action=a.action>
                    {csrf_field(ctx)}
                    {inputs}
                    <button class="button button--ghost" type="submit" name=a.name value=a.value>{ctx.t(&a.label_id)}</button>
                </form>
            }
        })
        .collect_view();
    view! { <tr data-row=row.id>{cells}<td>{link} {actions}</td></tr> }
}

/// Rows per page of a server-rendered staff list (the island pages its own way).
pub const STAFF_PAGE_ROWS: usize = 50;

/// Columns holding a few repeated values (statuses, roles, funds): the island offers a
/// filter for each.
const FILTER_COLUMNS: [&str; 9] = [
    "dashboard-col-handled",
    "dashboard-col-status",
    "dashboard-col-role",
    "dashboard-col-mkk",
    "dashboard-col-action",
    "dashboard-startup-fund",
    "dashboard-startup-sector",
    "dashboard-startup-period",
    "field-language",
];

/// Transitional: the sort key of a text cell that holds a Turkish date (`21.11.2026` →
/// `20261121`) or amount (`1.250.000,50 TL` → kuruş). Goes once every cell is typed.
fn legacy_sort_key(cell: &str) -> Option<i64> {
    let parts: Vec<&str> = cell.split('.').collect();
    if parts.len() == 3
        && parts[0].len() == 2
        && parts[1].len() == 2
        && parts[2].len() == 4
        && parts.iter().all(|p| p.bytes().all(|b| b.is_ascii_digit()))
    {
        return format!("{}{}{}", parts[2], parts[1], parts[0]).parse().ok();
    }
    if let Some(amount) = cell.strip_suffix(" TL") {
        let (lira, kurus) = amount.split_once(',').unwrap_or((amount, "00"));
        let lira: String = lira.chars().filter(|c| *c != '.').collect();
        if let (Ok(l), Ok(k)) = (lira.parse::<i64>(), kurus.parse::<i64>()) {
            return Some(l * 100 + k);
        }
    }
    None
}

/// The island's JSON, serialized straight from the table (no intermediate JSON tree): lists
/// run to thousands of rows.
#[derive(serde::Serialize)]
struct TableJson<'a> {
    columns: Vec<ColumnJson>,
    rows: Vec<RowJson<'a>>,
}

#[derive(serde::Serialize)]
struct ColumnJson {
    label: String,
    filter: bool,
}

#[derive(serde::Serialize)]
struct RowJson<'a> {
    id: i64,
    cells: Vec<String>,
    sort: Vec<Option<i64>>,
    link: Option<LinkJson<'a>>,
    actions: Vec<ActionJson<'a>>,
}

#[derive(serde::Serialize)]
struct LinkJson<'a> {
    href: &'a str,
    label: &'a str,
}

#[derive(serde::Serialize)]
struct ActionJson<'a> {
    action: &'a str,
    name: &'a str,
    value: &'a str,
    label: &'a str,
    fields: Vec<FieldJson<'a>>,
}

#[derive(serde::Serialize)]
struct FieldJson<'a> {
    name: &'a str,
    label: &'a str,
    #[serde(rename = "type")]
    kind: &'a str,
}

impl StaffTable {
    /// Every label the rows use, translated once.
    fn labels(&self, ctx: &PageContext) -> std::collections::HashMap<&str, String> {
        let mut labels = std::collections::HashMap::new();
        for row in &self.rows {
            let ids = row.link.iter().map(|(_, label)| label.as_str()).chain(
                row.actions.iter().flat_map(|a| {
                    std::iter::once(a.label_id.as_str()).chain(a.fields.iter().map(|f| f.1))
                }),
            );
            for id in ids {
                labels.entry(id).or_insert_with(|| ctx.t(id));
            }
        }
        labels
    }

    /// The list as the island's JSON endpoint answers it; `labels` from [`Self::labels`].
    fn to_json<'a>(
        &'a self,
        ctx: &PageContext,
        labels: &'a std::collections::HashMap<&'a str, String>,
    ) -> TableJson<'a> {
        let label = |id: &str| labels.get(id).map_or("", String::as_str);
        TableJson {
            columns: self
                .columns
                .iter()
                .map(|c| ColumnJson {
                    label: ctx.t(c),
                    filter: FILTER_COLUMNS.contains(c),
                })
                .collect(),
            rows: self
                .rows
                .iter()
                .map(|r| RowJson {
                    id: r.id,
                    cells: r.cells.iter().map(|c| c.text(ctx)).collect(),
                    sort: r.cells.iter().map(Cell::sort_key).collect(),
                    link: r.link.as_ref().map(|(href, l)| LinkJson {
                        href,
                        label: label(l),
                    }),
                    actions: r
                        .actions
                        .iter()
                        .map(|a| ActionJson {
                            action: &a.action,
                            name: a.name,
                            value: &a.value,
                            label: label(&a.label_id),
                            fields: a
                                .fields
                                .iter()
                                .map(|(name, l, kind)| FieldJson {
                                    name,
                                    label: label(l),
                                    kind,
                                })
                                .collect(),
                        })
                        .collect(),
                })
                .collect(),
        }
    }

    /// The island's JSON as text.
    pub fn json_text(&self, ctx: &PageContext) -> String {
        let labels = self.labels(ctx);
        serde_json::to_string(&self.to_json(ctx, &labels)).unwrap_or_default()
    }
}

/// A staff list page: `page` (from 1) of the rows, inside the table island's mount point.
pub fn staff_table_page(ctx: &PageContext, table: StaffTable, page: usize) -> Page {
    let total = table.rows.len();
    let pages = total.div_ceil(STAFF_PAGE_ROWS).max(1);
    let page = page.clamp(1, pages);
    let empty = table
        .rows
        .is_empty()
        .then(|| view! { <p class="empty-state">{ctx.t("dashboard-empty")}</p> });
    let q = table.search.clone();
    let search = table.search.map(|q| {
        view! {
            <form class="filters" method="get" action=ctx.path.to_owned()>
                <div class="field">
                    <label class="field__label" for="staff-q">{ctx.t("favorites-search")}</label>
                    <input class="input" id="staff-q" type="search" name="q" value=q />
                </div>
                <div class="form__actions"><button class="button button--primary" type="submit">{ctx.t("filter-apply")}</button></div>
            </form>
        }
    });
    let csv = table.csv.map(|href| view! { <p><a class="button button--ghost" href=href>{ctx.t("dashboard-csv")}</a></p> });
    let create = table.create.map(|href| view! { <p><a class="button button--primary" href=href>{ctx.t("dashboard-new")}</a></p> });
    let head = table
        .columns
        .iter()
        .map(|c| view! { <th scope="col">{ctx.t(c)}</th> })
        .collect_view();
    let rows = table
        .rows
        .into_iter()
        .skip((page - 1) * STAFF_PAGE_ROWS)
        .take(STAFF_PAGE_ROWS)
        .map(|r| row_view(ctx, r))
        .collect_view();
    let query = |n: usize| match &q {
        Some(q) if !q.is_empty() => format!(
            "{}?q={}&page={n}",
            ctx.path,
            crate::domain::paths::encode_query(q)
        ),
        _ => format!("{}?page={n}", ctx.path),
    };
    let pager = (pages > 1).then(|| {
        let previous = (page > 1).then(|| view! { <a href=query(page - 1) rel="prev">{ctx.t("pager-previous")}</a> });
        let next = (page < pages).then(|| view! { <a href=query(page + 1) rel="next">{ctx.t("pager-next")}</a> });
        let args = [("page", page.to_string().into()), ("pages", pages.to_string().into())];
        view! { <nav class="pager" aria-label=ctx.t("pagination-label")>{previous} <span>{ctx.locale.t_args("pager-page", &args)}</span> {next}</nav> }
    });
    let src = match &q {
        Some(q) if !q.is_empty() => format!(
            "{}.json?q={}",
            ctx.path,
            crate::domain::paths::encode_query(q)
        ),
        _ => format!("{}.json", ctx.path),
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
    let props = serde_json::json!({
        "src": src,
        "csrf": ctx.csrf,
        "csvName": format!("ortak-{}.csv", if slug.is_empty() { "dashboard" } else { slug }),
        "locale": ctx.locale.code(),
        "labels": labels,
    })
    .to_string();
    let content = view! {
        {create}
        <div data-island="staff-table" data-props=props>
            {search}
            {csv}
            {empty}
            <div class="table-wrap">
                <table class="table">
                    <thead><tr>{head}<th scope="col">{ctx.t("dashboard-col-actions")}</th></tr></thead>
                    <tbody>{rows}</tbody>
                </table>
            </div>
            {pager}
        </div>
    }
    .into_any();
    let mut page = staff_layout(ctx, ctx.t(table.title_id), content);
    page.islands.push("staff-table");
    page
}
