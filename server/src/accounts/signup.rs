//! Joining (`/signup`, also `/register`): the account is created and a verification link is
//! mailed; nobody is signed in (the link's button does that). A taken address gets exactly the
//! same answer (the same redirect, no cookie, a password hashed all the same), and its owner is
//! told by mail instead, so sign-up tells nobody which addresses have accounts. Valid sign-ups
//! are rate limited per client address and per e-mail address.

use axum::extract::Query;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use ortak_app::domain::accounts::{NewAccount, SignupForm, validate_signup};
use ortak_app::domain::paths::local_path;
use ortak_app::forms::FieldErrors;
use ortak_app::pages::auth::{signup_page, with_next};
use serde::Deserialize;

use super::{hashing_limits, limited, mail_limits, passwords, queries};
use crate::error::AppError;
use crate::mail::{Mail, MailLink, TokenKind, enqueue};
use crate::web::Ctx;
use crate::web::form::Form;

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct NextQuery {
    next: String,
}

/// `next` when it is a path on this site (other than home), else empty.
pub(super) fn kept_next(next: &str) -> String {
    match local_path(next) {
        "/" => String::new(),
        path => path.to_owned(),
    }
}

/// `GET /signup?next=…`: the form (a signed-in member goes on to `next`, or home).
pub async fn form(ctx: Ctx, Query(query): Query<NextQuery>) -> Response {
    let next = kept_next(&query.next);
    if ctx.user.is_some() {
        return Redirect::to(if next.is_empty() { "/" } else { &next }).into_response();
    }
    let form = SignupForm {
        next,
        ..SignupForm::default()
    };
    let page = ctx.page_ctx(|pc| signup_page(pc, &form, &FieldErrors::default()));
    ctx.render(StatusCode::OK, page).await
}

/// `POST /signup`: the verification link keeps `next`, so the new member lands there once
/// their address is verified (a founder staff invited: on their startup's dashboard).
pub async fn signup(ctx: Ctx, Form(mut form): Form<SignupForm>) -> Result<Response, AppError> {
    form.next = kept_next(&form.next);
    let account = match validate_signup(&form) {
        Ok(account) => account,
        Err(errors) => {
            let page = ctx.page_ctx(|pc| signup_page(pc, &form, &errors));
            return Ok(ctx.render(StatusCode::UNPROCESSABLE_ENTITY, page).await);
        }
    };
    let checks = hashing_limits(&ctx, "signup", Some(&account.email));
    if limited(&ctx, &checks).await?.is_some() {
        let mut errors = FieldErrors::default();
        errors.add("email", "signup-rate-limited");
        let page = ctx.page_ctx(|pc| signup_page(pc, &form, &errors));
        return Ok(ctx.render(StatusCode::TOO_MANY_REQUESTS, page).await);
    }
    // Hashed whether or not the address is taken, so the answer takes as long either way.
    let hash = passwords::hash(account.password.clone()).await?;
    let mut tx = crate::db::write(ctx.state().db()).await?;
    match queries::insert_member(&mut tx, &account, &hash, ctx.state().now()).await? {
        Some(user_id) => {
            let link = MailLink {
                kind: TokenKind::Verify,
                user_id,
                next: (!form.next.is_empty()).then(|| form.next.clone()),
            };
            // The address is not proved yet: the mail carries nothing the visitor typed.
            let mail = Mail::with_link(&account.email, account.language, "", "verify", link);
            enqueue(&mut tx, &mail).await?;
            tx.commit().await?;
            ctx.state().wake_mailer();
        }
        None => {
            let owner = queries::any_account(&mut tx, &account.email).await?;
            tx.commit().await?;
            tell_the_owner(&ctx, &account, owner).await?;
        }
    }
    Ok(Redirect::to(&with_next("/verification", &form.next)).into_response())
}

/// Someone tried to join with a taken address: its owner gets a reset link (limited like every
/// other mail to an address, so repeating cannot flood it).
async fn tell_the_owner(
    ctx: &Ctx,
    account: &NewAccount,
    owner: queries::Addressee,
) -> Result<(), AppError> {
    if limited(ctx, &mail_limits(ctx, &account.email, false))
        .await?
        .is_none()
    {
        let mut tx = crate::db::write(ctx.state().db()).await?;
        let link = MailLink {
            kind: TokenKind::Reset,
            user_id: owner.id,
            next: None,
        };
        let mail = Mail::with_link(
            &account.email,
            owner.language,
            &owner.first_name,
            "exists",
            link,
        );
        enqueue(&mut tx, &mail).await?;
        tx.commit().await?;
    }
    ctx.state().wake_mailer();
    Ok(())
}
