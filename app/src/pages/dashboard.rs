//! Staff pages under `/dashboard`.

use leptos::prelude::*;

use crate::forms::csrf_field;
use crate::shell::{Page, PageContext};

/// The staff sections, `(path, Fluent id, superadmin only)`, in the order of the navigation.
pub const SECTIONS: [(&str, &str, bool); 17] = [
    ("/dashboard", "dashboard-home", false),
    (
        "/dashboard/investments",
        "dashboard-investments-title",
        true,
    ),
    (
        "/dashboard/pre-investments",
        "dashboard-pre-investments",
        true,
    ),
    ("/dashboard/startups", "dashboard-startups", false),
    ("/dashboard/users", "dashboard-users", false),
    (
        "/dashboard/qualifiedUsers",
        "dashboard-qualified-users",
        true,
    ),
    ("/dashboard/vipgroups", "dashboard-vip-groups", true),
    ("/dashboard/vcGroups", "dashboard-vc-groups", true),
    ("/dashboard/applications", "dashboard-applications", false),
    ("/dashboard/contacts", "dashboard-contacts", false),
    ("/dashboard/gsyf", "dashboard-gsyf", false),
    ("/dashboard/academy", "dashboard-academy", false),
    ("/dashboard/autoMail", "dashboard-auto-mail", false),
    ("/dashboard/newsletter", "dashboard-newsletter", false),
    ("/dashboard/blogs", "dashboard-blogs", false),
    ("/dashboard/faq", "dashboard-faq", false),
    ("/dashboard/takasbank", "dashboard-takasbank", false),
];

