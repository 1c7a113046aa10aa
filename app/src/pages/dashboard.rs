//! Staff pages under `/dashboard`.

use leptos::prelude::*;

use super::staff_table::{RowAction, StaffRow, row_view};
use crate::forms::csrf_field;
use crate::shell::{Page, PageContext};

/// The staff navigation: the sections the viewer's role opens, as the server's route table
/// lists them.
pub fn staff_nav(ctx: &PageContext) -> impl IntoView + use<> {
    let links = ctx
        .staff_nav
        .iter()
        .map(|(path, label)| {
            let current = (ctx.path == *path).then_some("page");
            let path = path.to_string();
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

pub fn staff_layout(ctx: &PageContext, title: String, content: AnyView) -> Page {
    let body = view! {
        <div class="staff">
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

/// One record on its own page: its facts, then a history table (`(column ids, rows)`).
pub fn staff_detail_page(
    ctx: &PageContext,
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
    staff_layout(ctx, title, content)
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

pub fn staff_home_page(ctx: &PageContext, home: StaffHome) -> Page {
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
    staff_layout(ctx, ctx.t("dashboard-home"), content)
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
    staff_layout(ctx, ctx.t(title_id), content)
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
        format!("{} · {kind}", ctx.t("dashboard-auto-mail")),
        content,
    )
}
