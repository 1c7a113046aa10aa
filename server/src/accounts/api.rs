//! The profile calls the header makes (spec section 7). They accept the session cookie, or
//! the session's id as an `Authorization: Bearer` token for non-browser clients (the request
//! context resolves either into the signed-in member).

use axum::Json;
use serde_json::{Value, json};

use crate::error::AppError;
use crate::state::AppState;
use crate::web::Member;

/// `GET /api/getProfile`: `{"profileData": {"name", "surname", "position"}}`.
pub async fn get_profile(Member(user): Member) -> Json<Value> {
    Json(json!({
        "profileData": { "name": user.first_name, "surname": user.last_name, "position": user.position }
    }))
}

/// `GET /api/getProfileImg`: `{"filename": …}`, or 404 when the user has no image (the header
/// then shows the default avatar).
pub async fn get_profile_image(
    axum::extract::State(state): axum::extract::State<AppState>,
    Member(user): Member,
) -> Result<Json<Value>, AppError> {
    let filename = super::queries::profile::profile_image(state.db(), user.id).await?;
    filename
        .map(|f| Json(json!({ "filename": f })))
        .ok_or(AppError::NotFound)
}
