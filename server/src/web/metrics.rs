//! `/metrics` in Prometheus' text format, and the layer that counts every request by its route
//! pattern (never the raw path, whose ids would make unbounded label sets) and status.
//!
//! Who may read it: requests from the listening host itself (loopback, and not relayed by a
//! reverse proxy on that host, which would add `X-Forwarded-For`), or anyone presenting
//! `ORTAK_METRICS_TOKEN` as a bearer token. Everyone else gets 404, as if it did not exist.

use std::net::SocketAddr;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use axum::extract::{ConnectInfo, MatchedPath, Request, State};
use axum::http::{HeaderMap, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};

use crate::db::stats;
use crate::error::AppError;
use crate::settings::Secret;
use crate::state::AppState;

struct Exporter {
    handle: PrometheusHandle,
    token: Option<Secret>,
}

static EXPORTER: OnceLock<Exporter> = OnceLock::new();

/// Latency buckets in seconds: pages answer in milliseconds, a slow one is worth seeing.
const BUCKETS: [f64; 12] = [
    0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 10.0,
];

/// How often recorded latencies are folded into their buckets.
const UPKEEP: Duration = Duration::from_secs(5);

/// Installs the process's metrics recorder (once, at start, inside the runtime).
pub fn install(token: Option<Secret>) -> anyhow::Result<()> {
    let handle = PrometheusBuilder::new()
        .set_buckets_for_metric(
            Matcher::Full("ortak_http_request_duration_seconds".into()),
            &BUCKETS,
        )?
        .install_recorder()?;
    // The recorder keeps every latency recorded until its upkeep folds them into buckets;
    // `install_recorder` leaves the upkeep to us, and without it memory grew by about 20 bytes a
    // request whenever nothing scraped `/metrics` (issue 16 saw 2 MB per 100,000 requests).
    let upkeep = handle.clone();
    tokio::spawn(async move {
        let mut ticker = tokio::time::interval(UPKEEP);
        loop {
            ticker.tick().await;
            upkeep.run_upkeep();
        }
    });
    let _ = EXPORTER.set(Exporter {
        handle,
        token: token.filter(|t| !t.expose().is_empty()),
    });
    Ok(())
}

/// Where the router notes the route pattern a request matched, for [`track`] outside it (the
/// response may be rebuilt on the way out, e.g. an error page, so it cannot carry it).
#[derive(Clone, Default)]
struct Route(Arc<Mutex<Option<String>>>);

/// Inside the router (where the matched pattern is known): notes it for [`track`].
pub async fn mark_route(request: Request, next: Next) -> Response {
    if let (Some(slot), Some(path)) = (
        request.extensions().get::<Route>(),
        request.extensions().get::<MatchedPath>(),
    ) {
        *slot.0.lock().unwrap_or_else(|e| e.into_inner()) = Some(path.as_str().to_owned());
    }
    next.run(request).await
}

/// The methods the site answers, each its own label; anything else is refused before a layer
/// or the router sees it (405), and counted as `other`. hyper accepts any token as a method, and
/// labelling by the method's own text kept a new series per made-up method for ever: 20,000
/// requests took 100 MB (issue 26, item 3). Every label set is bounded: a fixed method set,
/// route patterns (never paths) and status codes.
fn method_label(method: &Method) -> Option<&'static str> {
    Some(match *method {
        Method::GET => "GET",
        Method::HEAD => "HEAD",
        Method::POST => "POST",
        Method::PUT => "PUT",
        Method::PATCH => "PATCH",
        Method::DELETE => "DELETE",
        Method::OPTIONS => "OPTIONS",
        _ => return None,
    })
}

/// Just inside the security headers: a method the site does not serve (TRACE, CONNECT, a new
/// or made-up one) is refused at once with 405 and the methods it does, before sessions, the
/// context or the router do any work for it. Not 501: a flood of made-up methods must not read
/// as server errors in the metrics and alerts.
pub async fn refuse_unknown_methods(request: Request, next: Next) -> Response {
    if method_label(request.method()).is_some() {
        return next.run(request).await;
    }
    let allow = "GET, HEAD, POST, OPTIONS";
    (StatusCode::METHOD_NOT_ALLOWED, [(header::ALLOW, allow)]).into_response()
}

