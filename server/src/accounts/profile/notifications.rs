//! `POST /profile/notifications`: which optional mails the member gets. Each change is recorded
//! with its time; turning the weekly digest on is the consent Law 6563 asks for.

use axum::http::StatusCode;
use axum::response::Response;
use ortak_app::domain::notifications::MailKind;
use ortak_app::forms::FieldErrors;
use serde::Deserialize;

use super::{load, saved, show};
use crate::error::AppError;
use crate::notifications::queries::{self, Via};
use crate::web::form::Form;
use crate::web::{Ctx, Member};

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct MailsForm {
    mails: Vec<String>,
}

pub async fn save(
    ctx: Ctx,
    Member(user): Member,
    Form(f): Form<MailsForm>,
) -> Result<Response, AppError> {
    let chosen: Option<Vec<MailKind>> = f.mails.iter().map(|c| MailKind::from_code(c)).collect();
    let Some(chosen) = chosen else {
        let mut errors = FieldErrors::default();
        errors.add("mails", "validation-mail-kind");
        let mut p = load(&ctx, user.id).await?;
        p.mails = f.mails;
        let status = StatusCode::UNPROCESSABLE_ENTITY;
        return show(&ctx, user.id, status, "notifications", &p, &errors).await;
    };
    let now = ctx.state().now();
    let mut tx = crate::db::write(ctx.state().db()).await?;
    for kind in MailKind::ALL {
        let on = chosen.contains(&kind);
        queries::choose(&mut tx, user.id, kind, on, Via::Profile, now).await?;
    }
    tx.commit().await?;
    saved(&ctx, "notifications-saved", "notifications").await
}
