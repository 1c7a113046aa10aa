//! The request context every handler receives (locale, CSRF token, session, request id), the
//! middleware that builds it, and the one render path from a page to an HTTP response.

use std::time::Instant;

use std::net::SocketAddr;

use axum::extract::{ConnectInfo, FromRequestParts, Request, State};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{Html, IntoResponse, Response};
use ortak_app::i18n::Locale;
use ortak_app::pages::errors;
use ortak_app::shell::{Flash, Page, PageContext, Viewer, render_document};
use rand::RngCore;
use tower_sessions::Session;

use crate::accounts::session::{self, CurrentUser, Role};
use crate::csrf;
use crate::error::{AppError, ErrorMarker};
use crate::page_cache::{Key, PageCache};
use crate::router::AppState;

pub const LOCALE_COOKIE: &str = "locale";
const LOCALE_MAX_AGE: u32 = 31_536_000;
const FLASH_KEY: &str = "flash";

#[derive(Clone)]
pub struct Ctx {
    pub locale: Locale,
    /// Set when `?lang=` chose the language: the response then stores it in the cookie.
    locale_chosen: bool,
    pub path: String,
    pub query: Option<String>,
    /// The token from the cookie, if the browser sent one.
    pub csrf_cookie: Option<String>,
    /// The token forms on this page carry (the cookie's, or a new one set with the page).
    pub csrf: String,
    pub session: Option<Session>,
    /// The signed-in user, if any.
    pub user: Option<CurrentUser>,
    /// The client's address, for rate limits and the sign-in log.
    pub ip: String,
    pub request_id: String,
    state: AppState,
}

fn cookie<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .find_map(|pair| {
            let (k, v) = pair.trim().split_once('=')?;
            (k == name).then_some(v)
        })
}

fn query_param<'a>(query: Option<&'a str>, name: &str) -> Option<&'a str> {
    query?.split('&').find_map(|pair| {
        let (k, v) = pair.split_once('=')?;
        (k == name).then_some(v)
    })
}

