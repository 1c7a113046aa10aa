//! The request context every handler receives (locale, CSRF token, session, signed-in user,
//! request id), and the middleware that builds it, renders refusals in the request's language
//! and writes one log line per request.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Instant;

use axum::extract::{ConnectInfo, FromRequestParts, Request, State};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, Method, header};
use axum::middleware::Next;
use axum::response::Response;
use ortak_app::i18n::Locale;
use tower_cookies::Cookies;
use tower_sessions::Session;

use super::client_ip::client_ip;
use super::session::{self, CurrentUser};
use super::{cookies, csrf, errors};
use crate::error::AppError;
use crate::state::AppState;

/// The request context, shared by the layers and the handler (a clone is a reference count).
#[derive(Clone)]
pub struct Ctx(Arc<Context>);

impl std::ops::Deref for Ctx {
    type Target = Context;

    fn deref(&self) -> &Context {
        &self.0
    }
}

pub struct Context {
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
    /// Nobody is signed in and the browser has no session cookie (no flash message waiting).
    pub anonymous: bool,
    /// The client's address (see `client_ip`), for rate limits and the sign-in log.
    pub ip: String,
    pub request_id: String,
    /// The request's cookies, parsed once (by the session layer, which reads its own there).
    pub cookies: Cookies,
    state: AppState,
}

fn query_param<'a>(query: Option<&'a str>, name: &str) -> Option<&'a str> {
    query?.split('&').find_map(|pair| {
        let (k, v) = pair.split_once('=')?;
        (k == name).then_some(v)
    })
}

/// Twelve random hexadecimal digits.
fn new_request_id() -> String {
    format!("{:012x}", rand::random::<u64>() >> 16)
}

impl Context {
    fn build(parts: &Parts, state: &AppState, request_id: String) -> Context {
        let query = parts.uri.query().map(str::to_owned);
        let from_query = query_param(query.as_deref(), "lang").and_then(Locale::from_code);
        let jar = parts
            .extensions
            .get::<Cookies>()
            .cloned()
            .unwrap_or_default();
        let locale = from_query
            .or_else(|| {
                cookies::get(&jar, cookies::LOCALE)
                    .as_deref()
                    .and_then(Locale::from_code)
            })
            .or_else(|| {
                parts
                    .headers
                    .get(header::ACCEPT_LANGUAGE)
                    .and_then(|v| v.to_str().ok())
                    .and_then(Locale::from_accept_language)
            })
            .unwrap_or_default();
        let secure = state.shared().secure_cookies;
        let csrf_cookie =
            cookies::get(&jar, csrf::cookie_name(secure)).filter(|t| csrf::well_formed(t));
        let has_session_cookie = jar.get(cookies::session_name(secure)).is_some();
        Context {
            locale,
            locale_chosen: from_query.is_some(),
            path: parts.uri.path().to_owned(),
            query,
            csrf: csrf_cookie.clone().unwrap_or_else(csrf::new_token),
            csrf_cookie,
            session: parts.extensions.get::<Session>().cloned(),
            user: None,
            anonymous: !has_session_cookie,
            ip: client_ip(
                parts
                    .extensions
                    .get::<ConnectInfo<SocketAddr>>()
                    .map(|c| c.0.ip()),
                &parts.headers,
                &state.shared().trusted_proxies,
            )
            .map(|ip| ip.to_string())
            .unwrap_or_default(),
            request_id,
            cookies: jar,
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

    /// The user of the browser's session or, on the JSON API only, of the session whose id
    /// comes as an `Authorization: Bearer` token (non-browser clients).
    async fn load_user(&mut self, headers: &HeaderMap) -> Result<(), sqlx::Error> {
        let Some(session) = &self.session else {
            return Ok(());
        };
        let max = self.state.shared().session_max;
        let writes = self.state.writes();
        if let Some(session_user) = session::session_user(session).await {
            self.user = session::load(self.state.db(), writes, session_user, max).await?;
            if self.user.is_none() {
                // The account was deactivated or its sessions were ended: forget this one.
                let _ = session.flush().await;
            }
        } else if self.path.starts_with("/api/") {
            let store = &self.state.shared().sessions;
            if let Some(session_user) = session::bearer_user(store, headers).await {
                self.user = session::load(self.state.db(), writes, session_user, max).await?;
            }
        }
        Ok(())
    }

    /// `?lang=` stores the choice, whatever the response (a page, a redirect, JSON).
    fn set_locale_cookie(&self, response: &mut Response) {
        if self.locale_chosen {
            let secure = self.state.shared().secure_cookies;
            cookies::set(
                response.headers_mut(),
                cookies::locale(self.locale.code(), secure),
            );
        }
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

/// Builds the context, renders errors in the request's language and writes one log line per
/// request.
pub async fn middleware(State(state): State<AppState>, request: Request, next: Next) -> Response {
    let started = Instant::now();
    let request_id = new_request_id();
    let method = request.method().clone();
    let path = request.uri().path().to_owned();

    let (mut parts, body) = request.into_parts();
    crate::db::writes::notice_outside_writes().await;
    let shared_commits = crate::db::writes::shared_commits();
    state.shared().clock.notice_move();
    let mut context = Context::build(&parts, &state, request_id.clone());
    if let Err(e) = context.load_user(&parts.headers).await {
        tracing::error!(request_id, error = %e, "loading the signed-in user failed");
    }
    context.anonymous &= context.user.is_none();
    let ctx = Ctx(Arc::new(context));
    parts.extensions.insert(ctx.clone());
    let mut response = next.run(Request::from_parts(parts, body)).await;
    // What is kept in memory is not used across a write (`db::writes`): count again once a
    // request that may have written is over, whatever it answered (a POST can commit and
    // then fail), so its author's next request never meets what was kept before it. (A GET
    // that writes says so itself.)
    if !matches!(method, Method::GET | Method::HEAD) {
        crate::db::writes::settle(shared_commits);
    }
    response = errors::localize(&ctx, response).await;
    ctx.set_locale_cookie(&mut response);
    super::render::private_responses(&ctx, &mut response);
    response
        .headers_mut()
        .insert("x-request-id", HeaderValue::from_str(&request_id).unwrap());
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
