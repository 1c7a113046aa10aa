//! The one render path: a page becomes a complete HTML document in the shell, with this
//! visitor's cookies, and a response.
//!
//! Caching: a page for a browser with a session (signed in, half-way through a sign-in, or
//! carrying any personal state) or one that carries a secret from its link is `no-store,
//! private`: no browser or proxy cache keeps it (shared computers, the Back button after
//! signing out). Anonymous visitors' public pages stay `no-cache`. [`private_responses`] gives
//! every other response to such a browser (JSON, redirects) the same treatment.

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use ortak_app::shell::{Flash, Page, PageContext, Viewer, render_document};

use super::session::Role;
use super::{Ctx, cookies, csrf, flash};

/// What personal responses say to caches.
pub const NO_STORE: &str = "no-store, private";

/// For a browser with a session (or a bearer token): any response that says nothing about
/// caching, or only `no-cache`, becomes `no-store, private`. Responses that chose a policy of
/// their own (hashed assets, stored files) keep it.
pub fn private_responses(ctx: &Ctx, response: &mut Response) {
    if ctx.anonymous {
        return;
    }
    let headers = response.headers_mut();
    let open = headers
        .get(header::CACHE_CONTROL)
        .is_none_or(|v| v.as_bytes() == b"no-cache");
    if open {
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(NO_STORE));
    }
}

impl Ctx {
    /// Renders `page` in the shell with `status`. The one way pages become responses.
    pub async fn render(&self, status: StatusCode, page: Page) -> Response {
        let flash = flash::take(self).await;
        let html = self.with_page_ctx(flash, |pc| render_document(pc, page));
        self.page_response(status, html)
    }

    /// Renders a page that is personal whoever opens it (it carries a token from its link, or
    /// a half-done sign-in): never stored by any cache.
    pub async fn render_private(&self, status: StatusCode, page: Page) -> Response {
        let mut response = self.render(status, page).await;
        response
            .headers_mut()
            .insert(header::CACHE_CONTROL, HeaderValue::from_static(NO_STORE));
        response
    }

    /// A rendered page as the response, with this visitor's cookies.
    pub fn page_response(&self, status: StatusCode, html: String) -> Response {
        let mut response = (status, Html(html)).into_response();
        // A new CSRF token rides on the page whose forms carry it.
        if self.csrf_cookie.is_none() {
            let secure = self.state().shared().secure_cookies;
            cookies::set(
                response.headers_mut(),
                cookies::build(csrf::cookie_name(secure), self.csrf.clone(), None, secure),
            );
        }
        let cache = if self.anonymous { "no-cache" } else { NO_STORE };
        response
            .headers_mut()
            .insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
        response
    }

    /// Calls `build` with the page context, for handlers that build a page.
    pub fn page_ctx<R>(&self, build: impl FnOnce(&PageContext) -> R) -> R {
        self.with_page_ctx(None, build)
    }

    /// The signed-in user as the header shows them.
    pub(super) fn viewer(&self) -> Option<Viewer> {
        self.user.as_ref().map(|u| Viewer {
            first_name: u.first_name.clone(),
            last_name: u.last_name.clone(),
            position: u.position.clone(),
            avatar_url: u.profile_image.as_ref().map(|f| format!("/api/file/{f}")),
            onboarding_path: (u.role == Role::Investor && u.onboarding_step <= 5)
                .then(|| format!("/boardingFlow/{}", u.onboarding_step)),
        })
    }

    pub(super) fn with_page_ctx<R>(
        &self,
        flash: Option<Flash>,
        build: impl FnOnce(&PageContext) -> R,
    ) -> R {
        self.with_page_ctx_as(flash, self.viewer().as_ref(), &self.csrf, build)
    }

    /// Calls `build` with the page context, as `viewer` with `csrf` (a shared page's
    /// placeholders, `super::shared_page`).
    pub(super) fn with_page_ctx_as<R>(
        &self,
        flash: Option<Flash>,
        viewer: Option<&Viewer>,
        csrf: &str,
        build: impl FnOnce(&PageContext) -> R,
    ) -> R {
        let shared = self.state().shared();
        // Staff see the sections they may open, read off the route table; others none.
        let user = self.user.as_ref().filter(|u| u.role >= Role::Admin);
        let staff_nav: Vec<(&str, &str)> = shared
            .staff_nav
            .iter()
            .filter(|e| {
                user.is_some_and(|u| {
                    (u.role >= Role::SuperAdmin || !e.superadmin_only)
                        && (u.committee_member || !e.committee_only)
                })
            })
            .map(|e| (e.path, e.label))
            .collect();
        build(&PageContext {
            locale: self.locale,
            path: &self.path,
            query: self.query.as_deref(),
            public_url: &shared.public_url,
            csrf,
            viewer,
            flash,
            assets: &shared.assets,
            year: self.state().now().year(),
            staff_nav: &staff_nav,
            operator: &shared.operator,
        })
    }
}
