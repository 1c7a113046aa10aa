//! What every handler can reach: the database, the clock, the settings the server was started
//! with and the outside services. Built once by `serve`; nothing here knows about routes.

use std::sync::Arc;

use sqlx::SqlitePool;

use crate::db::clock::Clock;
use crate::db::sessions::CachedStore;
use crate::mail::worker::MailWaker;
use crate::providers::edevlet::IdentityCheck;
use crate::providers::oidc::Oidc;
use crate::providers::payments::{CallbackKey, PaymentProvider};

/// Per-process data every handler can reach.
pub struct Shared {
    pub db: SqlitePool,
    /// The current time; tests move it through `ORTAK_CLOCK_FILE`.
    pub clock: Clock,
    /// Scheme and host users reach us at, without a trailing slash.
    pub public_url: String,
    /// Whether the site is served over HTTPS (Secure cookies, HSTS).
    pub secure_cookies: bool,
    /// A session unused this long ends.
    pub session_idle: time::Duration,
    /// A session ends this long after sign-in.
    pub session_max: time::Duration,
    pub assets: ortak_app::shell::Assets,
    /// Wakes the mail worker after a mail was queued.
    pub mail_waker: MailWaker,
    /// The professional-network sign-in, when configured.
    pub oidc: Option<Arc<Oidc>>,
    /// The service fee, in basis points of the amount (250 = 2.5%).
    pub service_fee_bp: i64,
    /// The e-government identity check, when configured.
    pub identity_check: Option<IdentityCheck>,
    /// The card payment provider (the built-in sandbox unless an adapter is configured).
    pub payments: Box<dyn PaymentProvider>,
    /// Signs and checks payment callbacks.
    pub callback_key: CallbackKey,
    /// Signs and checks one-click unsubscribe links.
    pub unsubscribe: crate::mail::unsubscribe::UnsubscribeKey,
    /// The escrow account investors transfer to.
    pub escrow: Escrow,
    /// Who runs the platform, as every page names it.
    pub operator: ortak_app::domain::operator::Operator,
    /// Rounds, payment deadlines and the investors' limits.
    pub rounds: crate::settings::RoundSettings,
    /// Where staff notices about new applications and messages go.
    pub staff_email: String,
    /// The data folder (database and uploads).
    pub data_dir: std::path::PathBuf,
    /// Uploads are refused while the data folder's disk has less free space than this.
    pub min_free_disk_bytes: u64,
    /// The session store, for bearer tokens (a session's id) on the API.
    pub sessions: CachedStore,
    /// The reverse proxies whose `X-Forwarded-For` names the client (`ORTAK_TRUSTED_PROXIES`).
    pub trusted_proxies: Vec<crate::settings::Proxy>,
    /// The staff navigation, `(path, Fluent id, superadmin only)`, read off the route table.
    pub staff_nav: Vec<NavEntry>,
}

/// The escrow account investors transfer to (settings).
pub struct Escrow {
    pub bank: String,
    pub account_name: String,
    pub iban: String,
}

#[derive(Clone)]
pub struct AppState(Arc<Shared>);

impl AppState {
    pub fn new(shared: Shared) -> AppState {
        AppState(Arc::new(shared))
    }

    pub fn shared(&self) -> &Shared {
        &self.0
    }

    pub fn db(&self) -> &SqlitePool {
        &self.0.db
    }

    /// The current time in UTC, whole seconds (as the database stores times).
    pub fn now(&self) -> time::OffsetDateTime {
        self.0.clock.now()
    }

    /// Today in Istanbul.
    pub fn today(&self) -> time::Date {
        ortak_app::domain::time_fmt::istanbul_date(self.now())
    }

    /// How many writes happened so far, all and to shared tables (`db::writes`).
    pub fn writes(&self) -> crate::db::writes::Versions {
        crate::db::writes::versions()
    }

    /// Counts a write (`db::writes`).
    pub fn wrote(&self) {
        crate::db::writes::bump()
    }

    pub fn wake_mailer(&self) {
        self.0.mail_waker.wake();
    }

    /// Whether queued mails are sent (SMTP is configured).
    pub fn mails_leave(&self) -> bool {
        self.0.mail_waker.sending()
    }
}

/// An entry of the staff navigation (`routes::staff_nav`): its path, its Fluent id, and who
/// sees it, read off its route's access.
pub struct NavEntry {
    pub path: &'static str,
    pub label: &'static str,
    pub superadmin_only: bool,
    pub committee_only: bool,
}
