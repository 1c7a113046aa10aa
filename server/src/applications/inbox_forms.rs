//! The three forms that land in staff's inboxes: contact (`/contactUs`, open to visitors too
//! since issue 28, so anyone can reach the operator), fund
//! (`/gsyf`) and academy (`/academy`) applications. Each is screened for spam, stored, and
//! acknowledged on screen and by e-mail in the sender's language.

use axum::http::StatusCode;
use axum::response::Response;
use ortak_app::domain::applications::{
    AcademyForm, ContactForm, GsyfForm, validate_academy, validate_contact, validate_gsyf,
};
use ortak_app::domain::time_fmt::{format_date_long, istanbul_date};
use ortak_app::forms::{FieldErrors, Notice};
use ortak_app::i18n::Locale;
use ortak_app::pages::applications::{academy_page, contact_page, gsyf_page};
use serde::Deserialize;

use super::intake::{Common, Sender, acknowledge, newsletter_request, received, screen};
use super::queries;
use crate::error::AppError;
use crate::web::Ctx;
use crate::web::form::Form;

// ---- contact -------------------------------------------------------------------------------

/// `/contactUs`: for visitors, and prefilled from the profile for a member. (The spec showed it
/// to members only; issue 28 opens it: a visitor must be able to reach the operator. The
/// acknowledgement to a visitor's unproved address carries none of what was typed.)
pub async fn contact_form(ctx: Ctx) -> Result<Response, AppError> {
    let mut form = ContactForm::default();
    if let Some(user) = &ctx.user {
        let profile = queries::profile(ctx.state().db(), user.id).await?;
        form = ContactForm {
            name: format!("{} {}", profile.first_name, profile.last_name)
                .trim()
                .to_owned(),
            email: user.email.clone(),
            phone: profile.phone,
            ..form
        };
    }
    let page = ctx.page_ctx(|pc| contact_page(pc, &form, &FieldErrors::default(), None));
    Ok(ctx.render(StatusCode::OK, page).await)
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct ContactPost {
    #[serde(flatten)]
    common: Common,
    #[serde(flatten)]
    form: ContactForm,
}

pub async fn contact(ctx: Ctx, Form(post): Form<ContactPost>) -> Result<Response, AppError> {
    let back = "/contactUs";
    if let Some(stop) = screen(&ctx, &post.common.fax, "contact", &post.form.email, back).await? {
        return Ok(stop);
    }
    let f = match validate_contact(&post.form) {
        Ok(f) => f,
        Err(errors) => {
            let page = ctx.page_ctx(|pc| contact_page(pc, &post.form, &errors, None));
            return Ok(ctx.render(StatusCode::UNPROCESSABLE_ENTITY, page).await);
        }
    };
    let mut tx = crate::db::write(ctx.state().db()).await?;
    let user = ctx.user.as_ref().map(|u| u.id);
    queries::insert_contact(&mut tx, user, &f, ctx.locale.code()).await?;
    let lines = [
        ("Ad soyad", f.name.as_str()),
        ("E-posta", &f.email),
        ("Telefon", &f.phone),
        ("Konu", &f.subject),
        ("Mesaj", &f.message),
    ];
    let sender = Sender {
        kind: "contact",
        email: &f.email,
        name: &f.name,
        newsletter: false,
        lines: &lines,
    };
    acknowledge(&ctx, &mut tx, sender).await?;
    tx.commit().await?;
    received(&ctx, "contact-received", back).await
}

// ---- GSYF ----------------------------------------------------------------------------------

/// `/gsyf`: prefilled from the profile when a member is signed in.
pub async fn gsyf_form(ctx: Ctx) -> Result<Response, AppError> {
    let mut form = GsyfForm::default();
    if let Some(user) = &ctx.user {
        let profile = queries::profile(ctx.state().db(), user.id).await?;
        form = GsyfForm {
            email: user.email.clone(),
            first_name: profile.first_name,
            last_name: profile.last_name,
            phone: profile.phone,
            ..form
        };
    }
    let page = ctx.page_ctx(|pc| gsyf_page(pc, &form, false, &FieldErrors::default(), None));
    Ok(ctx.render(StatusCode::OK, page).await)
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct GsyfPost {
    #[serde(flatten)]
    common: Common,
    #[serde(flatten)]
    form: GsyfForm,
}

pub async fn gsyf(ctx: Ctx, Form(post): Form<GsyfPost>) -> Result<Response, AppError> {
    let back = "/gsyf";
    if let Some(stop) = screen(&ctx, &post.common.fax, "gsyf", &post.form.email, back).await? {
        return Ok(stop);
    }
    let newsletter = post.common.wants_newsletter();
    let f = match validate_gsyf(&post.form) {
        Ok(f) => f,
        Err(errors) => {
            let page = ctx.page_ctx(|pc| gsyf_page(pc, &post.form, newsletter, &errors, None));
            return Ok(ctx.render(StatusCode::UNPROCESSABLE_ENTITY, page).await);
        }
    };
    let newsletter = newsletter_request(&ctx, newsletter, &f.email).await?;
    let mut tx = crate::db::write(ctx.state().db()).await?;
    let user_id = ctx.user.as_ref().map(|u| u.id);
    queries::insert_gsyf(&mut tx, user_id, &f, ctx.locale.code()).await?;
    let name = format!("{} {}", f.first_name, f.last_name);
    let lines = [
        ("Ad soyad", name.as_str()),
        ("E-posta", &f.email),
        ("Telefon", &f.phone),
        ("Fon türü", &f.fund_type),
        ("Aralık", &f.range),
    ];
    let sender = Sender {
        kind: "gsyf",
        email: &f.email,
        name: &f.first_name,
        newsletter,
        lines: &lines,
    };
    acknowledge(&ctx, &mut tx, sender).await?;
    tx.commit().await?;
    received(&ctx, "form-received", back).await
}

// ---- academy -------------------------------------------------------------------------------

/// An event open for applications, as the form offers it.
struct OpenEvent {
    id: i64,
    /// Its title in the page's language and its date: "Title · 21 Kasım 2026".
    label: String,
}

async fn open_events(ctx: &Ctx) -> Result<Vec<OpenEvent>, AppError> {
    let rows = queries::open_events(ctx.state().db(), ctx.state().now()).await?;
    Ok(rows
        .into_iter()
        .map(|e| {
            let date = format_date_long(istanbul_date(e.starts_at), ctx.locale);
            let title = if ctx.locale == Locale::En {
                e.title_en
            } else {
                e.title_tr
            };
            OpenEvent {
                id: e.id,
                label: format!("{title} · {date}"),
            }
        })
        .collect())
}

/// The form's choices, `(id, label)`.
fn choices(events: &[OpenEvent]) -> Vec<(String, String)> {
    events
        .iter()
        .map(|e| (e.id.to_string(), e.label.clone()))
        .collect()
}

pub async fn academy_form(ctx: Ctx) -> Result<Response, AppError> {
    let events = choices(&open_events(&ctx).await?);
    let notice = events
        .is_empty()
        .then(|| Notice::Success(ctx.t("academy-no-events")));
    let page = ctx.page_ctx(|pc| {
        academy_page(
            pc,
            &AcademyForm::default(),
            false,
            &events,
            &FieldErrors::default(),
            notice,
        )
    });
    Ok(ctx.render(StatusCode::OK, page).await)
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct AcademyPost {
    #[serde(flatten)]
    common: Common,
    #[serde(flatten)]
    form: AcademyForm,
}

pub async fn academy(ctx: Ctx, Form(post): Form<AcademyPost>) -> Result<Response, AppError> {
    let back = "/academy";
    if let Some(stop) = screen(&ctx, &post.common.fax, "academy", &post.form.email, back).await? {
        return Ok(stop);
    }
    let newsletter = post.common.wants_newsletter();
    let events = open_events(&ctx).await?;
    let choices = choices(&events);
    let ids: Vec<String> = choices.iter().map(|(id, _)| id.clone()).collect();
    let validated = validate_academy(&post.form, &ids).map(|f| {
        // Validation accepts only the ids offered, so the event is among them.
        let event = events.iter().find(|e| e.id.to_string() == f.event);
        (f, event)
    });
    let (f, event) = match validated {
        Ok((f, Some(event))) => (f, event),
        Ok((_, None)) => return Err(AppError::BadRequest("bad-request-text")),
        Err(errors) => {
            let page = ctx
                .page_ctx(|pc| academy_page(pc, &post.form, newsletter, &choices, &errors, None));
            return Ok(ctx.render(StatusCode::UNPROCESSABLE_ENTITY, page).await);
        }
    };
    let newsletter = newsletter_request(&ctx, newsletter, &f.email).await?;
    let mut tx = crate::db::write(ctx.state().db()).await?;
    queries::insert_academy(&mut tx, event.id, &f, ctx.locale.code()).await?;
    let lines = [
        ("Etkinlik", event.label.as_str()),
        ("Ad soyad", &f.name),
        ("E-posta", &f.email),
        ("Telefon", &f.phone),
        ("Kurum", &f.institution),
        ("Not", &f.note),
    ];
    let sender = Sender {
        kind: "academy",
        email: &f.email,
        name: &f.name,
        newsletter,
        lines: &lines,
    };
    acknowledge(&ctx, &mut tx, sender).await?;
    tx.commit().await?;
    received(&ctx, "form-received", back).await
}
