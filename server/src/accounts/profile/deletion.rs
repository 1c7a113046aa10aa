//! Deleting the membership (`/profile/delete`): the password and a checkbox confirm it; the
//! personal data is erased and the row kept only as an anonymous shell (see
//! `queries::profile::erase_member`), the photo file removed and the session ended.

use axum::response::{IntoResponse, Redirect, Response};
use ortak_app::forms::FieldErrors;

use super::password::{PasswordForm, current_password_ok, has_password};
use super::{queries, refuse};
use crate::accounts::signin::clear_site_data;
use crate::error::AppError;
use crate::web::form::Form;
use crate::web::session;
use crate::web::{Ctx, Member, flash};

/// `POST /profile/delete`.
pub async fn delete(
    ctx: Ctx,
    Member(user): Member,
    Form(form): Form<PasswordForm>,
) -> Result<Response, AppError> {
    let mut errors = FieldErrors::default();
    if has_password(&ctx, user.id).await? && form.current_password.is_empty() {
        errors.add("current_password", "validation-required");
    } else if !current_password_ok(&ctx, user.id, &form.current_password).await? {
        errors.add("current_password", "profile-password-wrong");
    }
    if form.confirm.as_deref() != Some("on") {
        errors.add("confirm", "validation-required");
    }
    if !errors.is_empty() {
        return refuse(&ctx, user.id, "delete", &errors).await;
    }
    let mut tx = ctx.state().db().begin().await?;
    let image = queries::profile_image(&mut *tx, user.id).await?;
    queries::erase_member(&mut tx, user.id, &user.email, ctx.state().now()).await?;
    tx.commit().await?;
    if let Some(image) = image {
        let avatars = ctx.state().shared().data_dir.join("avatars");
        let _ = tokio::fs::remove_file(avatars.join(image)).await;
    }
    tracing::info!(user_id = user.id, "membership deleted");
    session::sign_out(ctx.session()?).await?;
    flash::success(&ctx, "profile-deleted").await?;
    Ok(clear_site_data(Redirect::to("/").into_response()))
}
