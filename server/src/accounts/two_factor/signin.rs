//! The second step of signing in: `/signin/2fa` asks for the authenticator's code (or a recovery
//! code) of the pending sign-in; `/signin/2fa/setup` enrols staff who have none yet, right after
//! their password. Without a pending sign-in both send the browser to `/signin`.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use ortak_app::forms::{FieldErrors, Notice};
use ortak_app::pages::auth::signin_page;
use ortak_app::pages::two_factor::{Enrolment, code_page, enrol_page, recovery_codes_page};
use serde::Deserialize;

use super::{Check, check, confirm_enrolment, enrolment_view, status};
use crate::accounts::rate_limited;
use crate::accounts::signin::state;
use crate::error::AppError;
use crate::web::Ctx;
use crate::web::form::Form;
use crate::web::session::{self, Method, PendingSignIn};

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct CodeForm {
    pub code: String,
}

/// This browser's pending sign-in, or the redirect to `/signin`.
async fn pending(ctx: &Ctx) -> Result<Result<PendingSignIn, Response>, AppError> {
    let found = session::pending(ctx.state().db(), ctx.session()?).await?;
    Ok(found.ok_or_else(|| Redirect::to("/signin").into_response()))
}

/// `GET /signin/2fa`.
pub async fn code_form(ctx: Ctx) -> Result<Response, AppError> {
    let pending = match pending(&ctx).await? {
        Ok(pending) => pending,
        Err(away) => return Ok(away),
    };
    if status(&ctx, pending.id).await?.is_none() {
        if pending.may_enrol() {
            return Ok(Redirect::to("/signin/2fa/setup").into_response());
        }
        // Staff without an authenticator came by e-mail or the professional network: that
        // alone must never let anyone choose their second factor.
        session::forget_pending(ctx.session()?).await?;
        session::log_attempt(
            pending.method,
            &ctx.ip,
            Some(pending.id),
            "enrol-needs-password",
        );
        let mut state = state(&ctx, "/".into());
        state.notice = Some(Notice::Error(ctx.t("two-factor-password-first")));
        let page = ctx.page_ctx(|pc| signin_page(pc, &state));
        return Ok(ctx.render(StatusCode::FORBIDDEN, page).await);
    }
    let page = ctx.page_ctx(|pc| code_page(pc, &FieldErrors::default(), None));
    Ok(ctx.render_private(StatusCode::OK, page).await)
}

/// `POST /signin/2fa`: a right code completes the sign-in.
pub async fn submit_code(ctx: Ctx, Form(form): Form<CodeForm>) -> Result<Response, AppError> {
    let pending = match pending(&ctx).await? {
        Ok(pending) => pending,
        Err(away) => return Ok(away),
    };
    let (status, errors, notice) = match check(&ctx, pending.id, &form.code, true).await? {
        Check::Right { recovery } => {
            if recovery {
                let outcome = "recovery-code-used";
                session::log_attempt(Method::SecondFactor, &ctx.ip, Some(pending.id), outcome);
            }
            let (db, now) = (ctx.state().db(), ctx.state().now());
            session::complete(db, ctx.session()?, &pending, &ctx.ip, now).await?;
            return Ok(Redirect::to(&pending.next).into_response());
        }
        Check::Wrong => {
            session::log_attempt(
                Method::SecondFactor,
                &ctx.ip,
                Some(pending.id),
                "wrong-code",
            );
            let mut errors = FieldErrors::default();
            errors.add("code", "two-factor-wrong");
            (StatusCode::UNPROCESSABLE_ENTITY, errors, None)
        }
        Check::Limited(minutes) => {
            session::log_attempt(
                Method::SecondFactor,
                &ctx.ip,
                Some(pending.id),
                "rate-limited",
            );
            let notice = Notice::Error(rate_limited(&ctx, minutes));
            (
                StatusCode::TOO_MANY_REQUESTS,
                FieldErrors::default(),
                Some(notice),
            )
        }
    };
    let page = ctx.page_ctx(|pc| code_page(pc, &errors, notice));
    Ok(ctx.render_private(status, page).await)
}

/// The pending sign-in of staff who may enrol now, or where to send the browser instead.
async fn enrolling(ctx: &Ctx) -> Result<Result<PendingSignIn, Response>, AppError> {
    let pending = match pending(ctx).await? {
        Ok(pending) => pending,
        Err(away) => return Ok(Err(away)),
    };
    if !pending.may_enrol() || status(ctx, pending.id).await?.is_some() {
        return Ok(Err(Redirect::to("/signin/2fa").into_response()));
    }
    Ok(Ok(pending))
}

async fn show_enrolment(
    ctx: &Ctx,
    user_id: i64,
    status: StatusCode,
    errors: &FieldErrors,
    notice: Option<Notice>,
) -> Result<Response, AppError> {
    let (qr_svg, secret) = enrolment_view(ctx, user_id).await?;
    let enrolment = Enrolment {
        action: "/signin/2fa/setup",
        qr_svg: &qr_svg,
        secret: &secret,
        required: true,
    };
    let page = ctx.page_ctx(|pc| enrol_page(pc, &enrolment, errors, notice));
    Ok(ctx.render_private(status, page).await)
}

/// `GET /signin/2fa/setup`: staff enrol an authenticator before their first session.
pub async fn setup_form(ctx: Ctx) -> Result<Response, AppError> {
    match enrolling(&ctx).await? {
        Ok(pending) => {
            show_enrolment(
                &ctx,
                pending.id,
                StatusCode::OK,
                &FieldErrors::default(),
                None,
            )
            .await
        }
        Err(away) => Ok(away),
    }
}

/// `POST /signin/2fa/setup`: the first code confirms the authenticator; the sign-in completes
/// and the recovery codes are shown once.
pub async fn setup(ctx: Ctx, Form(form): Form<CodeForm>) -> Result<Response, AppError> {
    let pending = match enrolling(&ctx).await? {
        Ok(pending) => pending,
        Err(away) => return Ok(away),
    };
    match confirm_enrolment(&ctx, pending.id, &form.code).await? {
        Ok(codes) => {
            let (db, now) = (ctx.state().db(), ctx.state().now());
            session::complete(db, ctx.session()?, &pending, &ctx.ip, now).await?;
            let page = ctx.page_ctx(|pc| {
                recovery_codes_page(pc, &codes, &pending.next, "two-factor-enrolled")
            });
            Ok(ctx.render_private(StatusCode::OK, page).await)
        }
        Err(Check::Limited(minutes)) => {
            let notice = Notice::Error(rate_limited(&ctx, minutes));
            let status = StatusCode::TOO_MANY_REQUESTS;
            show_enrolment(
                &ctx,
                pending.id,
                status,
                &FieldErrors::default(),
                Some(notice),
            )
            .await
        }
        Err(_) => {
            let mut errors = FieldErrors::default();
            errors.add("code", "two-factor-wrong");
            let status = StatusCode::UNPROCESSABLE_ENTITY;
            show_enrolment(&ctx, pending.id, status, &errors, None).await
        }
    }
}
