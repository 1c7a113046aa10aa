//! Deleting the membership (`/profile/delete`): the password and a checkbox confirm it. KVKK
//! asks to erase what the law does not require to keep. Kept: requests through which money
//! moved (fee, card payment, escrow), with their payments, transfers and history, still
//! linked to the (now anonymous) account, and the identity the member invested under, moved to
//! the restricted `kvkk_archive` (superadmins only) until [`RETENTION`] after the deletion; the
//! daily `kvkk-archive` job then erases it with the payer and card details. Erased at once:
//! everything else (see `queries::kvkk::erase`), the photo, evidence and draft files, and the
//! account's personal fields; the session ends. A member whose money is still under way
//! (a request that moved money and is not finished) cannot delete the membership until it is.
//! A mail confirms the deletion (and says what is kept); the outbox forgets it once sent.

use std::path::Path;

use axum::response::{IntoResponse, Redirect, Response};
use ortak_app::forms::FieldErrors;
use serde_json::json;

use super::super::queries::kvkk::{self, ErasedFiles};
use super::password::{PasswordForm, current_password_ok, has_password};
use super::{queries, refuse};
use crate::accounts::signin::clear_site_data;
use crate::error::AppError;
use crate::mail::{Mail, enqueue};
use crate::state::AppState;
use crate::web::form::Form;
use crate::web::session;
use crate::web::session::CurrentUser;
use crate::web::{Ctx, Member, flash};

/// How long a deleted member's investment records are kept: commercial books and their
/// documents are kept ten years (Turkish Commercial Code Art. 82, Tax Procedure Law Art. 253).
pub const RETENTION: time::Duration = time::Duration::days(3653);

/// The archived identity, as JSON.
fn identity_json(i: &kvkk::Identity) -> String {
    json!({
        "account": {
            "email": i.account_email, "first_name": i.account_first_name,
            "last_name": i.account_last_name, "phone": i.account_phone,
        },
        "mkk": i.identity_number.as_ref().map(|_| json!({
            "investor_type": i.investor_type, "turkish_citizen": i.turkish_citizen,
            "id_type": i.id_type, "identity_number": i.identity_number,
            "first_name": i.first_name, "last_name": i.last_name, "email": i.email,
            "phone": i.phone, "organisation": i.organisation, "birth_date": i.birth_date,
        })),
    })
    .to_string()
}

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
    let now = ctx.state().now();
    let mut tx = crate::db::write(ctx.state().db()).await?;
    let moved = kvkk::money_requests(&mut tx, user.id).await?;
    if moved.iter().any(|r| r.status.is_open()) {
        tx.rollback().await?;
        errors.add("confirm", "profile-delete-money-open");
        return refuse(&ctx, user.id, "delete", &errors).await;
    }
    if !moved.is_empty() {
        let identity = identity_json(&kvkk::identity(&mut tx, user.id).await?);
        kvkk::archive(&mut tx, user.id, &identity, now, now + RETENTION).await?;
    }
    let keep: Vec<i64> = moved.iter().map(|r| r.id).collect();
    let files = kvkk::erase(&mut tx, user.id, &user.email, &keep).await?;
    let image = queries::profile_image(&mut *tx, user.id).await?;
    queries::erase_member(&mut tx, user.id, &user.email, now).await?;
    // The member is told it is done; the outbox forgets the mail, and the address, once sent
    // (or given up). Without SMTP it would wait there for ever, keeping the address: not sent.
    if ctx.state().mails_leave() {
        enqueue(&mut tx, &farewell(&ctx, &user, !keep.is_empty())).await?;
    }
    tx.commit().await?;
    ctx.state().wake_mailer();
    remove_files(&ctx.state().shared().data_dir, image, &files).await;
    tracing::info!(
        user_id = user.id,
        kept_requests = keep.len(),
        "membership deleted"
    );
    session::sign_out(ctx.session()?).await?;
    flash::success(&ctx, "profile-deleted").await?;
    Ok(clear_site_data(Redirect::to("/").into_response()))
}

/// The mail that tells a member the membership is gone (and whether requests with money were
/// kept, as the law requires), forgotten with its address once sent.
fn farewell(ctx: &Ctx, user: &CurrentUser, kept: bool) -> Mail {
    let home = format!("{}/", ctx.state().shared().public_url);
    let mut mail = Mail::compose(
        &user.email,
        user.locale,
        "",
        "account-deleted",
        &home,
        user.locale.t("mail-account-deleted-subject"),
        &user.locale.t(if kept {
            "mail-account-deleted-body-kept"
        } else {
            "mail-account-deleted-body"
        }),
    );
    mail.erase_when_sent = true;
    mail
}

/// Removes the member's files once the rows naming them are gone: the profile photo, the
/// qualified-investor evidence and the applications' presentations. A file already missing is
/// no error.
async fn remove_files(data: &Path, image: Option<String>, files: &ErasedFiles) {
    let paths = image
        .map(|f| data.join("avatars").join(f))
        .into_iter()
        .chain(
            files
                .evidence
                .iter()
                .map(|f| data.join("qualified").join(f)),
        )
        .chain(
            files
                .presentations
                .iter()
                .map(|f| data.join("applications").join(f)),
        );
    for path in paths {
        let _ = tokio::fs::remove_file(path).await;
    }
}

/// The `kvkk-archive` job: erases what was kept of deleted members once its retention ended.
pub async fn expire_archive(state: &AppState) -> anyhow::Result<()> {
    let expired = kvkk::expire_archive(state.db(), state.now()).await?;
    if expired > 0 {
        tracing::info!(expired, "KVKK archive entries erased after their retention");
    }
    Ok(())
}
