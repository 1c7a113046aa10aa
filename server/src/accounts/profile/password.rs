//! The security tab: changing the password. Other devices are signed out and every link mailed
//! before is used up; this one signs in again under the new session epoch.

use axum::response::Response;
use ortak_app::domain::accounts::check_new_password;
use ortak_app::forms::FieldErrors;
use serde::Deserialize;

use super::{queries, refuse, saved};
use crate::accounts::{passwords, tokens};
use crate::error::AppError;
use crate::web::form::Form;
use crate::web::session::Method;
use crate::web::{Ctx, Member};

/// The password forms (change, and the deletion's confirmation).
#[derive(Deserialize, Default)]
#[serde(default)]
pub struct PasswordForm {
    pub current_password: String,
    pub password: String,
    pub password_confirm: String,
    pub confirm: Option<String>,
}

/// Whether the user has a password. A member who joined through the professional network has
/// none until they set one here.
pub(super) async fn has_password(ctx: &Ctx, user_id: i64) -> Result<bool, AppError> {
    Ok(queries::password_hash(ctx.state().db(), user_id)
        .await?
        .is_some())
}

/// Whether `password` is the user's current one (without a password the question does not
/// arise).
pub(super) async fn current_password_ok(
    ctx: &Ctx,
    user_id: i64,
    password: &str,
) -> Result<bool, AppError> {
    match queries::password_hash(ctx.state().db(), user_id).await? {
        Some(hash) => passwords::verify(password.to_owned(), hash).await,
        None => Ok(true),
    }
}

/// `POST /profile/password`.
pub async fn change(
    ctx: Ctx,
    Member(user): Member,
    Form(form): Form<PasswordForm>,
) -> Result<Response, AppError> {
    let mut errors = FieldErrors::default();
    if has_password(&ctx, user.id).await? && form.current_password.is_empty() {
        errors.add("current_password", "validation-required");
    }
    check_new_password(
        &mut errors,
        "password",
        "password_confirm",
        &form.password,
        &form.password_confirm,
    );
    if errors.is_empty() && !current_password_ok(&ctx, user.id, &form.current_password).await? {
        errors.add("current_password", "profile-password-wrong");
    }
    if !errors.is_empty() {
        return refuse(&ctx, user.id, "security", &errors).await;
    }
    let hash = passwords::hash(form.password.clone()).await?;
    let now = ctx.state().now();
    let mut tx = crate::db::write(ctx.state().db()).await?;
    queries::change_password(&mut tx, user.id, &hash, now).await?;
    // Links mailed before the change (sign-in, reset, verification) no longer work.
    tokens::revoke_all(&mut tx, user.id, now).await?;
    tx.commit().await?;
    ctx.sign_in(user.id, Method::PasswordChange, "/profile?tab=security")
        .await?;
    saved(&ctx, "profile-password-saved", "security").await
}
