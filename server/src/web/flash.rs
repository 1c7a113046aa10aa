//! One-time messages carried across a redirect in the session.

use axum::response::{IntoResponse, Redirect, Response};
use ortak_app::shell::{Flash, FlashKind};

use super::Ctx;
use crate::error::AppError;

const KEY: &str = "flash";

/// Keeps a message for the next page this browser renders.
pub async fn set(ctx: &Ctx, flash: Flash) -> Result<(), AppError> {
    if let Some(session) = &ctx.session {
        session
            .insert(KEY, flash)
            .await
            .map_err(|e| anyhow::anyhow!("session: {e}"))?;
    }
    Ok(())
}

/// A success message (`message_id`) for the next page.
pub async fn success(ctx: &Ctx, message_id: &str) -> Result<(), AppError> {
    set(
        ctx,
        Flash {
            kind: FlashKind::Success,
            message_id: message_id.to_owned(),
        },
    )
    .await
}

/// An error message (`message_id`) for the next page.
pub async fn error(ctx: &Ctx, message_id: &str) -> Result<(), AppError> {
    set(
        ctx,
        Flash {
            kind: FlashKind::Error,
            message_id: message_id.to_owned(),
        },
    )
    .await
}

/// Says "done" and goes to `back`: the end of most staff actions.
pub async fn done(ctx: &Ctx, back: &str) -> Result<Response, AppError> {
    success(ctx, "dashboard-done").await?;
    Ok(Redirect::to(back).into_response())
}

pub(super) async fn take(ctx: &Ctx) -> Option<Flash> {
    ctx.session
        .as_ref()?
        .remove::<Flash>(KEY)
        .await
        .ok()
        .flatten()
}
