//! `ortak serve`: start-up, the listener and graceful shutdown.

use tokio::net::TcpListener;
use tower_sessions::ExpiredDeletion;
use tower_sessions_sqlx_store::SqliteStore;

use crate::db::clock::Clock;
use crate::mail::worker::{MailWaker, SmtpSender};
use crate::providers::oidc::Oidc;
use crate::providers::payments::CallbackKey;
use crate::settings::Settings;
use crate::state::{AppState, Escrow, Shared};
use crate::web::assets;
use crate::{content, db, demo, mail, routes};

pub async fn run(settings: Settings) -> anyhow::Result<()> {
    let pool = db::connect(&settings.data_dir).await?;
    db::migrate(&pool).await?;
    content::seed::seed_content(&pool).await?;
    let admin_password = if settings.demo {
        demo::seed_demo(&pool, &settings.data_dir).await?
    } else {
        None
    };

    let session_store = SqliteStore::new(pool.clone())
        .with_table_name("sessions")
        .map_err(anyhow::Error::msg)?;
    session_store.migrate().await?;
    let cleanup = tokio::spawn(
        session_store
            .clone()
            .continuously_delete_expired(tokio::time::Duration::from_secs(3600)),
    );

    let listener = TcpListener::bind(settings.addr).await?;
    let bound = listener.local_addr()?;
    let public_url = settings.public_url(bound);
    let mail_waker = MailWaker::default();
    let mailer = match &settings.smtp_url {
        Some(url) => {
            let sender = SmtpSender::new(url, &settings.mail_from)?;
            Some(tokio::spawn(mail::worker::run(
                pool.clone(),
                sender,
                mail_waker.clone(),
            )))
        }
        None => {
            tracing::warn!("ORTAK_SMTP_URL is not set: mails stay in the outbox unsent");
            None
        }
    };
    let clock = match &settings.clock_file {
        Some(file) => {
            tracing::warn!(file = %file.display(), "the clock is shifted by ORTAK_CLOCK_FILE (tests only)");
            Clock::shifted_by_file(file.clone())
        }
        None => Clock::system(),
    };
    let state = AppState::new(Shared {
        db: pool.clone(),
        clock,
        staff_nav: routes::staff_nav(&routes::table()),
        mail_waker,
        oidc: match (
            &settings.oidc_issuer,
            &settings.oidc_client_id,
            &settings.oidc_client_secret,
        ) {
            (Some(issuer), Some(id), Some(secret)) => {
                Some(std::sync::Arc::new(Oidc::new(issuer, id, secret)?))
            }
            _ => None,
        },
        sessions: session_store,
        data_dir: settings.data_dir.clone(),
        service_fee_bp: settings.service_fee_bp,
        staff_email: settings.staff_email.clone(),
        payments: Box::new(crate::providers::sandbox::Sandbox),
        callback_key: CallbackKey::new(
            db::secrets::load_or_create(&pool, "payment_callback_key").await?,
        ),
        escrow: Escrow {
            bank: settings.escrow_bank.clone(),
            account_name: settings.escrow_name.clone(),
            iban: settings.escrow_iban.clone(),
        },
        identity_check: settings
            .nvi_url
            .as_deref()
            .map(crate::providers::edevlet::IdentityCheck::new)
            .transpose()?,
        secure_cookies: public_url.starts_with("https://"),
        session_idle: time::Duration::seconds(settings.session_idle_seconds.max(1)),
        session_max: time::Duration::seconds(settings.session_max_seconds.max(1)),
        public_url: public_url.clone(),
        assets: assets::built_assets(),
    });
    let app = routes::build(state);

    if let Some(password) = admin_password {
        println!("Demo admin created. Sign in at {public_url}/signin");
        println!("    e-mail:   {}", demo::DEMO_ADMIN_EMAIL);
        println!("    password: {password}");
    }
    // Tests and scripts read this line to learn the port when ORTAK_ADDR ends in :0.
    println!("Ortak is listening on http://{bound} (public URL {public_url})");
    tracing::info!(%bound, "listening");

    axum::serve(
        listener,
        app.into_make_service_with_connect_info::<std::net::SocketAddr>(),
    )
    .with_graceful_shutdown(shutdown_signal())
    .await?;
    cleanup.abort();
    if let Some(mailer) = mailer {
        mailer.abort();
    }
    pool.close().await;
    tracing::info!("stopped");
    Ok(())
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
