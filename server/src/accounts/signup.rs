//! Joining (`/signup`, also `/register`): the account is created, a verification link is
//! mailed and the new member is signed in at once. A taken address gets the same answer on
//! screen (no account enumeration); its owner is told by mail instead.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use ortak_app::domain::accounts::{NewAccount, SignupForm, validate_signup};
use ortak_app::forms::FieldErrors;
use ortak_app::pages::auth::signup_page;

use super::tokens::TokenKind;
use super::{limited, mail_limits, passwords, queries, token_link};
use crate::error::AppError;
use crate::mail::{Mail, enqueue};
use crate::web::Ctx;
use crate::web::form::Form;
use crate::web::session::Method;

/// `GET /signup`: the form (a signed-in member goes home).
pub async fn form(ctx: Ctx) -> Response {
    if ctx.user.is_some() {
        return Redirect::to("/").into_response();
    }
    let page = ctx.page_ctx(|pc| signup_page(pc, &SignupForm::default(), &FieldErrors::default()));
    ctx.render(StatusCode::OK, page).await
}

/// `POST /signup`.
pub async fn signup(ctx: Ctx, Form(form): Form<SignupForm>) -> Result<Response, AppError> {
    let account = match validate_signup(&form) {
        Ok(account) => account,
        Err(errors) => {
            let page = ctx.page_ctx(|pc| signup_page(pc, &form, &errors));
            return Ok(ctx.render(StatusCode::UNPROCESSABLE_ENTITY, page).await);
        }
    };
    let hash = passwords::hash(account.password.clone()).await?;
    let mut tx = ctx.state().db().begin().await?;
    match queries::insert_member(&mut tx, &account, &hash, ctx.state().now()).await? {
        Some(user_id) => {
            let link = token_link(
                &mut tx,
                &ctx,
                user_id,
                TokenKind::Verify,
                "/verificationtoken",
            )
            .await?;
            let mail = Mail::action(
                &account.email,
                account.language,
                &account.first_name,
                "verify",
                &link,
            );
            enqueue(&mut tx, &mail).await?;
            tx.commit().await?;
            ctx.state().wake_mailer();
            ctx.sign_in(user_id, Method::SignUp).await?;
        }
        None => {
            let owner = queries::any_account(&mut tx, &account.email).await?;
            tx.commit().await?;
            tell_the_owner(&ctx, &account, owner).await?;
        }
    }
    Ok(Redirect::to("/verification").into_response())
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
        let mut tx = ctx.state().db().begin().await?;
        let link = token_link(&mut tx, ctx, owner.id, TokenKind::Reset, "/resetpassword").await?;
        let mail = Mail::action(
            &account.email,
            owner.language,
            &owner.first_name,
            "exists",
            &link,
        );
        enqueue(&mut tx, &mail).await?;
        tx.commit().await?;
    }
    ctx.state().wake_mailer();
    Ok(())
}
