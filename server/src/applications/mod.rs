//! The forms visitors and members send: contact, fund (GSYF) and academy applications, and
//! the startup application (`startup`). Each is stored for staff, acknowledged on screen and by
//! e-mail in the sender's language, and announced to staff by e-mail. Spam control without
//! third parties: a honeypot field and rate limits per address and per IP.

pub mod startup;

use crate::web::form::Form;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use ortak_app::domain::applications::{
    AcademyForm, ContactForm, GsyfForm, validate_academy, validate_contact, validate_gsyf,
};
use ortak_app::forms::{FieldErrors, Notice};
use ortak_app::i18n::Locale;
use ortak_app::pages::applications::{academy_page, contact_page, gsyf_page};
use ortak_app::shell::{Flash, FlashKind};
use serde::Deserialize;
use sqlx::SqliteConnection;

use crate::db::rate_limits::{self as rate_limit, Limit};
use crate::error::AppError;
use crate::mail::{Mail, enqueue};
use crate::web::session::Role;
use crate::web::{Access, Ctx, Routes};

/// Five submissions of one form per address, and twenty per IP, in fifteen minutes.
const PER_ADDRESS: Limit = Limit {
    max: 5,
    window: 15 * 60,
};
const PER_IP: Limit = Limit {
    max: 20,
    window: 15 * 60,
};

/// Fields every form carries besides its own.
#[derive(Deserialize, Default)]
#[serde(default)]
pub struct Common {
    pub csrf: String,
    /// The honeypot: people never see it, so anything in it is a bot's.
    pub fax: String,
    /// The optional newsletter consent.
    pub newsletter: Option<String>,
}

/// Checks CSRF, the honeypot and the rate limits. `Ok(Some(response))` ends the request.
async fn guard(
    ctx: &Ctx,
    headers: &HeaderMap,
    common: &Common,
    kind: &str,
    email: &str,
    back: &str,
) -> Result<Option<Response>, AppError> {
    ctx.verify_csrf(&common.csrf, headers)?;
    if !common.fax.is_empty() {
        tracing::warn!(kind, ip = %ctx.ip, "honeypot filled; submission dropped");
        ctx.set_flash(Flash {
            kind: FlashKind::Success,
            message_id: "form-received".into(),
        })
        .await?;
        return Ok(Some(Redirect::to(back).into_response()));
    }
    let mut checks = vec![(format!("form:{kind}:ip:{}", ctx.ip), PER_IP)];
    if let Ok(email) = ortak_app::domain::email::normalize_email(email) {
        checks.push((format!("form:{kind}:email:{email}"), PER_ADDRESS));
    }
    for (key, limit) in checks {
        if let Err(minutes) = rate_limit::hit(ctx.state().db(), &key, limit).await? {
            let message = ctx
                .locale
                .t_args("rate-limited", &[("minutes", minutes.into())]);
            let page = ctx.page_ctx(|pc| ortak_app::pages::errors::bad_request_text(pc, message));
            return Ok(Some(ctx.render(StatusCode::TOO_MANY_REQUESTS, page).await));
        }
    }
    Ok(None)
}

/// The sender's confirmation, staff's notice and the optional newsletter consent, in `tx`.
async fn acknowledge(
    ctx: &Ctx,
    tx: &mut SqliteConnection,
    kind: &str,
    email: &str,
    name: &str,
    newsletter: bool,
    lines: &[(&str, &str)],
) -> Result<(), AppError> {
    let home = ctx.state().shared().public_url.clone();
    enqueue(tx, &Mail::action(email, ctx.locale, name, kind, &home)).await?;
    let staff = &ctx.state().shared().staff_email;
    let subject = format!(
        "Yeni {}: {name}",
        Locale::Tr.t(&format!("{kind}-staff-label"))
    );
    enqueue(tx, &Mail::staff_notice(staff, &subject, lines)).await?;
    if newsletter {
        crate::newsletter::subscribe(tx, email, ctx.locale, kind).await?;
    }
    Ok(())
}

async fn done(ctx: &Ctx, message: &str, back: &str) -> Result<Response, AppError> {
    ctx.state().wake_mailer();
    ctx.set_flash(Flash {
        kind: FlashKind::Success,
        message_id: message.into(),
    })
    .await?;
    Ok(Redirect::to(back).into_response())
}

// ---- contact -------------------------------------------------------------------------------

