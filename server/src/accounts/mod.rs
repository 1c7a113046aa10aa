//! Accounts: sign-up, e-mail verification, the three ways to sign in, password recovery and
//! sign-out.

pub mod admins;
pub mod api;
pub mod oidc;
pub mod onboarding;
pub mod passwords;
pub mod profile;
mod queries;
pub mod tokens;

use crate::web::form::Form;
use axum::extract::Query;
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use ortak_app::domain::accounts::{SignupForm, check_new_password, validate_signup};
use ortak_app::domain::email::normalize_email;
use ortak_app::domain::paths::local_path;
use ortak_app::forms::{FieldErrors, Notice};
use ortak_app::i18n::Locale;
use ortak_app::pages::auth::{
    SigninState, forgot_page, reset_page, signin_page, signup_page, verification_page,
};
use ortak_app::shell::{Flash, FlashKind};
use serde::Deserialize;

use self::tokens::TokenKind;
use crate::db::rate_limits::{self as rate_limit, Limit};
use crate::error::AppError;
use crate::mail::{Mail, enqueue};
use crate::web::session::{self, Method};
use crate::web::{Access, Ctx, Routes};

async fn limited(ctx: &Ctx, checks: &[(String, Limit)]) -> Result<Option<i64>, AppError> {
    for (key, limit) in checks {
        if let Err(minutes) = rate_limit::hit(ctx.state().db(), key, *limit).await? {
            tracing::warn!(key, "rate limited");
            return Ok(Some(minutes));
        }
    }
    Ok(None)
}

fn rate_limited(ctx: &Ctx, minutes: i64) -> String {
    ctx.locale
        .t_args("rate-limited", &[("minutes", minutes.into())])
}

fn flash(message_id: &str) -> Flash {
    Flash {
        kind: FlashKind::Success,
        message_id: message_id.to_owned(),
    }
}

fn link(ctx: &Ctx, path: &str, token: &str) -> String {
    format!("{}{path}?token={token}", ctx.state().shared().public_url)
}

// ---- sign-up -------------------------------------------------------------------------------

pub async fn signup_form(ctx: Ctx) -> Response {
    if ctx.user.is_some() {
        return Redirect::to("/").into_response();
    }
    let page = ctx.page_ctx(|pc| signup_page(pc, &SignupForm::default(), &FieldErrors::default()));
    ctx.render(StatusCode::OK, page).await
}

pub async fn signup(ctx: Ctx, Form(form): Form<SignupForm>) -> Result<Response, AppError> {
    let account = match validate_signup(&form) {
        Ok(account) => account,
        Err(errors) => {
            let page = ctx.page_ctx(|pc| signup_page(pc, &form, &errors));
            return Ok(ctx.render(StatusCode::UNPROCESSABLE_ENTITY, page).await);
        }
    };
    let hash = passwords::hash(account.password.clone()).await?;
    let db = ctx.state().db();
    let mut tx = db.begin().await?;
    let created: Option<i64> = sqlx::query_scalar(
        "INSERT INTO users (email, password_hash, first_name, last_name, phone, country, city, language,
                            investor_type, terms_accepted_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
         ON CONFLICT (email) DO NOTHING RETURNING id",
    )
    .bind(&account.email)
    .bind(hash)
    .bind(&account.first_name)
    .bind(&account.last_name)
    .bind(&account.phone)
    .bind(&account.country)
    .bind(&account.city)
    .bind(account.language.code())
    .bind(account.investor_type.code())
    .fetch_optional(&mut *tx)
    .await?;
    match created {
        Some(user_id) => {
            let token = tokens::issue(&mut tx, user_id, TokenKind::Verify).await?;
            let mail = Mail::action(
                &account.email,
                account.language,
                &account.first_name,
                "verify",
                &link(&ctx, "/verificationtoken", &token),
            );
            enqueue(&mut tx, &mail).await?;
            tx.commit().await?;
            ctx.state().wake_mailer();
            ctx.sign_in(user_id, Method::SignUp).await?;
        }
        None => {
            // The address is taken. Say nothing different on screen (no account enumeration);
            // tell the owner by mail instead.
            let (user_id, name, language): (i64, String, String) =
                sqlx::query_as("SELECT id, first_name, language FROM users WHERE email = ?")
                    .bind(&account.email)
                    .fetch_one(&mut *tx)
                    .await?;
            tx.commit().await?;
            // Limited like every other mail to an address, so repeating cannot flood it.
            let checks = [(
                format!("mail:account:{}", account.email),
                rate_limit::MAIL_PER_ACCOUNT,
            )];
            if limited(&ctx, &checks).await?.is_none() {
                let mut tx = db.begin().await?;
                let locale = Locale::from_code(&language).unwrap_or_default();
                let token = tokens::issue(&mut tx, user_id, TokenKind::Reset).await?;
                let link = link(&ctx, "/resetpassword", &token);
                enqueue(
                    &mut tx,
                    &Mail::action(&account.email, locale, &name, "exists", &link),
                )
                .await?;
                tx.commit().await?;
            }
            ctx.state().wake_mailer();
        }
    }
    Ok(Redirect::to("/verification").into_response())
}

