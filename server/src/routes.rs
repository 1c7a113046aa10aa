//! Every route of the platform, and the layers around them. Areas declare their routes with
//! their access level (`web::Routes`); this module only puts them together, in the order the
//! staff navigation shows its sections.

use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::{DefaultBodyLimit, Request, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use tower::ServiceBuilder;
use tower_sessions::cookie::SameSite;
use tower_sessions::{Expiry, SessionManagerLayer};

use crate::error::AppError;
use crate::state::AppState;
use crate::web::list_cache::ListCache;
use crate::web::page_cache::PageCache;
use crate::web::routes::RouteInfo;
use crate::web::{
    Access, Ctx, Routes, assets, cookies, ctx, headers, input_screen, list_cache, metrics,
    page_cache,
};
use crate::{
    accounts, applications, campaigns, content, db, documents, fund, investing, newsletter,
    notifications, payments, questions, staff, startups,
};

/// Every area's routes.
fn areas() -> Vec<Routes> {
    let mut all = vec![
        Routes::new(Access::Public)
            .get("/", home)
            .get("/healthz", health)
            .get("/metrics", metrics::scrape),
    ];
    all.extend(content::routes());
    all.extend(newsletter::routes());
    all.extend(notifications::routes());
    all.extend(accounts::routes());
    all.extend(startups::routes());
    all.extend(questions::routes());
    all.extend(documents::routes());
    all.extend(investing::routes());
    all.extend(payments::routes());
    all.extend(applications::routes());
    all.extend(fund::routes());
    all.extend(campaigns::routes());
    all.extend(staff::routes());
    all
}

/// The route table: every method and path with its access level.
pub fn table() -> Vec<RouteInfo> {
    areas()
        .into_iter()
        .flat_map(|routes| routes.into_parts().1)
        .collect()
}

/// The staff navigation, in table order.
pub fn staff_nav(table: &[RouteInfo]) -> Vec<crate::state::NavEntry> {
    table
        .iter()
        .filter_map(|r| {
            r.nav.map(|label| crate::state::NavEntry {
                path: r.path,
                label,
                superadmin_only: r.access == Access::SuperAdmin,
                committee_only: r.access == Access::Committee,
            })
        })
        .collect()
}

/// The application: every route, inside the request layers.
///
/// The layers wrap the router as one service, rather than each route (`Router::layer`): axum
/// boxes and clones a per-route layer for every request, which was a measurable share of a
/// kept page's cost (issue 16). Only `mark_route`, which needs the matched route, is inside.
pub fn build(state: AppState) -> Router {
    let shared = state.shared();
    let https = shared.secure_cookies;
    let sessions = SessionManagerLayer::new(shared.sessions.clone())
        .with_name(cookies::session_name(shared.secure_cookies))
        .with_http_only(true)
        .with_same_site(SameSite::Lax)
        .with_secure(shared.secure_cookies)
        .with_expiry(Expiry::OnInactivity(shared.session_idle));

    let mut router = Router::new();
    for routes in areas() {
        router = router.merge(routes.into_parts().0);
    }
    let router = router
        .fallback(static_or_not_found)
        .layer(axum::middleware::from_fn(metrics::mark_route))
        .with_state(state.clone());
    let app = ServiceBuilder::new()
        .layer(axum::middleware::from_fn(metrics::track))
        .map_response(move |response| headers::apply(https, response))
        .layer(axum::middleware::from_fn(metrics::refuse_unknown_methods))
        .layer(tower_http::timeout::TimeoutLayer::with_status_code(
            axum::http::StatusCode::REQUEST_TIMEOUT,
            Duration::from_secs(30),
        ))
        .layer(DefaultBodyLimit::max(64 * 1024))
        // Pages and JSON; embedded static files arrive already compressed and are left alone.
        .layer(tower_http::compression::CompressionLayer::new())
        .layer(sessions)
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            ctx::middleware,
        ))
        .layer(axum::middleware::from_fn_with_state(
            Arc::new(ListCache::default()),
            list_cache::middleware,
        ))
        .layer(axum::middleware::from_fn_with_state(
            Arc::new(PageCache::default()),
            page_cache::middleware,
        ))
        // Inside the context, which renders its refusals in the user's language.
        .layer(axum::middleware::from_fn(input_screen::middleware))
        .service(router);
    Router::new().fallback_service(app)
}

async fn static_or_not_found(headers: HeaderMap, request: Request) -> Response {
    match assets::serve(request.uri(), &headers) {
        Some(response) => response,
        None => AppError::NotFound.into_response(),
    }
}

/// `/` (spec: "Home/overview"): visitors get the public home page, members their overview. The
/// one route two areas share, so it is put together here rather than one area calling up into
/// another.
async fn home(ctx: Ctx) -> Result<Response, AppError> {
    match ctx.user.clone() {
        Some(user) => investing::portfolio::overview_for(&ctx, &user).await,
        None => content::home(ctx).await,
    }
}

/// 200 when the database answers.
/// Healthy when a write can begin (issue 30): after a full disk every write failed while a
/// plain `SELECT 1` still answered, so nothing restarted the server. Takes the write lock and
/// gives it back at once, writing nothing; a full disk or a lock held past the busy timeout
/// answers 503.
async fn health(State(state): State<AppState>) -> Result<&'static str, AppError> {
    db::write(state.db()).await?.rollback().await?;
    Ok("ok")
}