/// The staff navigation, showing only what `superadmin` may open.
pub fn staff_nav(ctx: &PageContext, superadmin: bool) -> impl IntoView + use<> {
    let mut items: Vec<(&str, &str)> = SECTIONS
        .iter()
        .filter(|(_, _, s)| superadmin || !s)
        .map(|(p, l, _)| (*p, *l))
        .collect();
    items.push(("/dashboard/mailbox", "mailbox-title"));
    if superadmin {
        items.push(("/dashboard/audit", "dashboard-audit"));
    }
    let links = items
        .into_iter()
        .map(|(path, label)| {
            let current = (ctx.path == path).then_some("page");
            view! { <li><a href=path aria-current=current>{ctx.t(label)}</a></li> }
        })
        .collect_view();
    view! {
        <nav class="staff-nav" aria-label=ctx.t("dashboard-nav")>
            <a class="brand" href="/"><span class="brand__mark" aria-hidden="true"></span>{ctx.t("site-name")}</a>
            <ul>{links}</ul>
        </nav>
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
    pub cells: Vec<String>,
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

fn row_view(ctx: &PageContext, row: StaffRow) -> impl IntoView + use<> {
    let cells = row
        .cells
        .into_iter()
        .map(|c| view! { <td>{c}</td> })
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

pub fn staff_layout(ctx: &PageContext, superadmin: bool, title: String, content: AnyView) -> Page {
    let body = view! {
        <div class="staff">
            {staff_nav(ctx, superadmin)}
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

/// A sort key for a cell the island should not order as text: a Turkish date
/// (`21.11.2026` → `20261121`) or an amount (`1.250.000,50 TL` → kuruş).
fn sort_key(cell: &str) -> Option<i64> {
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
    cells: &'a [String],
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
                    cells: &r.cells,
                    sort: r.cells.iter().map(|c| sort_key(c)).collect(),
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
pub fn staff_table_page(
    ctx: &PageContext,
    superadmin: bool,
    table: StaffTable,
    page: usize,
) -> Page {
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
    let mut page = staff_layout(ctx, superadmin, ctx.t(table.title_id), content);
    page.islands.push("staff-table");
    page
}

/// One record on its own page: its facts, then a history table (`(column ids, rows)`).
pub fn staff_detail_page(
    ctx: &PageContext,
    superadmin: bool,
    title: String,
    facts: Vec<(String, String)>,
    history: (Vec<&'static str>, Vec<Vec<String>>),
    actions: Vec<RowAction>,
    link: Option<(String, String)>,
) -> Page {
    let facts = facts
        .into_iter()
        .map(|(k, v)| view! { <dt>{k}</dt><dd>{v}</dd> })
        .collect_view();
    let (columns, rows) = history;
    let head = columns
        .iter()
        .map(|c| view! { <th scope="col">{ctx.t(c)}</th> })
        .collect_view();
    let rows = rows
        .into_iter()
        .map(|cells| {
            let cells = cells
                .into_iter()
                .map(|c| view! { <td>{c}</td> })
                .collect_view();
            view! { <tr>{cells}</tr> }
        })
        .collect_view();
    let actions = row_view(
        ctx,
        StaffRow {
            id: 0,
            cells: Vec::new(),
            link,
            actions,
        },
    );
    let content = view! {
        <dl class="facts">{facts}</dl>
        <table class="table actions-only"><tbody>{actions}</tbody></table>
        <h2>{ctx.t("dashboard-history")}</h2>
        <div class="table-wrap">
            <table class="table">
                <thead><tr>{head}</tr></thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
    }
    .into_any();
    staff_layout(ctx, superadmin, title, content)
}

/// Today's figures and the charts on the dashboard home.
pub struct StaffHome {
    /// `(Fluent id, number, link)`.
    pub figures: Vec<(&'static str, i64, &'static str)>,
    /// `(week label, sign-ups)`, oldest first.
    pub signups: Vec<(String, i64)>,
    /// `(week label, investment requests)`, oldest first.
    pub requests: Vec<(String, i64)>,
    /// The request funnel: submitted, approved, paid, completed.
    pub funnel: Vec<(String, i64)>,
}

/// A labelled SVG bar chart; the numbers are also its accessible name.
fn bar_chart(
    ctx: &PageContext,
    id: &'static str,
    title_id: &str,
    data: &[(String, i64)],
) -> impl IntoView + use<> {
    let max = data.iter().map(|(_, n)| *n).max().unwrap_or(1).max(1);
    let bars = data
        .iter()
        .enumerate()
        .map(|(i, (label, n))| {
            let h = n * 120 / max;
            let x = i as i64 * 90 + 10;
            view! {
                <g>
                    <rect x=x.to_string() y=(140 - h).to_string() width="50" height=h.to_string() fill="#0f766e"></rect>
                    <text x=(x + 25).to_string() y="160" font-size="12" text-anchor="middle" fill="#475569">{label.clone()}</text>
                    <text x=(x + 25).to_string() y=(134 - h).to_string() font-size="12" text-anchor="middle" fill="#0f1b2d">{*n}</text>
                </g>
            }
        })
        .collect_view();
    let summary = data
        .iter()
        .map(|(w, n)| format!("{w}: {n}"))
        .collect::<Vec<_>>()
        .join(", ");
    let width = (data.len() as i64 * 90 + 20).max(100);
    let empty = data
        .is_empty()
        .then(|| view! { <p class="empty-state">{ctx.t("dashboard-empty")}</p> });
    view! {
        <section aria-labelledby=id>
            <h2 id=id>{ctx.t(title_id)}</h2>
            {empty}
            <svg class="chart" viewBox=format!("0 0 {width} 170") role="img" aria-label=summary font-family="system-ui, sans-serif">{bars}</svg>
        </section>
    }
}

pub fn staff_home_page(ctx: &PageContext, superadmin: bool, home: StaffHome) -> Page {
    let figures = home
        .figures
        .into_iter()
        .map(|(label, n, href)| {
            view! {
                <a class="card staff-figure" href=href>
                    <span class="stat__value">{n}</span>
                    <span class="stat__label">{ctx.t(label)}</span>
                </a>
            }
        })
        .collect_view();
    let content = view! {
        <div class="card-grid">{figures}</div>
        {bar_chart(ctx, "signups-title", "dashboard-signups-by-week", &home.signups)}
        {bar_chart(ctx, "requests-title", "dashboard-requests-by-week", &home.requests)}
        {bar_chart(ctx, "funnel-title", "dashboard-funnel", &home.funnel)}
    }
    .into_any();
    staff_layout(ctx, superadmin, ctx.t("dashboard-home"), content)
}

/// A bilingual content item as the editor shows it (FAQ entries and blog posts).
#[derive(Clone, Debug, Default)]
pub struct ContentForm {
    pub slug: String,
    pub title_tr: String,
    pub title_en: String,
    pub description_tr: String,
    pub description_en: String,
    pub body_tr: String,
    pub body_en: String,
    pub published: bool,
}

/// The editor: both languages side by side, a Markdown preview (a submit button, so no
/// JavaScript is needed), and the publish switch. `with_slug` for blog posts.
pub fn content_editor_page(
    ctx: &PageContext,
    title_id: &str,
    action: &str,
    form: &ContentForm,
    errors: &crate::forms::FieldErrors,
    with_slug: bool,
    preview: bool,
) -> Page {
    use crate::forms::{checkbox, error_summary, input, textarea_text};
    let area = |name: &'static str, label: &'static str, value: &str| {
        let error = errors.get(name);
        view! {
            <div class="field">
                <label class="field__label" for=name>{ctx.t(label)}</label>
                <textarea class="input" id=name name=name rows="10" aria-invalid=error.map(|_| "true") aria-describedby=error.map(|_| format!("{name}-error"))>{textarea_text(value)}</textarea>
                {crate::forms::error_view(ctx, name, error)}
            </div>
        }
    };
    let previews = preview.then(|| {
        let tr = crate::markdown::render(&form.body_tr);
        let en = crate::markdown::render(&form.body_en);
        view! {
            <section class="editor-preview" aria-label=ctx.t("dashboard-preview")>
                <div class="form__row">
                    <article class="prose" lang="tr"><h2>{form.title_tr.clone()}</h2><div inner_html=tr></div></article>
                    <article class="prose" lang="en"><h2>{form.title_en.clone()}</h2><div inner_html=en></div></article>
                </div>
            </section>
        }
    });
    let slug = with_slug.then(|| {
        input(
            ctx,
            errors,
            "slug",
            "dashboard-slug",
            "text",
            &form.slug,
            "off",
        )
    });
    let descriptions = with_slug.then(|| {
        view! {
            <div class="form__row">
                {input(ctx, errors, "description_tr", "dashboard-description-tr", "text", &form.description_tr, "off")}
                {input(ctx, errors, "description_en", "dashboard-description-en", "text", &form.description_en, "off")}
            </div>
        }
    });
    let content = view! {
        {error_summary(ctx, errors)}
        {previews}
        <form class="form editor" method="post" action=action.to_owned() novalidate>
            {csrf_field(ctx)}
            {slug}
            <div class="form__row">
                {input(ctx, errors, "title_tr", "dashboard-title-tr", "text", &form.title_tr, "off")}
                {input(ctx, errors, "title_en", "dashboard-title-en", "text", &form.title_en, "off")}
            </div>
            {descriptions}
            <div class="form__row">
                {area("body_tr", "dashboard-body-tr", &form.body_tr)}
                {area("body_en", "dashboard-body-en", &form.body_en)}
            </div>
            {checkbox(ctx, errors, "published", view! { {ctx.t("dashboard-published")} }.into_any(), form.published)}
            <div class="form__actions">
                <button class="button button--primary" type="submit" name="intent" value="save">{ctx.t("profile-save")}</button>
                <button class="button button--ghost" type="submit" name="intent" value="preview">{ctx.t("dashboard-preview")}</button>
            </div>
        </form>
    }
    .into_any();
    staff_layout(ctx, false, ctx.t(title_id), content)
}

/// An automatic e-mail's texts as staff edit them.
#[derive(Clone, Debug, Default)]
pub struct MailTemplateForm {
    pub subject_tr: String,
    pub subject_en: String,
    pub body_tr: String,
    pub body_en: String,
    pub enabled: bool,
}

/// `/dashboard/autoMail/{kind}`: both languages' subject and body, the on/off switch (not
/// for mails accounts need), and a preview of the mail as sent (`previews`: text per language).
pub fn mail_template_page(
    ctx: &PageContext,
    kind: &str,
    form: &MailTemplateForm,
    errors: &crate::forms::FieldErrors,
    essential: bool,
    previews: Option<(String, String)>,
) -> Page {
    use crate::forms::{checkbox, error_summary, input, textarea_text};
    let area = |name: &'static str, label: &'static str, value: &str| {
        let error = errors.get(name);
        view! {
            <div class="field">
                <label class="field__label" for=name>{ctx.t(label)}</label>
                <textarea class="input" id=name name=name rows="8" aria-invalid=error.map(|_| "true") aria-describedby=error.map(|_| format!("{name}-error"))>{textarea_text(value)}</textarea>
                {crate::forms::error_view(ctx, name, error)}
            </div>
        }
    };
    let previews = previews.map(|(tr, en)| {
        view! {
            <section class="editor-preview" aria-label=ctx.t("dashboard-preview")>
                <div class="form__row">
                    <pre class="mail-preview" lang="tr">{tr}</pre>
                    <pre class="mail-preview" lang="en">{en}</pre>
                </div>
            </section>
        }
    });
    let switch = if essential {
        view! { <p class="muted">{ctx.t("dashboard-mail-essential")}</p> }.into_any()
    } else {
        checkbox(
            ctx,
            errors,
            "enabled",
            view! { {ctx.t("dashboard-mail-enabled")} }.into_any(),
            form.enabled,
        )
        .into_any()
    };
    let content = view! {
        <p class="muted">{ctx.t("dashboard-mail-hint")}</p>
        {error_summary(ctx, errors)}
        {previews}
        <form class="form editor" method="post" action=format!("/dashboard/autoMail/{kind}") novalidate>
            {csrf_field(ctx)}
            <div class="form__row">
                {input(ctx, errors, "subject_tr", "dashboard-mail-subject-tr", "text", &form.subject_tr, "off")}
                {input(ctx, errors, "subject_en", "dashboard-mail-subject-en", "text", &form.subject_en, "off")}
            </div>
            <div class="form__row">
                {area("body_tr", "dashboard-body-tr", &form.body_tr)}
                {area("body_en", "dashboard-body-en", &form.body_en)}
            </div>
            {switch}
            <div class="form__actions">
                <button class="button button--primary" type="submit" name="intent" value="save">{ctx.t("profile-save")}</button>
                <button class="button button--ghost" type="submit" name="intent" value="preview">{ctx.t("dashboard-preview")}</button>
                <button class="button button--ghost" type="submit" name="intent" value="reset">{ctx.t("dashboard-mail-reset")}</button>
            </div>
        </form>
    }
    .into_any();
    staff_layout(
        ctx,
        false,
        format!("{} · {kind}", ctx.t("dashboard-auto-mail")),
        content,
    )
}
