//! `ortak serve`: start-up (database, content, sessions, the mail worker, the shared state),
//! the listener and graceful shutdown. Each start-up step is its own function, in the order
//! [`run`] takes them.

use std::net::SocketAddr;
use std::sync::Arc;

use sqlx::SqlitePool;
use tokio::net::TcpListener;
use tokio::task::AbortHandle;
use tower_sessions::ExpiredDeletion;
use tower_sessions_sqlx_store::SqliteStore;

use crate::db::clock::Clock;
use crate::db::sessions::CachedStore;
use crate::mail::unsubscribe::UnsubscribeKey;
use crate::mail::worker::{MailWaker, SmtpSender, Worker};
use crate::providers::edevlet::IdentityCheck;
use crate::providers::oidc::{Oidc, OidcOptions};
use crate::providers::payments::{self, CallbackKey, PaymentProvider};
use crate::settings::Settings;
use crate::state::{AppState, Escrow, Shared};
use crate::web::assets;
use crate::{content, db, demo, jobs, mail, routes};

pub async fn run(settings: Settings) -> anyhow::Result<()> {
    settings.rounds.check()?;
    // First, so a refused provider (the sandbox behind https) stops before anything starts.
    let payments = payments::from_settings(
        &settings.payments,
        settings.public_url.as_deref().unwrap_or_default(),
    )?;
    crate::web::metrics::install(settings.metrics_token.clone())?;
    crate::accounts::passwords::set_memory_budget(settings.hashing_memory_mb);
    let pool = open_database(&settings).await?;
    let admin_password = if settings.demo {
        let platform = crate::campaigns::Platform {
            data_dir: &settings.data_dir,
            fee_bp: settings.service_fee_bp,
            cancel_window_hours: settings.rounds.cancel_window_hours,
            success_bp: settings.rounds.success_bp,
            escrow_bank: &settings.escrow_bank,
        };
        demo::seed_demo(&pool, &platform).await?
    } else {
        None
    };
    let idle = time::Duration::seconds(settings.session_idle_seconds.max(1));
    let (sessions, cleanup) = session_store(&pool, idle).await?;

    let listener = TcpListener::bind(settings.addr).await?;
    let bound = listener.local_addr()?;
    let public_url = settings.public_url(bound);
    let clock = clock(&settings);
    let mail_waker = MailWaker::default();
    let unsubscribe = UnsubscribeKey::load(&pool).await?;
    let mailer = start_mailer(
        &settings,
        &pool,
        &mail_waker,
        &clock,
        &public_url,
        &unsubscribe,
    )?;
    let running = Running {
        pool: pool.clone(),
        clock,
        mail_waker,
        sessions,
        public_url: public_url.clone(),
        payments,
        unsubscribe,
    };
    crate::db::snapshot::keep_between_writes(settings.keep_between_writes);
    let state = AppState::new(shared(&settings, running).await?);
    let jobs = tokio::spawn(jobs::run(
        state.clone(),
        std::time::Duration::from_secs(settings.jobs_interval_seconds.max(1)),
        jobs::run_now_signal(),
    ))
    .abort_handle();
    let wal_bound = tokio::spawn(db::wal::keep_bounded(
        pool.clone(),
        db::database_path(&settings.data_dir).with_extension("db-wal"),
        settings.wal().max_bytes(),
    ))
    .abort_handle();
    let app = routes::build(state);

    // Before the address is announced, so a supervisor that sees it sees the limit raised.
    let max_connections = connections(settings.max_connections);
    announce(admin_password, &public_url, bound);
    let header_timeout = std::time::Duration::from_secs(settings.header_timeout_seconds);
    serve(listener, app, header_timeout, max_connections).await;
    cleanup.abort();
    jobs.abort();
    wal_bound.abort();
    if let Some(mailer) = mailer {
        mailer.abort();
    }
    pool.close().await;
    tracing::info!("stopped");
    Ok(())
}

/// Opens the database, applies the migrations and inserts the legal pages and FAQ when missing.
async fn open_database(settings: &Settings) -> anyhow::Result<SqlitePool> {
    let pool = db::connect(&settings.data_dir, settings.wal(), db::Create::IfMissing).await?;
    db::migrate(&pool, &settings.data_dir).await?;
    db::rules::sync(&pool, settings.rounds.campaign_max_days).await?;
    content::seed::seed_content(&pool).await?;
    Ok(pool)
}

