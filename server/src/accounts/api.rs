//! The profile calls the header makes (spec section 7). They accept the session cookie, or
//! the session's id as an `Authorization: Bearer` token for non-browser clients.

use std::str::FromStr;

use axum::Json;
use axum::http::{HeaderMap, header};
use serde_json::{Value, json};
use tower_sessions::SessionStore;
use tower_sessions::session::Id;

use super::session::{self, CurrentUser, SessionUser};
use crate::context::Ctx;
use crate::error::AppError;

pub async fn api_user(ctx: &Ctx, headers: &HeaderMap) -> Result<CurrentUser, AppError> {
    if let Some(user) = &ctx.user {
        return Ok(user.clone());
    }
    let bearer = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .and_then(|t| Id::from_str(t.trim()).ok())
        .ok_or(AppError::SignInRequired)?;
    let record = ctx
        .state()
        .shared()
        .sessions
        .load(&bearer)
        .await
        .map_err(|e| anyhow::anyhow!("session store: {e}"))?
        .ok_or(AppError::SignInRequired)?;
    let session_user: SessionUser = record
        .data
        .get(session::USER_KEY)
        .cloned()
        .and_then(|v| serde_json::from_value(v).ok())
        .ok_or(AppError::SignInRequired)?;
    session::load(
        ctx.state().db(),
        session_user,
        ctx.state().shared().session_max,
    )
    .await?
    .ok_or(AppError::SignInRequired)
}

/// `GET /api/getProfile`: `{"profileData": {"name", "surname", "position"}}`.
pub async fn get_profile(ctx: Ctx, headers: HeaderMap) -> Result<Json<Value>, AppError> {
    let user = api_user(&ctx, &headers).await?;
    Ok(Json(json!({
        "profileData": { "name": user.first_name, "surname": user.last_name, "position": user.position }
    })))
}

/// `GET /api/getProfileImg`: `{"filename": …}`, or 404 when the user has no image (the header
/// then shows the default avatar).
pub async fn get_profile_image(ctx: Ctx, headers: HeaderMap) -> Result<Json<Value>, AppError> {
    let user = api_user(&ctx, &headers).await?;
    let filename: Option<String> =
        sqlx::query_scalar("SELECT profile_image FROM users WHERE id = ?")
            .bind(user.id)
            .fetch_one(ctx.state().db())
            .await?;
    filename
        .map(|f| Json(json!({ "filename": f })))
        .ok_or(AppError::NotFound)
}
