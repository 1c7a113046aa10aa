//! The one render path: a page becomes a complete HTML document in the shell, with this
//! visitor's cookies, and a response.

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use ortak_app::shell::{Flash, Page, PageContext, Viewer, render_document};

use super::session::Role;
use super::{Ctx, cookies, flash};

impl Ctx {
    /// Renders `page` in the shell with `status`. The one way pages become responses.
    pub async fn render(&self, status: StatusCode, page: Page) -> Response {
        let flash = flash::take(self).await;
        let html = self.with_page_ctx(flash, |pc| render_document(pc, page));
        self.page_response(status, html)
    }

    /// A rendered page as the response, with this visitor's cookies.
    pub fn page_response(&self, status: StatusCode, html: String) -> Response {
        let mut response = (status, Html(html)).into_response();
        // A new CSRF token rides on the page whose forms carry it.
        if self.csrf_cookie.is_none() {
            let secure = self.state().shared().secure_cookies;
            cookies::set(
                response.headers_mut(),
                cookies::build(super::csrf::COOKIE, self.csrf.clone(), None, secure),
            );
        }
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
        let shared = self.state().shared();
        let viewer = self.user.as_ref().map(|u| Viewer {
            first_name: u.first_name.clone(),
            last_name: u.last_name.clone(),
            position: u.position.clone(),
            avatar_url: u.profile_image.as_ref().map(|f| format!("/api/file/{f}")),
            onboarding_path: (u.role == Role::Investor && u.onboarding_step <= 5)
                .then(|| format!("/boardingFlow/{}", u.onboarding_step)),
        });
        // Staff see the sections their role opens, read off the route table.
        let superadmin = self
            .user
            .as_ref()
            .is_some_and(|u| u.role >= Role::SuperAdmin);
        let staff_nav: Vec<(&str, &str)> = shared
            .staff_nav
            .iter()
            .filter(|(_, _, superadmin_only)| superadmin || !superadmin_only)
            .map(|(path, label, _)| (*path, *label))
            .collect();
        build(&PageContext {
            locale: self.locale,
            path: &self.path,
            query: self.query.as_deref(),
            public_url: &shared.public_url,
            csrf: &self.csrf,
            viewer: viewer.as_ref(),
            flash,
            assets: &shared.assets,
            year: self.state().now().year(),
            staff_nav: &staff_nav,
        })
    }
}