fn new_request_id() -> String {
    let mut bytes = [0u8; 6];
    rand::rng().fill_bytes(&mut bytes);
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

impl Ctx {
    fn build(parts: &Parts, state: &AppState, request_id: String) -> Ctx {
        let query = parts.uri.query().map(str::to_owned);
        let from_query = query_param(query.as_deref(), "lang").and_then(Locale::from_code);
        let locale = from_query
            .or_else(|| cookie(&parts.headers, LOCALE_COOKIE).and_then(Locale::from_code))
            .or_else(|| {
                parts
                    .headers
                    .get(header::ACCEPT_LANGUAGE)
                    .and_then(|v| v.to_str().ok())
                    .and_then(Locale::from_accept_language)
            })
            .unwrap_or_default();
        let csrf_cookie = cookie(&parts.headers, csrf::COOKIE)
            .filter(|t| {
                t.len() == 43
                    && t.bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
            })
            .map(str::to_owned);
        Ctx {
            locale,
            locale_chosen: from_query.is_some(),
            path: parts.uri.path().to_owned(),
            query,
            csrf: csrf_cookie.clone().unwrap_or_else(csrf::new_token),
            csrf_cookie,
            session: parts.extensions.get::<Session>().cloned(),
            user: None,
            ip: parts
                .extensions
                .get::<ConnectInfo<SocketAddr>>()
                .map(|c| c.0.ip().to_string())
                .unwrap_or_default(),
            request_id,
            state: state.clone(),
        }
    }

    pub fn state(&self) -> &AppState {
        &self.state
    }

    pub fn t(&self, id: &str) -> String {
        self.locale.t(id)
    }

    /// The session; always present behind the session layer.
    pub fn session(&self) -> Result<&Session, AppError> {
        self.session
            .as_ref()
            .ok_or_else(|| AppError::Internal(anyhow::anyhow!("no session layer")))
    }

    async fn load_user(&mut self) -> Result<(), sqlx::Error> {
        let Some(session) = &self.session else {
            return Ok(());
        };
        if let Some(session_user) = session::session_user(session).await {
            self.user = session::load(
                self.state.db(),
                session_user,
                self.state.shared().session_max,
            )
            .await?;
            if self.user.is_none() {
                // The account was deactivated or its sessions were ended: forget this one.
                let _ = session.flush().await;
            }
        }
        Ok(())
    }

    /// Checks a submitted CSRF token (form field or header).
    pub fn verify_csrf(&self, submitted: &str, headers: &HeaderMap) -> Result<(), AppError> {
        csrf::verify(self.csrf_cookie.as_deref(), submitted, headers)
    }

    /// Keeps a message for the next page this browser renders.
    pub async fn set_flash(&self, flash: Flash) -> Result<(), AppError> {
        if let Some(session) = &self.session {
            session
                .insert(FLASH_KEY, flash)
                .await
                .map_err(|e| anyhow::anyhow!("session: {e}"))?;
        }
        Ok(())
    }

    async fn take_flash(&self) -> Option<Flash> {
        self.session
            .as_ref()?
            .remove::<Flash>(FLASH_KEY)
            .await
            .ok()
            .flatten()
    }

    /// Renders `page` in the shell with `status`. The one way pages become responses.
    pub async fn render(&self, status: StatusCode, page: Page) -> Response {
        let flash = self.take_flash().await;
        let html = self.with_page_ctx(flash, |pc| render_document(pc, page));
        self.page_response(status, html)
    }

    /// A rendered page as the response, with this visitor's cookies.
    fn page_response(&self, status: StatusCode, html: String) -> Response {
        let mut response = (status, Html(html)).into_response();
        self.set_cookies(response.headers_mut());
        response
            .headers_mut()
            .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
        response
    }

    /// Calls `build` with the page context, for handlers that build a page.
    pub fn page_ctx<R>(&self, build: impl FnOnce(&PageContext) -> R) -> R {
        self.with_page_ctx(None, build)
    }

    fn with_page_ctx<R>(&self, flash: Option<Flash>, build: impl FnOnce(&PageContext) -> R) -> R {
        let shared = self.state.shared();
        let viewer = self.user.as_ref().map(|u| Viewer {
            first_name: u.first_name.clone(),
            last_name: u.last_name.clone(),
            position: u.position.clone(),
            avatar_url: u.profile_image.as_ref().map(|f| format!("/api/file/{f}")),
            onboarding_path: (u.role == Role::Investor && u.onboarding_step <= 5)
                .then(|| format!("/boardingFlow/{}", u.onboarding_step)),
        });
        build(&PageContext {
            locale: self.locale,
            path: &self.path,
            query: self.query.as_deref(),
            public_url: &shared.public_url,
            csrf: &self.csrf,
            viewer: viewer.as_ref(),
            flash,
            assets: &shared.assets,
            year: time::OffsetDateTime::now_utc().year(),
        })
    }

    /// A new CSRF token rides on the page whose forms carry it.
    fn set_cookies(&self, headers: &mut HeaderMap) {
        if self.csrf_cookie.is_none() {
            let secure = if self.state.shared().secure_cookies {
                "; Secure"
            } else {
                ""
            };
            let value = format!(
                "{}={}; Path=/; HttpOnly; SameSite=Lax{secure}",
                csrf::COOKIE,
                self.csrf
            );
            headers.append(header::SET_COOKIE, HeaderValue::from_str(&value).unwrap());
        }
    }

    /// `?lang=` stores the choice, whatever the response (a page, a redirect, JSON).
    fn set_locale_cookie(&self, headers: &mut HeaderMap) {
        if self.locale_chosen {
            let secure = if self.state.shared().secure_cookies {
                "; Secure"
            } else {
                ""
            };
            let value = format!(
                // Only the server reads it: HttpOnly, like every cookie of ours.
                "{LOCALE_COOKIE}={}; Path=/; Max-Age={LOCALE_MAX_AGE}; HttpOnly; SameSite=Lax{secure}",
                self.locale.code()
            );
            headers.append(header::SET_COOKIE, HeaderValue::from_str(&value).unwrap());
        }
    }

    /// The signed-in user, if their role is at least `role`.
    pub fn require(&self, role: Role) -> Result<&CurrentUser, AppError> {
        match &self.user {
            None => Err(AppError::SignInRequired),
            Some(user) if user.role >= role => Ok(user),
            Some(_) => Err(AppError::Forbidden),
        }
    }

    async fn render_error(&self, status: StatusCode, marker: &ErrorMarker) -> Response {
        let api = self.path.starts_with("/api/") || self.path.ends_with(".json");
        if status == StatusCode::UNAUTHORIZED && !api {
            // Visitors go to sign-in and come back afterwards.
            let here = match &self.query {
                Some(q) => format!("{}?{q}", self.path),
                None => self.path.clone(),
            };
            let target = format!(
                "/signin?next={}",
                ortak_app::domain::paths::encode_query(&here)
            );
            return axum::response::Redirect::to(&target).into_response();
        }
        if api {
            let message = match (status, marker.message_id) {
                (_, Some(id)) => self.t(id),
                (StatusCode::UNAUTHORIZED, _) => self.t("signin-title"),
                (StatusCode::FORBIDDEN, _) => self.t("forbidden-title"),
                (StatusCode::NOT_FOUND, _) => self.t("not-found-title"),
                _ => self.locale.t_args(
                    "server-error-text",
                    &[("id", self.request_id.as_str().into())],
                ),
            };
            let body = serde_json::json!({ "ok": false, "message": message });
            return (status, axum::Json(body)).into_response();
        }
        let page = self.page_ctx(|pc| match status {
            StatusCode::NOT_FOUND => errors::not_found(pc),
            StatusCode::FORBIDDEN => errors::forbidden(pc),
            s if s == StatusCode::BAD_REQUEST
                || (s.is_client_error() && marker.message_id.is_some()) =>
            {
                errors::bad_request(pc, marker.message_id.unwrap_or("bad-request-text"))
            }
            _ => errors::server_error(pc, &self.request_id),
        });
        self.render(status, page).await
    }
}

impl FromRequestParts<AppState> for Ctx {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, _: &AppState) -> Result<Self, Self::Rejection> {
        parts
            .extensions
            .get::<Ctx>()
            .cloned()
            .ok_or_else(|| AppError::Internal(anyhow::anyhow!("request context missing")))
    }
}