/// The session store (in memory, in front of the `sessions` table), and the task that deletes
/// expired sessions from the table hourly.
async fn session_store(
    pool: &SqlitePool,
    idle: time::Duration,
) -> anyhow::Result<(CachedStore, AbortHandle)> {
    let store = SqliteStore::new(pool.clone())
        .with_table_name("sessions")
        .map_err(anyhow::Error::msg)?;
    store.migrate().await?;
    let cleanup = tokio::spawn(
        store
            .clone()
            .continuously_delete_expired(tokio::time::Duration::from_secs(3600)),
    );
    Ok((CachedStore::new(store, idle), cleanup.abort_handle()))
}

/// The system clock, or in tests one shifted by `ORTAK_CLOCK_FILE`.
fn clock(settings: &Settings) -> Clock {
    match &settings.clock_file {
        Some(file) => {
            tracing::warn!(file = %file.display(), "the clock is shifted by ORTAK_CLOCK_FILE (tests only)");
            Clock::shifted_by_file(file.clone())
        }
        None => Clock::system(),
    }
}

/// Starts the mail worker when SMTP is configured; without it mails wait in the outbox (and no
/// sign-in, reset or verification token is ever issued).
fn start_mailer(
    settings: &Settings,
    pool: &SqlitePool,
    waker: &MailWaker,
    clock: &Clock,
    public_url: &str,
    unsubscribe: &UnsubscribeKey,
) -> anyhow::Result<Option<AbortHandle>> {
    let Some(url) = &settings.smtp_url else {
        tracing::warn!("ORTAK_SMTP_URL is not set: mails stay in the outbox unsent");
        return Ok(None);
    };
    let deadline = std::time::Duration::from_secs(settings.smtp_timeout_seconds.max(1));
    let sender = SmtpSender::new(url.expose(), &settings.mail_from, deadline)?;
    let worker = Worker {
        db: pool.clone(),
        clock: clock.clone(),
        public_url: public_url.to_owned(),
        unsubscribe: unsubscribe.clone(),
    };
    let run = mail::worker::run(worker, sender, waker.clone());
    Ok(Some(tokio::spawn(run).abort_handle()))
}