// ---- verification --------------------------------------------------------------------------

pub async fn verification(ctx: Ctx) -> Response {
    let signed_in_unverified = ctx.user.as_ref().is_some_and(|u| !u.verified);
    let page = ctx.page_ctx(|pc| verification_page(pc, None, signed_in_unverified));
    ctx.render(StatusCode::OK, page).await
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct CsrfOnly {
    csrf: String,
}

pub async fn resend_verification(ctx: Ctx, Form(_): Form<CsrfOnly>) -> Result<Response, AppError> {
    let Some(user) = ctx.user.clone().filter(|u| !u.verified) else {
        return Ok(Redirect::to("/").into_response());
    };
    let checks = [(
        format!("mail:account:{}", user.email),
        rate_limit::MAIL_PER_ACCOUNT,
    )];
    let (status, notice) = if let Some(minutes) = limited(&ctx, &checks).await? {
        (
            StatusCode::TOO_MANY_REQUESTS,
            Notice::Error(rate_limited(&ctx, minutes)),
        )
    } else {
        let mut tx = ctx.state().db().begin().await?;
        let token = tokens::issue(&mut tx, user.id, TokenKind::Verify).await?;
        let locale = Locale::from_code(&user.language).unwrap_or_default();
        let mail = Mail::action(
            &user.email,
            locale,
            &user.first_name,
            "verify",
            &link(&ctx, "/verificationtoken", &token),
        );
        enqueue(&mut tx, &mail).await?;
        tx.commit().await?;
        ctx.state().wake_mailer();
        (StatusCode::OK, Notice::Success(ctx.t("verification-sent")))
    };
    let page = ctx.page_ctx(|pc| verification_page(pc, Some(notice), true));
    Ok(ctx.render(status, page).await)
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct TokenQuery {
    token: String,
}

pub async fn verify_token(ctx: Ctx, Query(query): Query<TokenQuery>) -> Result<Response, AppError> {
    let db = ctx.state().db();
    let mut tx = db.begin().await?;
    let Some(user_id) = tokens::consume(&mut tx, TokenKind::Verify, &query.token).await? else {
        tx.rollback().await?;
        session::log_attempt(
            Method::VerificationLink,
            &ctx.ip,
            None,
            "invalid-or-used-token",
        );
        let notice = Notice::Error(ctx.t("verification-invalid"));
        let page = ctx.page_ctx(|pc| verification_page(pc, Some(notice), ctx.user.is_some()));
        return Ok(ctx.render(StatusCode::GONE, page).await);
    };
    sqlx::query("UPDATE users SET email_verified_at = COALESCE(email_verified_at, strftime('%Y-%m-%dT%H:%M:%SZ', 'now')) WHERE id = ?")
        .bind(user_id)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    // The link proves the mailbox, so it also signs this browser in.
    if ctx.user.as_ref().map(|u| u.id) != Some(user_id) {
        ctx.sign_in(user_id, Method::VerificationLink).await?;
    }
    ctx.set_flash(flash("verification-done")).await?;
    let next = onboarding::resume_path(db, user_id).await?;
    Ok(Redirect::to(&next).into_response())
}

// ---- sign-in -------------------------------------------------------------------------------

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct NextQuery {
    next: String,
}

pub async fn signin_form(ctx: Ctx, Query(query): Query<NextQuery>) -> Response {
    let next = local_path(&query.next).to_owned();
    if ctx.user.is_some() {
        return Redirect::to(&next).into_response();
    }
    let state = SigninState {
        next,
        oidc: ctx.state().shared().oidc.is_some(),
        ..SigninState::default()
    };
    let page = ctx.page_ctx(|pc| signin_page(pc, &state));
    ctx.render(StatusCode::OK, page).await
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct SigninForm {
    csrf: String,
    email: String,
    password: String,
    next: String,
}

pub async fn signin(ctx: Ctx, Form(form): Form<SigninForm>) -> Result<Response, AppError> {
    let next = local_path(&form.next).to_owned();
    let mut state = SigninState {
        email: form.email.clone(),
        next: next.clone(),
        oidc: ctx.state().shared().oidc.is_some(),
        ..SigninState::default()
    };
    let email = normalize_email(&form.email);
    if let Err(e) = &email {
        state.errors.add("email", e.message_id());
    }
    if form.password.is_empty() {
        state.errors.add("password", "validation-required");
    }
    let (status, notice) = match email {
        Ok(email) if !form.password.is_empty() => {
            let checks = [
                (format!("signin:ip:{}", ctx.ip), rate_limit::SIGNIN_PER_IP),
                (
                    format!("signin:account:{email}"),
                    rate_limit::SIGNIN_PER_ACCOUNT,
                ),
            ];
            if let Some(minutes) = limited(&ctx, &checks).await? {
                session::log_attempt(Method::Password, &ctx.ip, None, "rate-limited");
                (
                    StatusCode::TOO_MANY_REQUESTS,
                    Notice::Error(rate_limited(&ctx, minutes)),
                )
            } else {
                let db = ctx.state().db();
                let found: Option<(i64, Option<String>)> = sqlx::query_as(
                    "SELECT id, password_hash FROM users WHERE email = ? AND deactivated_at IS NULL",
                )
                .bind(&email)
                .fetch_optional(db)
                .await?;
                // Verify against a real hash even for unknown addresses, so timing does not
                // reveal which addresses have accounts.
                let (user_id, stored) = match found {
                    Some((id, Some(hash))) => (Some(id), hash),
                    _ => (None, passwords::DUMMY_HASH.to_owned()),
                };
                let ok =
                    passwords::verify(form.password.clone(), stored).await && user_id.is_some();
                if let (true, Some(user_id)) = (ok, user_id) {
                    ctx.sign_in(user_id, Method::Password).await?;
                    return Ok(Redirect::to(&next).into_response());
                }
                let outcome = match user_id {
                    Some(_) => "wrong-password",
                    None => "unknown-account",
                };
                session::log_attempt(Method::Password, &ctx.ip, user_id, outcome);
                (
                    StatusCode::UNPROCESSABLE_ENTITY,
                    Notice::Error(ctx.t("signin-failed")),
                )
            }
        }
        _ => {
            session::log_attempt(Method::Password, &ctx.ip, None, "incomplete-form");
            (
                StatusCode::UNPROCESSABLE_ENTITY,
                Notice::Error(ctx.t("form-has-errors")),
            )
        }
    };
    state.notice = Some(notice);
    let page = ctx.page_ctx(|pc| signin_page(pc, &state));
    Ok(ctx.render(status, page).await)
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct SigninLinkForm {
    csrf: String,
    link_email: String,
    next: String,
}

/// Mails a single-use sign-in link. The answer is the same whether or not the address has an
/// account.
pub async fn request_signin_link(
    ctx: Ctx,
    Form(form): Form<SigninLinkForm>,
) -> Result<Response, AppError> {
    let mut state = SigninState {
        link_email: form.link_email.clone(),
        next: local_path(&form.next).to_owned(),
        oidc: ctx.state().shared().oidc.is_some(),
        ..SigninState::default()
    };
    let status = match normalize_email(&form.link_email) {
        Err(e) => {
            state.errors.add("link_email", e.message_id());
            StatusCode::UNPROCESSABLE_ENTITY
        }
        Ok(email) => {
            let checks = [
                (format!("mail:ip:{}", ctx.ip), rate_limit::MAIL_PER_IP),
                (
                    format!("mail:account:{email}"),
                    rate_limit::MAIL_PER_ACCOUNT,
                ),
            ];
            if let Some(minutes) = limited(&ctx, &checks).await? {
                state.notice = Some(Notice::Error(rate_limited(&ctx, minutes)));
                StatusCode::TOO_MANY_REQUESTS
            } else {
                let mut tx = ctx.state().db().begin().await?;
                let user: Option<(i64, String, String)> = sqlx::query_as(
                    "SELECT id, first_name, language FROM users WHERE email = ? AND deactivated_at IS NULL",
                )
                .bind(&email)
                .fetch_optional(&mut *tx)
                .await?;
                if let Some((user_id, name, language)) = user {
                    let token = tokens::issue(&mut tx, user_id, TokenKind::SignIn).await?;
                    let locale = Locale::from_code(&language).unwrap_or_default();
                    let mut url = link(&ctx, "/signin/link", &token);
                    if state.next != "/" {
                        url.push_str("&next=");
                        url.push_str(&ortak_app::domain::paths::encode_query(&state.next));
                    }
                    enqueue(
                        &mut tx,
                        &Mail::action(&email, locale, &name, "signin", &url),
                    )
                    .await?;
                }
                tx.commit().await?;
                ctx.state().wake_mailer();
                state.notice = Some(Notice::Success(ctx.t("signin-link-sent")));
                state.link_email.clear();
                StatusCode::OK
            }
        }
    };
    let page = ctx.page_ctx(|pc| signin_page(pc, &state));
    Ok(ctx.render(status, page).await)
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct LinkQuery {
    token: String,
    next: String,
}

/// The e-mailed link opens a page with one button: mail scanners that follow links must not
/// use up the single-use token, so only the POST signs in.
pub async fn signin_link_page(
    ctx: Ctx,
    Query(query): Query<LinkQuery>,
) -> Result<Response, AppError> {
    let valid = tokens::peek(ctx.state().db(), TokenKind::SignIn, &query.token)
        .await?
        .is_some();
    let next = local_path(&query.next).to_owned();
    let page = ctx.page_ctx(|pc| {
        ortak_app::pages::auth::signin_link_page(pc, valid.then_some(query.token.as_str()), &next)
    });
    Ok(ctx
        .render(
            if valid {
                StatusCode::OK
            } else {
                StatusCode::GONE
            },
            page,
        )
        .await)
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct LinkForm {
    csrf: String,
    token: String,
    next: String,
}

pub async fn signin_with_link(ctx: Ctx, Form(form): Form<LinkForm>) -> Result<Response, AppError> {
    let db = ctx.state().db();
    let mut tx = db.begin().await?;
    let Some(user_id) = tokens::consume(&mut tx, TokenKind::SignIn, &form.token).await? else {
        tx.rollback().await?;
        session::log_attempt(Method::EmailedLink, &ctx.ip, None, "invalid-or-used-token");
        let page = ctx.page_ctx(|pc| ortak_app::pages::auth::signin_link_page(pc, None, "/"));
        return Ok(ctx.render(StatusCode::GONE, page).await);
    };
    // Following the link proves the mailbox.
    sqlx::query("UPDATE users SET email_verified_at = COALESCE(email_verified_at, strftime('%Y-%m-%dT%H:%M:%SZ', 'now')) WHERE id = ?")
        .bind(user_id)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    ctx.sign_in(user_id, Method::EmailedLink).await?;
    Ok(Redirect::to(local_path(&form.next)).into_response())
}

pub async fn signout(ctx: Ctx, Form(_): Form<CsrfOnly>) -> Result<Response, AppError> {
    session::sign_out(ctx.session()?).await?;
    let mut response = Redirect::to("/").into_response();
    response.headers_mut().insert(
        "clear-site-data",
        HeaderValue::from_static("\"cache\", \"storage\""),
    );
    Ok(response)
}

// ---- password recovery ---------------------------------------------------------------------

pub async fn forgot_form(ctx: Ctx) -> Response {
    let page = ctx.page_ctx(|pc| forgot_page(pc, "", &FieldErrors::default(), None));
    ctx.render(StatusCode::OK, page).await
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct ForgotForm {
    csrf: String,
    email: String,
}

pub async fn forgot(ctx: Ctx, Form(form): Form<ForgotForm>) -> Result<Response, AppError> {
    let mut errors = FieldErrors::default();
    let (status, notice) = match normalize_email(&form.email) {
        Err(e) => {
            errors.add("email", e.message_id());
            (StatusCode::UNPROCESSABLE_ENTITY, None)
        }
        Ok(email) => {
            // The spec's flow names a missing account, so this form is limited hard per IP.
            let checks = [
                (format!("mail:ip:{}", ctx.ip), rate_limit::MAIL_PER_IP),
                (
                    format!("mail:account:{email}"),
                    rate_limit::MAIL_PER_ACCOUNT,
                ),
            ];
            if let Some(minutes) = limited(&ctx, &checks).await? {
                session::log_attempt(Method::Password, &ctx.ip, None, "rate-limited");
                (
                    StatusCode::TOO_MANY_REQUESTS,
                    Some(Notice::Error(rate_limited(&ctx, minutes))),
                )
            } else {
                let mut tx = ctx.state().db().begin().await?;
                let user: Option<(i64, String, String)> = sqlx::query_as(
                    "SELECT id, first_name, language FROM users WHERE email = ? AND deactivated_at IS NULL",
                )
                .bind(&email)
                .fetch_optional(&mut *tx)
                .await?;
                match user {
                    None => {
                        errors.add("email", "forgot-no-user");
                        (StatusCode::UNPROCESSABLE_ENTITY, None)
                    }
                    Some((user_id, name, language)) => {
                        let token = tokens::issue(&mut tx, user_id, TokenKind::Reset).await?;
                        let locale = Locale::from_code(&language).unwrap_or_default();
                        let mail = Mail::action(
                            &email,
                            locale,
                            &name,
                            "reset",
                            &link(&ctx, "/resetpassword", &token),
                        );
                        let queued =
                            enqueue(&mut tx, &mail).await.is_ok() && tx.commit().await.is_ok();
                        if queued {
                            ctx.state().wake_mailer();
                            (StatusCode::OK, Some(Notice::Success(ctx.t("forgot-sent"))))
                        } else {
                            (
                                StatusCode::SERVICE_UNAVAILABLE,
                                Some(Notice::Error(ctx.t("forgot-not-sent"))),
                            )
                        }
                    }
                }
            }
        }
    };
    let page = ctx.page_ctx(|pc| forgot_page(pc, &form.email, &errors, notice));
    Ok(ctx.render(status, page).await)
}

pub async fn reset_form(ctx: Ctx, Query(query): Query<TokenQuery>) -> Result<Response, AppError> {
    let valid = tokens::peek(ctx.state().db(), TokenKind::Reset, &query.token)
        .await?
        .is_some();
    let page = ctx.page_ctx(|pc| {
        reset_page(
            pc,
            valid.then_some(query.token.as_str()),
            &FieldErrors::default(),
        )
    });
    Ok(ctx
        .render(
            if valid {
                StatusCode::OK
            } else {
                StatusCode::GONE
            },
            page,
        )
        .await)
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct ResetForm {
    csrf: String,
    token: String,
    password: String,
    password_confirm: String,
}

pub async fn reset(ctx: Ctx, Form(form): Form<ResetForm>) -> Result<Response, AppError> {
    let mut errors = FieldErrors::default();
    check_new_password(
        &mut errors,
        "password",
        "password_confirm",
        &form.password,
        &form.password_confirm,
    );
    if !errors.is_empty() {
        let valid = tokens::peek(ctx.state().db(), TokenKind::Reset, &form.token)
            .await?
            .is_some();
        let page = ctx.page_ctx(|pc| reset_page(pc, valid.then_some(form.token.as_str()), &errors));
        return Ok(ctx.render(StatusCode::UNPROCESSABLE_ENTITY, page).await);
    }
    let hash = passwords::hash(form.password.clone()).await?;
    let db = ctx.state().db();
    let mut tx = db.begin().await?;
    let Some(user_id) = tokens::consume(&mut tx, TokenKind::Reset, &form.token).await? else {
        tx.rollback().await?;
        let page = ctx.page_ctx(|pc| reset_page(pc, None, &FieldErrors::default()));
        return Ok(ctx.render(StatusCode::GONE, page).await);
    };
    // A new epoch ends every session of the user, on every device.
    sqlx::query(
        "UPDATE users SET password_hash = ?, session_epoch = session_epoch + 1,
             email_verified_at = COALESCE(email_verified_at, strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
             updated_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now')
         WHERE id = ?",
    )
    .bind(hash)
    .bind(user_id)
    .execute(&mut *tx)
    .await?;
    // Other outstanding reset and sign-in links die with the old password.
    sqlx::query("UPDATE auth_tokens SET used_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now') WHERE user_id = ? AND used_at IS NULL AND kind IN ('reset', 'signin')")
        .bind(user_id)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    tracing::info!(user_id, "password reset");
    if let Ok(session) = ctx.session() {
        session::sign_out(session).await?;
    }
    // The session was flushed, so the message rides on a new one.
    ctx.set_flash(flash("reset-done")).await?;
    Ok(Redirect::to("/signin").into_response())
}

pub fn routes() -> Vec<Routes> {
    let public = Routes::new(Access::Public)
        .get("/signup", signup_form)
        .post("/signup", signup)
        .get("/register", signup_form)
        .post("/register", signup)
        .get("/signin", signin_form)
        .post("/signin", signin)
        .get("/login", signin_form)
        .post("/login", signin)
        .get("/signin/link", signin_link_page)
        .post("/signin/link", request_signin_link)
        .post("/signin/link/use", signin_with_link)
        .get("/signin/oidc", oidc::start)
        .get("/signin/oidc/callback", oidc::callback)
        .get("/signin/oidc/terms", oidc::terms_form)
        .post("/signin/oidc/terms", oidc::accept_terms)
        .post("/logout", signout)
        .get("/verification", verification)
        .post("/verification", resend_verification)
        .get("/verificationtoken", verify_token)
        .get("/forgotpassword", forgot_form)
        .post("/forgotpassword", forgot)
        .get("/forgot-password", forgot_form)
        .post("/forgot-password", forgot)
        .get("/resetpassword", reset_form)
        .post("/resetpassword", reset);
    let member = Routes::new(Access::Member)
        .get("/boardingFlow/success", onboarding::done)
        .get("/boardingFlow/{step}", onboarding::step_form)
        .post("/boardingFlow/{step}", onboarding::save_step)
        .get("/profile", profile::page)
        .post("/profile/info", profile::save_info)
        .post("/profile/preferences", profile::save_preferences)
        .post("/profile/investor", profile::save_investor)
        .post("/profile/password", profile::change_password)
        .post_limited(
            "/profile/image",
            profile::upload_image,
            profile::IMAGE_MAX_BYTES + 64 * 1024,
        )
        .get("/profile/export", profile::export)
        .post("/profile/delete", profile::delete)
        .get("/api/file/{filename}", profile::file)
        .get("/api/getProfile", api::get_profile)
        .get("/api/getProfileImg", api::get_profile_image);
    vec![public, member]
}
