//! Staff pages under `/dashboard`.

use leptos::prelude::*;

use crate::domain::investing::RequestStatus;
use crate::domain::money::Money;
use crate::forms::csrf_field;
use crate::shell::{Page, PageContext};

pub struct StaffRequest {
    pub id: i64,
    pub investor: String,
    pub startup: String,
    pub amount: Money,
    pub status: RequestStatus,
}

pub fn investments_page(ctx: &PageContext, rows: Vec<StaffRequest>) -> Page {
    let empty = rows
        .is_empty()
        .then(|| view! { <p class="empty-state">{ctx.t("dashboard-investments-empty")}</p> });
    let items = rows
        .into_iter()
        .map(|r| {
            let moves = RequestStatus::ALL
                .iter()
                .filter(|to| r.status.staff_can_move_to(**to))
                .map(|to| {
                    view! {
                        <button class="button button--ghost" type="submit" name="to" value=to.code()>
                            {ctx.t(&format!("dashboard-move-{}", to.code()))}
                        </button>
                    }
                })
                .collect_view();
            let note_id = format!("note-{}", r.id);
            view! {
                <tr data-request=r.id>
                    <td>{r.id}</td>
                    <td>{r.investor}</td>
                    <td>{r.startup}</td>
                    <td class="num">{r.amount.format(ctx.locale)}</td>
                    <td>{ctx.t(&format!("request-status-{}", r.status.code()))}</td>
                    <td>
                        <form class="inline-form" method="post" action=format!("/dashboard/investments/{}/status", r.id)>
                            {csrf_field(ctx)}
                            <label class="visually-hidden" for=note_id.clone()>{ctx.t("dashboard-note")}</label>
                            <input class="input" id=note_id name="note" placeholder=ctx.t("dashboard-note") />
                            {moves}
                        </form>
                    </td>
                </tr>
            }
        })
        .collect_view();
    let body = view! {
        <section class="stack">
            <p><a class="brand" href="/"><span class="brand__mark" aria-hidden="true"></span>{ctx.t("site-name")}</a></p>
            <h1>{ctx.t("dashboard-investments-title")}</h1>
            {empty}
            <table class="table">
                <thead>
                    <tr>
                        <th scope="col">"#"</th>
                        <th scope="col">{ctx.t("dashboard-col-investor")}</th>
                        <th scope="col">{ctx.t("dashboard-col-startup")}</th>
                        <th scope="col" class="num">{ctx.t("dashboard-col-amount")}</th>
                        <th scope="col">{ctx.t("dashboard-col-status")}</th>
                        <th scope="col">{ctx.t("dashboard-col-actions")}</th>
                    </tr>
                </thead>
                <tbody>{items}</tbody>
            </table>
        </section>
    }
    .into_any();
    let mut page = Page::new(
        ctx.t("dashboard-investments-title"),
        ctx.t("dashboard-investments-title"),
        body,
    );
    page.indexable = false;
    page
}

/// The staff sections, `(path, Fluent id, superadmin only)`, in the order of the navigation.
pub const SECTIONS: [(&str, &str, bool); 12] = [
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
    ("/dashboard/users", "dashboard-users", false),
    ("/dashboard/applications", "dashboard-applications", false),
    ("/dashboard/contacts", "dashboard-contacts", false),
    ("/dashboard/gsyf", "dashboard-gsyf", false),
    ("/dashboard/academy", "dashboard-academy", false),
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
                    view! {
                        <label class="visually-hidden" for=id.clone()>{ctx.t(label)}</label>
                        <input class="input" id=id name=*name type=*kind placeholder=ctx.t(label) />
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

pub fn staff_table_page(ctx: &PageContext, superadmin: bool, table: StaffTable) -> Page {
    let empty = table
        .rows
        .is_empty()
        .then(|| view! { <p class="empty-state">{ctx.t("dashboard-empty")}</p> });
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
        .map(|r| row_view(ctx, r))
        .collect_view();
    let content = view! {
        {search}
        {create}
        {csv}
        {empty}
        <div class="table-wrap">
            <table class="table">
                <thead><tr>{head}<th scope="col">{ctx.t("dashboard-col-actions")}</th></tr></thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
    }
    .into_any();
    staff_layout(ctx, superadmin, ctx.t(table.title_id), content)
}

/// Today's figures and the weekly sign-ups on the dashboard home.
pub struct StaffHome {
    /// `(Fluent id, number, link)`.
    pub figures: Vec<(&'static str, i64, &'static str)>,
    /// `(week label, sign-ups)`, oldest first.
    pub signups: Vec<(String, i64)>,
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
    let max = home
        .signups
        .iter()
        .map(|(_, n)| *n)
        .max()
        .unwrap_or(1)
        .max(1);
    let bars = home
        .signups
        .iter()
        .enumerate()
        .map(|(i, (week, n))| {
            let h = n * 120 / max;
            let x = i as i64 * 70 + 10;
            view! {
                <g>
                    <rect x=x.to_string() y=(140 - h).to_string() width="40" height=h.to_string() fill="#0f766e"></rect>
                    <text x=(x + 20).to_string() y="160" font-size="12" text-anchor="middle" fill="#475569">{week.clone()}</text>
                    <text x=(x + 20).to_string() y=(134 - h).to_string() font-size="12" text-anchor="middle" fill="#0f1b2d">{*n}</text>
                </g>
            }
        })
        .collect_view();
    let summary = home
        .signups
        .iter()
        .map(|(w, n)| format!("{w}: {n}"))
        .collect::<Vec<_>>()
        .join(", ");
    let width = (home.signups.len() as i64 * 70 + 20).max(100);
    let content = view! {
        <div class="card-grid">{figures}</div>
        <section aria-labelledby="signups-title">
            <h2 id="signups-title">{ctx.t("dashboard-signups-by-week")}</h2>
            <svg class="chart" viewBox=format!("0 0 {width} 170") role="img" aria-label=summary font-family="system-ui, sans-serif">{bars}</svg>
        </section>
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
    use crate::forms::{checkbox, error_summary, input};
    let area = |name: &'static str, label: &'static str, value: &str| {
        let error = errors.get(name);
        view! {
            <div class="field">
                <label class="field__label" for=name>{ctx.t(label)}</label>
                <textarea class="input" id=name name=name rows="10" aria-invalid=error.map(|_| "true")>{value.to_owned()}</textarea>
                {error.map(|e| view! { <p class="field__error">{ctx.t(e)}</p> })}
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
