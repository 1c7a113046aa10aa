//! Posted input: the one way handlers read a body. [`Form`] (urlencoded) and [`JsonBody`]
//! (the islands' API) check the CSRF token and deserialize into a typed struct; their
//! refusals are the localized 400/413/415 every other refusal gets. Multipart forms (uploads)
//! are read by [`read_multipart`].

use axum::body::Bytes;
use axum::extract::{FromRequest, Request};
use axum::http::{HeaderMap, StatusCode, header};
use serde::de::DeserializeOwned;

use super::input_screen::{control_characters, is_clean};
use super::{Ctx, csrf};
use crate::error::AppError;
use crate::state::AppState;

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
        serde_json::from_slice(&bytes)
            .map(JsonBody)
            .map_err(|_| AppError::BadRequest("bad-request-text"))
    }
}

/// Checks a multipart form's `csrf` field (multipart bodies carry it among their fields).
pub fn verify_csrf(ctx: &Ctx, fields: &FormBody, headers: &HeaderMap) -> Result<(), AppError> {
    csrf::verify(ctx.csrf_cookie.as_deref(), &fields.get("csrf"), headers)
}

/// A multipart form's text fields, as [`read_multipart`] read them.
pub struct FormBody(Vec<(String, String)>);

impl FormBody {
    /// The first value of `name`, or "".
    pub fn get(&self, name: &str) -> String {
        self.0
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.clone())
            .unwrap_or_default()
    }
}

/// A file from a multipart form; `bytes` is `Err` when the body was cut off at the route's
/// size limit.
pub struct Upload {
    pub name: String,
    pub bytes: Result<Bytes, ()>,
}

/// Reads a multipart form: its text fields, and the file posted as `file_field` if one was
/// chosen. Text with control characters is refused, as `input_screen` refuses it elsewhere.
pub async fn read_multipart(
    multipart: &mut axum::extract::Multipart,
    file_field: &str,
) -> Result<(FormBody, Option<Upload>), AppError> {
    let mut fields = Vec::new();
    let mut upload = None;
    // Refused only once the whole body is read: answering mid-body breaks the client's send.
    let mut refused = false;
    loop {
        match multipart.next_field().await {
            Ok(Some(field)) if field.name() == Some(file_field) => {
                let name = field.file_name().unwrap_or("").to_owned();
                let bytes = field.bytes().await.map_err(|_| ());
                if !name.is_empty() || bytes.as_ref().is_ok_and(|b| !b.is_empty()) {
                    upload = Some(Upload { name, bytes });
                }
            }
            Ok(Some(field)) => {
                let name = field.name().unwrap_or("").to_owned();
                let text = field.text().await.unwrap_or_default();
                refused |= !is_clean(&name) || !is_clean(&text);
                fields.push((name, text));
            }
            Ok(None) => break,
            // A body cut off at the limit: what arrived so far is all there is.
            Err(_) => {
                upload.get_or_insert(Upload {
                    name: String::new(),
                    bytes: Err(()),
                });
                break;
            }
        }
    }
    if refused {
        return Err(control_characters());
    }
    Ok((FormBody(fields), upload))
}
