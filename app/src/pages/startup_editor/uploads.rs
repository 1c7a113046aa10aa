//! The startup editor's picture and round-document upload forms.

use leptos::prelude::*;

use super::EditorExtras;
use crate::domain::round_documents::DocumentKind;
use crate::forms::{FieldErrors, csrf_field, error_view};
use crate::pages::startups::media_url;
use crate::shell::PageContext;

/// The logo and the cover: each shown as stored, with its upload form (an upload replaces it).
pub(super) fn pictures(
    ctx: &PageContext,
    id: i64,
    extras: &EditorExtras,
    errors: &FieldErrors,
) -> impl IntoView + use<> {
    let described = |kind: &str| match errors.get(kind) {
        Some(_) => format!("{kind}-hint {kind}-error"),
        None => format!("{kind}-hint"),
    };
    let forms = [("logo", &extras.logo, 96), ("cover", &extras.cover, 640)]
        .into_iter()
        .map(|(kind, stored, width)| {
            let current = match stored {
                Some(name) => view! {
                    <img class=format!("editor-picture editor-picture--{kind}") src=media_url(name, width) alt=ctx.t(&format!("dashboard-startup-{kind}")) />
                }
                .into_any(),
                None => view! { <p class="muted">{ctx.t("dashboard-startup-picture-none")}</p> }.into_any(),
            };
            view! {
                <form class="form editor-picture-form" method="post" action=format!("/dashboard/startups/{id}/images/{kind}") enctype="multipart/form-data">
                    {csrf_field(ctx)}
                    <div class="field">
                        <label class="field__label" for=kind>{ctx.t(&format!("dashboard-startup-{kind}"))}</label>
                        {current}
                        <p class="field__hint" id=format!("{kind}-hint")>{ctx.t(&format!("dashboard-startup-{kind}-hint"))}</p>
                        <input class="input" id=kind type="file" name="picture" accept="image/png,image/jpeg,image/webp" aria-describedby=described(kind) aria-invalid=errors.get(kind).map(|_| "true") />
                        {error_view(ctx, kind, errors.get(kind))}
                    </div>
                    <div class="form__actions"><button class="button button--primary" type="submit">{ctx.t("dashboard-upload")}</button></div>
                </form>
            }
        })
        .collect_view();
    view! {
        <section class="stack" aria-labelledby="pictures-title">
            <h2 id="pictures-title">{ctx.t("dashboard-startup-pictures")}</h2>
            <div class="editor-pictures">{forms}</div>
            {founder_photos(ctx, id, extras, errors)}
        </section>
    }
}

/// One photo form per saved founder (a founder is named by the form's hidden field).
fn founder_photos(
    ctx: &PageContext,
    id: i64,
    extras: &EditorExtras,
    errors: &FieldErrors,
) -> impl IntoView + use<> {
    let forms = extras
        .founders
        .iter()
        .enumerate()
        .map(|(i, (name, photo))| {
            let input = format!("founder-photo-{i}");
            let current = photo.as_ref().map(|p| {
                view! { <img class="editor-picture editor-picture--logo" src=media_url(p, 96) alt=name.clone() /> }
            });
            view! {
                <form class="form editor-picture-form" method="post" action=format!("/dashboard/startups/{id}/founders/photo") enctype="multipart/form-data">
                    {csrf_field(ctx)}
                    <input type="hidden" name="founder" value=name.clone() />
                    <div class="field">
                        <label class="field__label" for=input.clone()>{name.clone()}</label>
                        {current}
                        <input class="input" id=input type="file" name="picture" accept="image/png,image/jpeg,image/webp" />
                    </div>
                    <div class="form__actions"><button class="button button--ghost" type="submit">{ctx.t("dashboard-upload")}</button></div>
                </form>
            }
        })
        .collect_view();
    let none = extras
        .founders
        .is_empty()
        .then(|| view! { <p class="muted">{ctx.t("dashboard-startup-founder-photos-none")}</p> });
    view! {
        <h3>{ctx.t("dashboard-startup-founder-photos")}</h3>
        <p class="field__hint">{ctx.t("dashboard-startup-founder-photos-hint")}</p>
        {error_view(ctx, "founder-photo", errors.get("founder-photo"))}
        {none}
        <div class="editor-pictures">{forms}</div>
    }
}

/// The round's documents and one PDF upload form per kind (each upload is a new version).
pub(super) fn round_documents(
    ctx: &PageContext,
    id: i64,
    extras: &EditorExtras,
    errors: &FieldErrors,
) -> impl IntoView + use<> {
    let items = extras
        .documents
        .iter()
        .map(|(doc, kind, at)| {
            let href = format!("/startups/{}/documents/{doc}", extras.slug);
            view! { <li><a href=href>{ctx.t(&format!("documents-kind-{kind}"))} " · " {at.clone()}</a></li> }
        })
        .collect_view();
    let forms = DocumentKind::ALL
        .into_iter()
        .map(|kind| {
            let field = kind.field();
            let error = errors.get(field);
            let input_id = format!("document-{}", kind.code());
            view! {
                <form class="form" method="post" action=format!("/dashboard/startups/{id}/documents/{}", kind.code()) enctype="multipart/form-data" novalidate>
                    {csrf_field(ctx)}
                    <div class="field">
                        <label class="field__label" for=input_id.clone()>{ctx.t(&format!("documents-kind-{}", kind.code()))} " (PDF)"</label>
                        <input class="input" id=input_id type="file" name="document" accept="application/pdf" aria-invalid=error.map(|_| "true") aria-describedby=error.map(|_| format!("{field}-error")) />
                        {error_view(ctx, field, error)}
                    </div>
                    <div class="form__actions"><button class="button button--ghost" type="submit">{ctx.t("dashboard-upload")}</button></div>
                </form>
            }
        })
        .collect_view();
    view! {
        <section class="stack" aria-labelledby="round-documents-title">
            <h2 id="round-documents-title">{ctx.t("round-documents-title")}</h2>
            <ul>{items}</ul>
            {forms}
        </section>
    }
}
