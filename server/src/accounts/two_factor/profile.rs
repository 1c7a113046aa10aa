//! Two-factor sign-in from the profile's security tab: a member turns it on (`/profile/2fa`,
//! the enrolment page), asks for new recovery codes, or turns it off with a current code.
//! Staff cannot turn it off: for them it is required.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use ortak_app::forms::{FieldErrors, Notice};
use ortak_app::pages::two_factor::{Enrolment, enrol_page, recovery_codes_page};

use super::signin::CodeForm;
use super::{Check, check, confirm_enrolment, enrolment_view, new_recovery_codes, remove, status};
use crate::accounts::rate_limited;
use crate::error::AppError;
use crate::web::form::Form;
use crate::web::session::{self, FirstFactor, Method, Role};
use crate::web::{Ctx, Member, flash};

const SECURITY_TAB: &str = "/profile?tab=security";

async fn show_enrolment(
    ctx: &Ctx,
    user_id: i64,
    required: bool,
    status: StatusCode,
    errors: &FieldErrors,
    notice: Option<Notice>,
) -> Result<Response, AppError> {
    let (qr_svg, secret) = enrolment_view(ctx, user_id).await?;
    let enrolment = Enrolment {
        action: "/profile/2fa",
        qr_svg: &qr_svg,
        secret: &secret,
        required,
    };
    let page = ctx.page_ctx(|pc| enrol_page(pc, &enrolment, errors, notice));
    Ok(ctx.render_private(status, page).await)
}

/// `GET /profile/2fa`: the enrolment page (the security tab when already enrolled).
pub async fn enrol_form(ctx: Ctx, Member(user): Member) -> Result<Response, AppError> {
    if status(&ctx, user.id).await?.is_some() {
        return Ok(Redirect::to(SECURITY_TAB).into_response());
    }
    let required = user.role >= Role::Admin;
    show_enrolment(
        &ctx,
        user.id,
        required,
        StatusCode::OK,
        &FieldErrors::default(),
        None,
    )
    .await
}

/// `POST /profile/2fa`: the first code turns two-factor sign-in on. Every other session ends
/// (they did not give a second factor); this one goes on, now with both factors.
pub async fn enrol(
    ctx: Ctx,
    Member(user): Member,
    Form(form): Form<CodeForm>,
) -> Result<Response, AppError> {
    if status(&ctx, user.id).await?.is_some() {
        return Ok(Redirect::to(SECURITY_TAB).into_response());
    }
    let required = user.role >= Role::Admin;
    match confirm_enrolment(&ctx, user.id, &form.code).await? {
        Ok(codes) => {
            let first = FirstFactor {
                user_id: user.id,
                method: Method::SecondFactor,
                ip: &ctx.ip,
                next: SECURITY_TAB,
                second_factor_given: true,
            };
            let (db, now) = (ctx.state().db(), ctx.state().now());
            session::sign_in(db, ctx.session()?, first, now).await?;
            let page = ctx.page_ctx(|pc| {
                recovery_codes_page(pc, &codes, SECURITY_TAB, "two-factor-enrolled")
            });
            Ok(ctx.render_private(StatusCode::OK, page).await)
        }
        Err(Check::Limited(minutes)) => {
            let notice = Notice::Error(rate_limited(&ctx, minutes));
            let status = StatusCode::TOO_MANY_REQUESTS;
            let errors = FieldErrors::default();
            show_enrolment(&ctx, user.id, required, status, &errors, Some(notice)).await
        }
        Err(_) => {
            let mut errors = FieldErrors::default();
            errors.add("code", "two-factor-wrong");
            let status = StatusCode::UNPROCESSABLE_ENTITY;
            show_enrolment(&ctx, user.id, required, status, &errors, None).await
        }
    }
}

/// The security tab again with the code field's error (or a limit's notice).
async fn refuse(ctx: &Ctx, user_id: i64, outcome: Check) -> Result<Response, AppError> {
    let mut errors = FieldErrors::default();
    match outcome {
        Check::Limited(minutes) => {
            errors.add("code", "two-factor-limited");
            tracing::warn!(user_id, minutes, "second-factor codes rate limited");
        }
        _ => errors.add("code", "two-factor-wrong"),
    }
    crate::accounts::profile::refuse(ctx, user_id, "security", &errors).await
}

/// `POST /profile/2fa/recovery`: new recovery codes, given a current authenticator code.
pub async fn renew_codes(
    ctx: Ctx,
    Member(user): Member,
    Form(form): Form<CodeForm>,
) -> Result<Response, AppError> {
    if status(&ctx, user.id).await?.is_none() {
        return Ok(Redirect::to(SECURITY_TAB).into_response());
    }
    match check(&ctx, user.id, &form.code, false).await? {
        Check::Right { .. } => {
            let codes = new_recovery_codes(&ctx, user.id).await?;
            let page = ctx.page_ctx(|pc| {
                recovery_codes_page(pc, &codes, SECURITY_TAB, "two-factor-codes-renewed")
            });
            Ok(ctx.render_private(StatusCode::OK, page).await)
        }
        outcome => refuse(&ctx, user.id, outcome).await,
    }
}

/// `POST /profile/2fa/disable`: turns two-factor sign-in off, given a current code (or a
/// recovery code). Refused to staff, for whom it is required.
pub async fn disable(
    ctx: Ctx,
    Member(user): Member,
    Form(form): Form<CodeForm>,
) -> Result<Response, AppError> {
    if user.role >= Role::Admin {
        return Err(AppError::Forbidden);
    }
    if status(&ctx, user.id).await?.is_none() {
        return Ok(Redirect::to(SECURITY_TAB).into_response());
    }
    match check(&ctx, user.id, &form.code, true).await? {
        Check::Right { .. } => {
            let now = ctx.state().now();
            let mut tx = crate::db::write(ctx.state().db()).await?;
            remove(&mut tx, user.id, user.id, now).await?;
            tx.commit().await?;
            // The other sessions ended; this one goes on under the new epoch.
            let first = FirstFactor {
                user_id: user.id,
                method: Method::SecondFactor,
                ip: &ctx.ip,
                next: SECURITY_TAB,
                second_factor_given: false,
            };
            session::sign_in(ctx.state().db(), ctx.session()?, first, now).await?;
            flash::success(&ctx, "two-factor-disabled").await?;
            Ok(Redirect::to(SECURITY_TAB).into_response())
        }
        outcome => refuse(&ctx, user.id, outcome).await,
    }
}
