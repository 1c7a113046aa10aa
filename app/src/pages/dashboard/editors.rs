//! The staff editors of bilingual texts: FAQ entries and blog posts
//! (`/dashboard/faq/{id}`, `/dashboard/blogs/{id}`) and the automatic e-mails
//! (`/dashboard/autoMail/{kind}`). Both languages sit side by side, with a preview that is a
//! submit button, so no JavaScript is needed.

use leptos::prelude::*;

use super::staff_layout;
use crate::forms::{
    FieldErrors, checkbox, csrf_field, error_summary, error_view, input, textarea_text,
};
use crate::shell::{Page, PageContext};

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

/// A labelled `<textarea>` of `rows` lines with its error.
fn text_area(
    ctx: &PageContext,
    errors: &FieldErrors,
    name: &'static str,
    label: &'static str,
    value: &str,
    rows: &'static str,
) -> impl IntoView + use<> {
    let error = errors.get(name);
    view! {
        <div class="field">
            <label class="field__label" for=name>{ctx.t(label)}</label>
            <textarea class="input" id=name name=name rows=rows aria-invalid=error.map(|_| "true") aria-describedby=error.map(|_| format!("{name}-error"))>{textarea_text(value)}</textarea>
            {error_view(ctx, name, error)}
        </div>
    }
}

/// The Turkish and English bodies, side by side.
fn body_areas(
    ctx: &PageContext,
    errors: &FieldErrors,
    body_tr: &str,
    body_en: &str,
    rows: &'static str,
) -> impl IntoView + use<> {
    view! {
        <div class="form__row">
            {text_area(ctx, errors, "body_tr", "dashboard-body-tr", body_tr, rows)}
            {text_area(ctx, errors, "body_en", "dashboard-body-en", body_en, rows)}
        </div>
    }
}

/// Both languages' titles and Markdown bodies, rendered as the public page shows them.
fn content_preview(ctx: &PageContext, form: &ContentForm) -> impl IntoView + use<> {
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
}

/// A blog post's address and its two descriptions (FAQ entries have neither).
fn blog_fields(
    ctx: &PageContext,
    errors: &FieldErrors,
    form: &ContentForm,
) -> (impl IntoView + use<>, impl IntoView + use<>) {
    let slug = input(
        ctx,
        errors,
        "slug",
        "dashboard-slug",
        "text",
        &form.slug,
        "off",
    );
    let descriptions = view! {
        <div class="form__row">
            {input(ctx, errors, "description_tr", "dashboard-description-tr", "text", &form.description_tr, "off")}
            {input(ctx, errors, "description_en", "dashboard-description-en", "text", &form.description_en, "off")}
        </div>
    };
    (slug, descriptions)
}

/// The editor: both languages side by side, a Markdown preview (a submit button, so no
/// JavaScript is needed), and the publish switch. `with_slug` for blog posts.
pub fn content_editor_page(
    ctx: &PageContext,
    title_id: &str,
    action: &str,
    form: &ContentForm,
    errors: &FieldErrors,
    with_slug: bool,
    preview: bool,
) -> Page {
    let previews = preview.then(|| content_preview(ctx, form));
    let (slug, descriptions) = with_slug.then(|| blog_fields(ctx, errors, form)).unzip();
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
            {body_areas(ctx, errors, &form.body_tr, &form.body_en, "10")}
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

/// The mail as sent, in each language.
fn mail_preview(ctx: &PageContext, tr: String, en: String) -> impl IntoView + use<> {
    view! {
        <section class="editor-preview" aria-label=ctx.t("dashboard-preview")>
            <div class="form__row">
                <pre class="mail-preview" lang="tr">{tr}</pre>
                <pre class="mail-preview" lang="en">{en}</pre>
            </div>
        </section>
    }
}

/// The on/off switch, or why there is none (mails accounts need are always sent).
fn mail_switch(ctx: &PageContext, errors: &FieldErrors, enabled: bool, essential: bool) -> AnyView {
    if essential {
        view! { <p class="muted">{ctx.t("dashboard-mail-essential")}</p> }.into_any()
    } else {
        checkbox(
            ctx,
            errors,
            "enabled",
            view! { {ctx.t("dashboard-mail-enabled")} }.into_any(),
            enabled,
        )
        .into_any()
    }
}

/// `/dashboard/autoMail/{kind}`: both languages' subject and body, the on/off switch (not
/// for mails accounts need), and a preview of the mail as sent (`previews`: text per language).
pub fn mail_template_page(
    ctx: &PageContext,
    kind: &str,
    form: &MailTemplateForm,
    errors: &FieldErrors,
    essential: bool,
    previews: Option<(String, String)>,
) -> Page {
    let previews = previews.map(|(tr, en)| mail_preview(ctx, tr, en));
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
            {body_areas(ctx, errors, &form.body_tr, &form.body_en, "8")}
            {mail_switch(ctx, errors, form.enabled, essential)}
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