/// `/contactUs`: members only (spec: shown only when signed in), prefilled from the profile.
pub async fn contact_form(ctx: Ctx) -> Result<Response, AppError> {
    let user = ctx.require(Role::Investor)?.clone();
    let (first, last, phone): (String, String, String) =
        sqlx::query_as("SELECT first_name, last_name, phone FROM users WHERE id = ?")
            .bind(user.id)
            .fetch_one(ctx.state().db())
            .await?;
    let form = ContactForm {
        name: format!("{first} {last}").trim().to_owned(),
        email: user.email,
        phone,
        ..ContactForm::default()
    };
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

pub async fn contact(
    ctx: Ctx,
    headers: HeaderMap,
    Form(post): Form<ContactPost>,
) -> Result<Response, AppError> {
    let user = ctx.require(Role::Investor)?.clone();
    if let Some(stop) = guard(
        &ctx,
        &headers,
        &post.common,
        "contact",
        &post.form.email,
        "/contactUs",
    )
    .await?
    {
        return Ok(stop);
    }
    let f = match validate_contact(&post.form) {
        Ok(f) => f,
        Err(errors) => {
            let page = ctx.page_ctx(|pc| contact_page(pc, &post.form, &errors, None));
            return Ok(ctx.render(StatusCode::UNPROCESSABLE_ENTITY, page).await);
        }
    };
    let mut tx = ctx.state().db().begin().await?;
    sqlx::query("INSERT INTO contact_messages (user_id, name, email, phone, subject, message, language) VALUES (?, ?, ?, ?, ?, ?, ?)")
        .bind(user.id)
        .bind(&f.name)
        .bind(&f.email)
        .bind(&f.phone)
        .bind(&f.subject)
        .bind(&f.message)
        .bind(ctx.locale.code())
        .execute(&mut *tx)
        .await?;
    let lines = [
        ("Ad soyad", f.name.as_str()),
        ("E-posta", &f.email),
        ("Telefon", &f.phone),
        ("Konu", &f.subject),
        ("Mesaj", &f.message),
    ];
    acknowledge(&ctx, &mut tx, "contact", &f.email, &f.name, false, &lines).await?;
    tx.commit().await?;
    done(&ctx, "contact-received", "/contactUs").await
}

// ---- GSYF ----------------------------------------------------------------------------------

pub async fn gsyf_form(ctx: Ctx) -> Result<Response, AppError> {
    let mut form = GsyfForm::default();
    if let Some(user) = &ctx.user {
        let (first, last, phone): (String, String, String) =
            sqlx::query_as("SELECT first_name, last_name, phone FROM users WHERE id = ?")
                .bind(user.id)
                .fetch_one(ctx.state().db())
                .await?;
        form = GsyfForm {
            email: user.email.clone(),
            first_name: first,
            last_name: last,
            phone,
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

pub async fn gsyf(
    ctx: Ctx,
    headers: HeaderMap,
    Form(post): Form<GsyfPost>,
) -> Result<Response, AppError> {
    if let Some(stop) = guard(
        &ctx,
        &headers,
        &post.common,
        "gsyf",
        &post.form.email,
        "/gsyf",
    )
    .await?
    {
        return Ok(stop);
    }
    let newsletter = post.common.newsletter.as_deref() == Some("on");
    let f = match validate_gsyf(&post.form) {
        Ok(f) => f,
        Err(errors) => {
            let page = ctx.page_ctx(|pc| gsyf_page(pc, &post.form, newsletter, &errors, None));
            return Ok(ctx.render(StatusCode::UNPROCESSABLE_ENTITY, page).await);
        }
    };
    let mut tx = ctx.state().db().begin().await?;
    sqlx::query(
        "INSERT INTO gsyf_applications (user_id, email, first_name, last_name, phone, fund_type, investment_range, language)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
    )
    .bind(ctx.user.as_ref().map(|u| u.id))
    .bind(&f.email)
    .bind(&f.first_name)
    .bind(&f.last_name)
    .bind(&f.phone)
    .bind(&f.fund_type)
    .bind(&f.range)
    .bind(ctx.locale.code())
    .execute(&mut *tx)
    .await?;
    let name = format!("{} {}", f.first_name, f.last_name);
    let lines = [
        ("Ad soyad", name.as_str()),
        ("E-posta", &f.email),
        ("Telefon", &f.phone),
        ("Fon türü", &f.fund_type),
        ("Aralık", &f.range),
    ];
    acknowledge(
        &ctx,
        &mut tx,
        "gsyf",
        &f.email,
        &f.first_name,
        newsletter,
        &lines,
    )
    .await?;
    tx.commit().await?;
    done(&ctx, "form-received", "/gsyf").await
}

// ---- academy -------------------------------------------------------------------------------

/// Events open for applications, `(id, title in the page's language)`.
async fn events(ctx: &Ctx) -> Result<Vec<(String, String)>, AppError> {
    let rows: Vec<(i64, String, String, String)> = sqlx::query_as(
        "SELECT id, title_tr, title_en, starts_at FROM academy_events
         WHERE published = 1 AND starts_at > strftime('%Y-%m-%dT%H:%M:%SZ', 'now') ORDER BY starts_at",
    )
    .fetch_all(ctx.state().db())
    .await?;
    Ok(rows
        .into_iter()
        .map(|(id, tr, en, starts)| {
            let date = crate::db::parse_utc(&starts)
                .map(|t| {
                    ortak_app::domain::time_fmt::format_date_long(
                        ortak_app::domain::time_fmt::istanbul_date(t),
                        ctx.locale,
                    )
                })
                .unwrap_or_default();
            (
                id.to_string(),
                format!(
                    "{} · {date}",
                    if ctx.locale == Locale::En { en } else { tr }
                ),
            )
        })
        .collect())
}

pub async fn academy_form(ctx: Ctx) -> Result<Response, AppError> {
    let events = events(&ctx).await?;
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

pub async fn academy(
    ctx: Ctx,
    headers: HeaderMap,
    Form(post): Form<AcademyPost>,
) -> Result<Response, AppError> {
    if let Some(stop) = guard(
        &ctx,
        &headers,
        &post.common,
        "academy",
        &post.form.email,
        "/academy",
    )
    .await?
    {
        return Ok(stop);
    }
    let newsletter = post.common.newsletter.as_deref() == Some("on");
    let events = events(&ctx).await?;
    let ids: Vec<String> = events.iter().map(|(id, _)| id.clone()).collect();
    let f = match validate_academy(&post.form, &ids) {
        Ok(f) => f,
        Err(errors) => {
            let page =
                ctx.page_ctx(|pc| academy_page(pc, &post.form, newsletter, &events, &errors, None));
            return Ok(ctx.render(StatusCode::UNPROCESSABLE_ENTITY, page).await);
        }
    };
    let mut tx = ctx.state().db().begin().await?;
    sqlx::query(
        "INSERT INTO academy_applications (event_id, email, name, institution, phone, city, linkedin, invested_before,
             budget, heard_from, note, language)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    )
    .bind(f.event.parse::<i64>().unwrap_or(0))
    .bind(&f.email)
    .bind(&f.name)
    .bind(&f.institution)
    .bind(&f.phone)
    .bind(&f.city)
    .bind(&f.linkedin)
    .bind(f.invested_before == "yes")
    .bind(&f.budget)
    .bind(&f.heard_from)
    .bind(&f.note)
    .bind(ctx.locale.code())
    .execute(&mut *tx)
    .await?;
    let event = events
        .iter()
        .find(|(id, _)| *id == f.event)
        .map(|(_, t)| t.as_str())
        .unwrap_or("");
    let lines = [
        ("Etkinlik", event),
        ("Ad soyad", &f.name),
        ("E-posta", &f.email),
        ("Telefon", &f.phone),
        ("Kurum", &f.institution),
        ("Not", &f.note),
    ];
    acknowledge(
        &ctx, &mut tx, "academy", &f.email, &f.name, newsletter, &lines,
    )
    .await?;
    tx.commit().await?;
    done(&ctx, "form-received", "/academy").await
}

pub fn routes() -> Vec<Routes> {
    let public = Routes::new(Access::Public)
        .get("/gsyf", gsyf_form)
        .post("/gsyf", gsyf)
        .get("/academy", academy_form)
        .post("/academy", academy)
        .get("/projectFlow/done", startup::done)
        .get("/projectFlow/1", startup::first_form)
        .post_limited(
            "/projectFlow/1",
            startup::save_first,
            startup::UPLOAD_BODY_LIMIT,
        )
        .get("/projectFlow/{step}", startup::step_form)
        .post("/projectFlow/{step}", startup::save_step);
    let member = Routes::new(Access::Member)
        .get("/contactUs", contact_form)
        .post("/contactUs", contact);
    vec![public, member]
}