/// Serves HTTP/1.1 and HTTP/2 on `listener` until SIGTERM or Ctrl-C, then lets the requests in
/// flight finish (at most 30 s). Unlike `axum::serve`, a connection must send each request's
/// headers within `header_timeout` (hyper's header read timeout, which needs a timer).
async fn serve(
    listener: TcpListener,
    app: axum::Router,
    header_timeout: std::time::Duration,
    max_connections: usize,
) {
    use axum::extract::ConnectInfo;
    use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
    use hyper_util::server::conn::auto::Builder;
    use hyper_util::server::graceful::GracefulShutdown;
    use hyper_util::service::TowerToHyperService;

    let mut builder = Builder::new(TokioExecutor::new());
    builder
        .http1()
        .timer(TokioTimer::new())
        .header_read_timeout(header_timeout);
    builder.http2().timer(TokioTimer::new());
    let graceful = GracefulShutdown::new();
    let mut shutdown = std::pin::pin!(shutdown_signal());
    // At most `max_connections` at once: beyond, nothing is accepted until one ends, and new
    // connections wait in the kernel's queue (issue 26, item 10).
    let open = Arc::new(tokio::sync::Semaphore::new(max_connections.max(1)));
    loop {
        let slot = tokio::select! {
            slot = open.clone().acquire_owned() => slot.expect("the semaphore is never closed"),
            () = &mut shutdown => break,
        };
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(e) => {
                    // Out of file descriptors and the like: wait a moment rather than spin.
                    tracing::warn!(error = %e, "accepting a connection failed");
                    tokio::time::sleep(std::time::Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let _ = stream.set_nodelay(true);
        // The peer's address, as `into_make_service_with_connect_info` would give it.
        let service = tower::ServiceExt::map_request(
            app.clone(),
            move |mut request: axum::http::Request<hyper::body::Incoming>| {
                request.extensions_mut().insert(ConnectInfo(peer));
                request
            },
        );
        let connection = builder
            .serve_connection_with_upgrades(TokioIo::new(stream), TowerToHyperService::new(service))
            .into_owned();
        let connection = graceful.watch(connection);
        tokio::spawn(async move {
            if let Err(e) = connection.await {
                tracing::debug!(error = %e, "connection ended with an error");
            }
            drop(slot);
        });
    }
    drop(listener);
    if tokio::time::timeout(std::time::Duration::from_secs(30), graceful.shutdown())
        .await
        .is_err()
    {
        tracing::warn!("requests still in flight after 30 s; stopping anyway");
    }
}

/// What start-up made before the state: the pieces that are not read off the settings.
struct Running {
    pool: SqlitePool,
    clock: Clock,
    mail_waker: MailWaker,
    sessions: CachedStore,
    public_url: String,
    payments: Box<dyn PaymentProvider>,
    unsubscribe: UnsubscribeKey,
}

/// The state every handler reaches: the running pieces, the settings and the outside services.
async fn shared(settings: &Settings, running: Running) -> anyhow::Result<Shared> {
    let oidc = match (
        &settings.oidc_issuer,
        &settings.oidc_client_id,
        &settings.oidc_client_secret,
    ) {
        (Some(issuer), Some(id), Some(secret)) => {
            let options = OidcOptions {
                pkce: settings.oidc_pkce,
                require_nonce: settings.oidc_require_nonce,
            };
            Some(Arc::new(Oidc::new(issuer, id, secret, options)?))
        }
        _ => None,
    };
    let callback_key = db::secrets::load_or_create(&running.pool, "payment_callback_key").await?;
    let operator = settings.operator.operator();
    if operator.is_sample() && running.public_url.starts_with("https://") {
        tracing::warn!(
            "ORTAK_OPERATOR_* are the demo's sample identity: set the operator's real one"
        );
    }
    let trusted_proxies =
        crate::settings::Proxy::parse_list(settings.trusted_proxies.as_deref().unwrap_or(""))
            .map_err(|e| anyhow::anyhow!("ORTAK_TRUSTED_PROXIES: {e}"))?;
    Ok(Shared {
        db: running.pool,
        clock: running.clock,
        staff_nav: routes::staff_nav(&routes::table()),
        mail_waker: running.mail_waker,
        oidc,
        sessions: running.sessions,
        data_dir: settings.data_dir.clone(),
        min_free_disk_bytes: settings.min_free_disk_mb * 1024 * 1024,
        service_fee_bp: settings.service_fee_bp,
        staff_email: settings.staff_email.clone(),
        trusted_proxies,
        payments: running.payments,
        callback_key: CallbackKey::new(callback_key),
        unsubscribe: running.unsubscribe,
        escrow: Escrow {
            bank: settings.escrow_bank.clone(),
            account_name: settings.escrow_name.clone(),
            iban: settings.escrow_iban.clone(),
        },
        rounds: settings.rounds.clone(),
        operator,
        identity_check: settings
            .nvi_url
            .as_deref()
            .map(IdentityCheck::new)
            .transpose()?,
        secure_cookies: running.public_url.starts_with("https://"),
        session_idle: time::Duration::seconds(settings.session_idle_seconds.max(1)),
        session_max: time::Duration::seconds(settings.session_max_seconds.max(1)),
        public_url: running.public_url,
        assets: assets::built_assets(),
    })
}

/// Prints the demo admin's sign-in (once, when the demo was just created) and the address.
fn announce(admin_password: Option<String>, public_url: &str, bound: SocketAddr) {
    if let Some(password) = admin_password {
        println!("Demo admin created. Sign in at {public_url}/signin");
        println!("    e-mail:   {}", demo::DEMO_ADMIN_EMAIL);
        println!("    password: {password}");
        println!("    then enrol an authenticator app (the QR code shown at the first sign-in)");
    }
    // Tests and scripts read this line to learn the port when ORTAK_ADDR ends in :0.
    println!("Ortak is listening on http://{bound} (public URL {public_url})");
    tracing::info!(%bound, "listening");
}

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    tokio::select! {
        () = ctrl_c => {},
        () = terminate => {},
    }
    tracing::info!("shutting down");
}

/// The connections to serve at once, with the open-files limit raised first (issue 30).
fn connections(setting: usize) -> usize {
    let limit = crate::open_files::raise_limit();
    let connections = crate::open_files::connections_within(setting, limit);
    if connections < setting {
        tracing::warn!(
            open_files = limit,
            connections,
            "the open-files limit holds fewer connections than ORTAK_MAX_CONNECTIONS: raise \
             LimitNOFILE (the systemd unit sets 65536)"
        );
    }
    connections
}