/// Builds the context, renders errors in the request's language, adds security headers and
/// writes one log line per request.
pub async fn middleware(State(state): State<AppState>, request: Request, next: Next) -> Response {
    let started = Instant::now();
    let request_id = new_request_id();
    let method = request.method().clone();
    let path = request.uri().path().to_owned();

    let (mut parts, body) = request.into_parts();
    let mut ctx = Ctx::build(&parts, &state, request_id.clone());
    if let Err(e) = ctx.load_user().await {
        tracing::error!(request_id, error = %e, "loading the signed-in user failed");
    }
    parts.extensions.insert(ctx.clone());
    let shared = state.shared();
    let anonymous = ctx.user.is_none()
        && cookie(
            &parts.headers,
            crate::router::session_cookie_name(shared.secure_cookies),
        )
        .is_none();
    let cache_key = (method == Method::GET)
        .then(|| PageCache::key(ctx.locale, &ctx.path, ctx.query.as_deref(), anonymous))
        .flatten();
    let cached = cache_key
        .as_ref()
        .and_then(|key| shared.page_cache.get(key, &ctx.csrf));
    let mut response = match cached {
        Some(html) => ctx.page_response(StatusCode::OK, html),
        None => {
            let response = next.run(Request::from_parts(parts, body)).await;
            match cache_key {
                Some(key) => keep_page(&shared.page_cache, key, &ctx.csrf, response).await,
                None => response,
            }
        }
    };
    // Whatever a successful write changed, no visitor is shown the page from before it.
    if method == Method::POST && response.status().as_u16() < 400 {
        shared.page_cache.clear();
    }
    mark_extractor_rejection(&mut response);

    if let Some(marker) = response.extensions().get::<ErrorMarker>().cloned() {
        if let Some(internal) = &marker.internal {
            tracing::error!(request_id, error = %internal, "request failed");
        }
        response = ctx.render_error(response.status(), &marker).await;
    }

    let headers = response.headers_mut();
    ctx.set_locale_cookie(headers);
    headers.insert("x-request-id", HeaderValue::from_str(&request_id).unwrap());
    tracing::info!(
        request_id,
        %method,
        path,
        status = response.status().as_u16(),
        ms = started.elapsed().as_millis() as u64,
        "request"
    );
    response
}

/// Keeps a successfully rendered public page in the cache; the response goes on unchanged.
async fn keep_page(cache: &PageCache, key: Key, token: &str, response: Response) -> Response {
    let html = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"text/html"));
    if response.status() != StatusCode::OK
        || !html
        || response.extensions().get::<ErrorMarker>().is_some()
    {
        return response;
    }
    let (parts, body) = response.into_parts();
    match axum::body::to_bytes(body, usize::MAX).await {
        Ok(bytes) => {
            if let Ok(text) = std::str::from_utf8(&bytes) {
                cache.put(key, text, token);
            }
            Response::from_parts(parts, axum::body::Body::from(bytes))
        }
        Err(e) => {
            tracing::error!(error = %e, "reading a rendered page failed");
            StatusCode::INTERNAL_SERVER_ERROR.into_response()
        }
    }
}

/// axum's extractors refuse bodies (too large, wrong content type, malformed) with a plain
/// English text; mark those so they are rendered like our own refusals, localized.
fn mark_extractor_rejection(response: &mut Response) {
    let plain = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"text/plain"));
    let status = response.status();
    if !plain || !status.is_client_error() || response.extensions().get::<ErrorMarker>().is_some() {
        return;
    }
    response.extensions_mut().insert(ErrorMarker {
        message_id: Some(AppError::rejection_message(status)),
        internal: None,
    });
}

const CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; \
font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; \
frame-ancestors 'none'";

/// The outermost layer: every response, including the session store's failures and the
/// timeout's 408, carries the security headers.
pub async fn security_headers_middleware(
    State(state): State<AppState>,
    request: Request,
    next: Next,
) -> Response {
    let mut response = next.run(request).await;
    security_headers(response.headers_mut(), state.shared().secure_cookies);
    response
}

fn security_headers(headers: &mut HeaderMap, https: bool) {
    // Stored files set a stricter policy of their own.
    if !headers.contains_key(header::CONTENT_SECURITY_POLICY) {
        headers.insert(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(CSP),
        );
    }
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("strict-origin-when-cross-origin"),
    );
    headers.insert(
        "cross-origin-opener-policy",
        HeaderValue::from_static("same-origin"),
    );
    headers.insert(
        "permissions-policy",
        HeaderValue::from_static("camera=(), microphone=(), geolocation=(), payment=(self)"),
    );
    if https {
        headers.insert(
            header::STRICT_TRANSPORT_SECURITY,
            HeaderValue::from_static("max-age=63072000; includeSubDomains"),
        );
    }
}