/// The outermost layer: counts and times every request (all layers included) by method, route
/// pattern and status.
pub async fn track(mut request: Request, next: Next) -> Response {
    let started = Instant::now();
    let method = method_label(request.method()).unwrap_or("other");
    let slot = Route::default();
    request.extensions_mut().insert(slot.clone());
    let response = next.run(request).await;
    let route = slot
        .0
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .take()
        .unwrap_or_else(|| "unmatched".to_owned());
    let labels = [
        ("method", method.to_owned()),
        ("route", route),
        ("status", response.status().as_u16().to_string()),
    ];
    metrics::counter!("ortak_http_requests_total", &labels).increment(1);
    metrics::histogram!("ortak_http_request_duration_seconds", &labels)
        .record(started.elapsed().as_secs_f64());
    response
}

fn allowed(exporter: &Exporter, peer: SocketAddr, headers: &HeaderMap) -> bool {
    let bearer = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "));
    if let (Some(token), Some(given)) = (&exporter.token, bearer) {
        return crate::web::csrf::constant_time_eq(token.expose().as_bytes(), given.as_bytes());
    }
    let relayed = headers.contains_key("x-forwarded-for") || headers.contains_key("forwarded");
    peer.ip().is_loopback() && !relayed
}

/// `GET /metrics`.
pub async fn scrape(
    State(state): State<AppState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
) -> Result<Response, AppError> {
    let exporter = EXPORTER.get().ok_or(AppError::NotFound)?;
    if !allowed(exporter, peer, &headers) {
        return Err(AppError::NotFound);
    }
    let outbox = stats::outbox(state.db()).await?;
    let oldest = outbox
        .oldest
        .map_or(0, |at| (state.now() - at).whole_seconds().max(0));
    metrics::gauge!("ortak_outbox_pending").set(outbox.pending as f64);
    metrics::gauge!("ortak_outbox_oldest_age_seconds").set(oldest as f64);
    let (db_bytes, wal_bytes) = stats::file_sizes(&state.shared().data_dir);
    metrics::gauge!("ortak_database_bytes").set(db_bytes as f64);
    metrics::gauge!("ortak_wal_bytes").set(wal_bytes as f64);
    let writes = state.writes();
    metrics::gauge!("ortak_writes_counted").set(writes.all as f64);
    metrics::gauge!("ortak_shared_writes_counted").set(writes.shared as f64);
    process_gauges(&state.shared().data_dir);
    Ok((
        [(header::CONTENT_TYPE, "text/plain; version=0.0.4")],
        exporter.handle.render(),
    )
        .into_response())
}

/// What the alerts need of the process and its disk (issue 30): the data folder's free space,
/// resident memory, open files, and which build runs (a constant 1 labelled with the version).
fn process_gauges(data_dir: &std::path::Path) {
    if let Some(free) = crate::web::files::free_bytes(data_dir) {
        metrics::gauge!("ortak_disk_free_bytes").set(free as f64);
    }
    // `statm`'s second field: resident pages (4 KiB on the x86-64 VM).
    let resident = std::fs::read_to_string("/proc/self/statm")
        .ok()
        .and_then(|s| s.split_whitespace().nth(1)?.parse::<f64>().ok());
    if let Some(pages) = resident {
        metrics::gauge!("ortak_resident_memory_bytes").set(pages * 4096.0);
    }
    if let Ok(fds) = std::fs::read_dir("/proc/self/fd") {
        metrics::gauge!("ortak_open_files").set(fds.count() as f64);
    }
    metrics::gauge!("ortak_build_info", "version" => env!("CARGO_PKG_VERSION")).set(1.0);
}
