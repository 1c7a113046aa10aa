//! Posted input: the one way handlers read a body. [`Form`] (urlencoded) and [`JsonBody`]
//! (the islands' API) read the body within the route's limit, check the CSRF token, refuse
//! control characters (`input_screen`) and deserialize into a typed struct; their
//! refusals are the localized 400/413/415 every other refusal gets. Multipart forms (uploads)
//! come through [`Upload`], which streams the file to disk (see [`super::upload`]).

use axum::body::Bytes;
use axum::extract::{FromRequest, Request};
use axum::http::{HeaderMap, StatusCode, header};
use serde::de::DeserializeOwned;

use super::{Ctx, csrf, input_screen};
use crate::error::AppError;
use crate::state::AppState;

pub use super::upload::{Upload, UploadForm, UploadedFile};

/// A urlencoded form whose `csrf` field matched this browser's token, deserialized into `T`
/// (repeated fields, such as checkbox groups, into `Vec`s).
pub struct Form<T>(pub T);

/// A JSON body sent with this browser's token in `X-CSRF-Token`, deserialized into `T`.
pub struct JsonBody<T>(pub T);

fn content_type(headers: &HeaderMap) -> String {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .map(|v| v.trim().to_ascii_lowercase())
        .unwrap_or_default()
}

async fn body_of(request: Request, state: &AppState) -> Result<(Ctx, HeaderMap, Bytes), AppError> {
    let ctx = request
        .extensions()
        .get::<Ctx>()
        .cloned()
        .ok_or_else(|| AppError::Internal(anyhow::anyhow!("request context missing")))?;
    let headers = request.headers().clone();
    let bytes = Bytes::from_request(request, state)
        .await
        .map_err(|rejection| AppError::rejected(rejection.status()))?;
    Ok((ctx, headers, bytes))
}

impl<T: DeserializeOwned> FromRequest<AppState> for Form<T> {
    type Rejection = AppError;

    async fn from_request(request: Request, state: &AppState) -> Result<Self, AppError> {
        let (ctx, headers, bytes) = body_of(request, state).await?;
        let kind = content_type(&headers);
        if !kind.is_empty() && kind != "application/x-www-form-urlencoded" {
            return Err(AppError::rejected(StatusCode::UNSUPPORTED_MEDIA_TYPE));
        }
        let token = form_urlencoded::parse(&bytes)
            .find(|(k, _)| k == "csrf")
            .map(|(_, v)| v.into_owned())
            .unwrap_or_default();
        csrf::verify(ctx.csrf_cookie.as_deref(), &token, &headers)?;
        input_screen::screen_form(&bytes)?;
        serde_html_form::from_bytes(&bytes)
            .map(Form)
            .map_err(|_| AppError::rejected(StatusCode::UNPROCESSABLE_ENTITY))
    }
}

impl<T: DeserializeOwned> FromRequest<AppState> for JsonBody<T> {
    type Rejection = AppError;

    async fn from_request(request: Request, state: &AppState) -> Result<Self, AppError> {
        let (ctx, headers, bytes) = body_of(request, state).await?;
        let token = headers
            .get("x-csrf-token")
            .and_then(|v| v.to_str().ok())
            .unwrap_or("");
        csrf::verify(ctx.csrf_cookie.as_deref(), token, &headers)?;
        // An empty body is simply not JSON: the API answers that with 400, as its document says.
        if !bytes.is_empty() && content_type(&headers) != "application/json" {
            return Err(AppError::rejected(StatusCode::UNSUPPORTED_MEDIA_TYPE));
        }
        input_screen::screen_json(&bytes)?;
        serde_json::from_slice(&bytes)
            .map(JsonBody)
            .map_err(|_| AppError::BadRequest("bad-request-text"))
    }
}
