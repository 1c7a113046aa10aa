//! Command line and settings. Every setting is also an environment variable.

use std::net::SocketAddr;
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

mod operator;
mod payments;
mod proxies;
mod rounds;
mod secret;

pub use operator::OperatorSettings;
pub use payments::{PaymentProviderKind, PaymentSettings};
pub use proxies::Proxy;
pub use rounds::RoundSettings;
pub use secret::Secret;

#[derive(Parser, Debug)]
#[command(name = "ortak", version, about = "Ortak co-investment platform")]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    #[command(flatten)]
    pub settings: Settings,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Run the web server (the default).
    Serve,
    /// Apply the embedded database migrations and exit.
    Migrate {
        /// Make a new database when the data folder has none (otherwise refused).
        #[arg(long)]
        create: bool,
    },
    /// Create an admin, or promote an existing user to admin.
    CreateAdmin {
        #[arg(long)]
        email: String,
        #[arg(long)]
        password: String,
        /// Make the user a superadmin.
        #[arg(long = "super")]
        superadmin: bool,
        /// Make a new database when the data folder has none (otherwise refused).
        #[arg(long)]
        create: bool,
    },
    /// Write a consistent copy of the live database to FILE (refused when there is none).
    Backup { file: PathBuf },
    /// Print every route with its method and access level (JSON), as the router mounts them.
    Routes,
}

#[derive(Args, Debug, Clone)]
pub struct Settings {
    /// Address to listen on; port 0 picks a free port.
    #[arg(
        long,
        env = "ORTAK_ADDR",
        default_value = "127.0.0.1:3000",
        global = true
    )]
    pub addr: SocketAddr,
    /// Folder for the SQLite database and uploads.
    #[arg(long, env = "ORTAK_DATA_DIR", default_value = "./data", global = true)]
    pub data_dir: PathBuf,
    /// The URL users reach the site at (for canonical links, sitemaps and e-mails).
    /// Defaults to http://ORTAK_ADDR. An https URL turns on Secure cookies and HSTS.
    #[arg(long, env = "ORTAK_PUBLIC_URL", global = true)]
    pub public_url: Option<String>,
    /// Fill an empty database with demo content and print an admin sign-in.
    #[arg(long, env = "ORTAK_DEMO", global = true, action = clap::ArgAction::SetTrue,
          value_parser = clap::builder::BoolishValueParser::new())]
    pub demo: bool,
    /// SMTP server for outgoing mail, e.g. `smtp://127.0.0.1:2525` or
    /// `smtp://user:pass@mail.example.com:587?tls=required`. Without it mails stay in the outbox.
    #[arg(long, env = "ORTAK_SMTP_URL", global = true, hide_env_values = true)]
    pub smtp_url: Option<Secret>,
    /// The most one mail's sending may take, the server's answers included; past it the mail
    /// is tried again later (issue 30).
    #[arg(
        long,
        env = "ORTAK_SMTP_TIMEOUT_SECONDS",
        default_value_t = 30,
        global = true
    )]
    pub smtp_timeout_seconds: u64,
    /// Sender of outgoing mail.
    #[arg(
        long,
        env = "ORTAK_MAIL_FROM",
        default_value = "Ortak <no-reply@ortak.local>",
        global = true
    )]
    pub mail_from: String,
    /// Professional-network sign-in (OpenID Connect): the provider's issuer URL, e.g.
    /// `https://www.linkedin.com/oauth`. Shown only when issuer, client id and secret are set.
    #[arg(long, env = "ORTAK_OIDC_ISSUER", global = true)]
    pub oidc_issuer: Option<String>,
    #[arg(long, env = "ORTAK_OIDC_CLIENT_ID", global = true)]
    pub oidc_client_id: Option<String>,
    #[arg(
        long,
        env = "ORTAK_OIDC_CLIENT_SECRET",
        global = true,
        hide_env_values = true
    )]
    pub oidc_client_secret: Option<Secret>,
    /// Whether the professional-network sign-in sends PKCE (S256). LinkedIn refuses a token
    /// request that carries `code_verifier` (401 invalid_client) for web apps: set `false` there.
    #[arg(long, env = "ORTAK_OIDC_PKCE", default_value_t = true, global = true,
          action = clap::ArgAction::Set, value_parser = clap::builder::BoolishValueParser::new())]
    pub oidc_pkce: bool,
    /// Whether the provider's ID token must carry the `nonce` sent. LinkedIn leaves it out: set
    /// `false` there. A nonce that is present must match either way.
    #[arg(long, env = "ORTAK_OIDC_REQUIRE_NONCE", default_value_t = true, global = true,
          action = clap::ArgAction::Set, value_parser = clap::builder::BoolishValueParser::new())]
    pub oidc_require_nonce: bool,
    /// The service fee in basis points of the investment amount (250 = 2.5%), at most 1000
    /// (10%): a value outside 0..=1000 refuses to start.
    #[arg(
        long,
        env = "ORTAK_SERVICE_FEE_BP",
        default_value_t = 250,
        global = true,
        value_parser = clap::value_parser!(i64).range(0..=1000)
    )]
    pub service_fee_bp: i64,
    /// A connection must send a request's headers within this many seconds, or it is closed
    /// (connections that trickle header lines would otherwise stay open for ever).
    #[arg(
        long,
        env = "ORTAK_HEADER_TIMEOUT_SECONDS",
        default_value_t = 10,
        global = true,
        value_parser = clap::value_parser!(u64).range(1..=3600)
    )]
    pub header_timeout_seconds: u64,
    /// The population registry's TCKN check (KPSPublic SOAP endpoint), e.g.
    /// `https://tckimlik.nvi.gov.tr/Service/KPSPublic.asmx`. Unset: staff verify identities.
    #[arg(long, env = "ORTAK_NVI_URL", global = true)]
    pub nvi_url: Option<String>,
    /// Where staff notices about new applications and messages are sent.
    #[arg(
        long,
        env = "ORTAK_STAFF_EMAIL",
        default_value = "staff@ortak.local",
        global = true
    )]
    pub staff_email: String,
    /// A session unused this long ends (seconds; 2 hours by default).
    #[arg(
        long,
        env = "ORTAK_SESSION_IDLE_SECONDS",
        default_value_t = 7200,
        global = true
    )]
    pub session_idle_seconds: i64,
    /// A session ends this long after sign-in, however busy (seconds; 12 hours by default).
    #[arg(
        long,
        env = "ORTAK_SESSION_MAX_SECONDS",
        default_value_t = 43200,
        global = true
    )]
    pub session_max_seconds: i64,
    /// The escrow account investors transfer the investment amount to.
    #[arg(
        long,
        env = "ORTAK_ESCROW_BANK",
        default_value = "Takasbank",
        global = true
    )]
    pub escrow_bank: String,
    #[arg(
        long,
        env = "ORTAK_ESCROW_NAME",
        default_value = "Ortak Kitle Fonlama Platformu - Emanet Hesabı",
        global = true
    )]
    pub escrow_name: String,
    /// The demo default is the sample IBAN from DOMAIN.md: set the real one in production.
    #[arg(
        long,
        env = "ORTAK_ESCROW_IBAN",
        default_value = "TR470000100100000350930001",
        global = true
    )]
    pub escrow_iban: String,
    /// SQLite's automatic WAL checkpoint threshold in pages. Set 0 when Litestream replicates
    /// the database (it then does the checkpoints; past `ORTAK_WAL_MAX_MB` Ortak checkpoints
    /// anyway, for when Litestream stops).
    #[arg(
        long,
        env = "ORTAK_WAL_AUTOCHECKPOINT",
        default_value_t = 1000,
        global = true
    )]
    pub wal_autocheckpoint: u32,
    /// Past this size (MB) Ortak checkpoints the write-ahead log itself (PASSIVE: it never
    /// blocks a writer nor Litestream), so a stopped Litestream cannot fill the disk with it.
    #[arg(long, env = "ORTAK_WAL_MAX_MB", default_value_t = 64, global = true)]
    pub wal_max_mb: u64,
    /// A bearer token that opens `/metrics` from other hosts (without it, only requests from
    /// the listening host itself are answered).
    #[arg(
        long,
        env = "ORTAK_METRICS_TOKEN",
        global = true,
        hide_env_values = true
    )]
    pub metrics_token: Option<Secret>,
    /// How often background jobs (round closing, payment deadlines, purges) look for work.
    #[arg(
        long,
        env = "ORTAK_JOBS_INTERVAL_SECONDS",
        default_value_t = 60,
        global = true
    )]
    pub jobs_interval_seconds: u64,
    /// Keep read-mostly data and rendered pages in memory between writes (`db::snapshot`).
    /// `false` reads and renders every request afresh: for telling a suspected stale page from
    /// a real one, and for measuring what a page costs to make (`scripts/bench.sh`).
    #[arg(
        long,
        env = "ORTAK_KEEP_BETWEEN_WRITES",
        default_value_t = true,
        action = clap::ArgAction::Set,
        global = true
    )]
    pub keep_between_writes: bool,
    /// Tests only: a file holding a number of seconds to shift the clock by, so tests move
    /// time (deadlines, round closing, link expiry) instead of sleeping.
    #[arg(long, env = "ORTAK_CLOCK_FILE", global = true, hide = true)]
    pub clock_file: Option<PathBuf>,
    #[command(flatten)]
    pub rounds: RoundSettings,
    /// The reverse proxies in front of Ortak, comma-separated addresses or CIDR ranges (e.g.
    /// `127.0.0.1` for Caddy or nginx on the same machine). Requests from them take the
    /// client's address from `X-Forwarded-For` (rate limits, the sign-in log); unset, the TCP
    /// peer is the client and the header is ignored.
    #[arg(long, env = "ORTAK_TRUSTED_PROXIES", global = true)]
    pub trusted_proxies: Option<String>,
    #[command(flatten)]
    pub payments: PaymentSettings,
    #[command(flatten)]
    pub operator: OperatorSettings,
    /// The memory password hashing may use at once, in MiB: each argon2 hash takes 19, so the
    /// default runs one at a time (about 50 ms each; the other core keeps serving pages, and the
    /// server stays under 80 MB through 64 sign-ins at once); more wait their turn, then 503.
    #[arg(
        long,
        env = "ORTAK_HASHING_MEMORY_MB",
        default_value_t = 20,
        global = true
    )]
    pub hashing_memory_mb: u64,
    /// Connections served at once; more wait in the kernel's queue. Capped below the open-files
    /// limit at start (`open_files`; the systemd unit sets `LimitNOFILE=65536`).
    #[arg(
        long,
        env = "ORTAK_MAX_CONNECTIONS",
        default_value_t = 900,
        global = true
    )]
    pub max_connections: usize,
    /// Uploads are refused (503) while the data folder's disk has less free space than this,
    /// in MiB, so visitors' files cannot fill it.
    #[arg(
        long,
        env = "ORTAK_MIN_FREE_DISK_MB",
        default_value_t = 512,
        global = true
    )]
    pub min_free_disk_mb: u64,
}

impl Settings {
    /// The write-ahead log's settings.
    pub fn wal(&self) -> crate::db::WalSettings {
        crate::db::WalSettings {
            autocheckpoint: self.wal_autocheckpoint,
            max_mb: self.wal_max_mb,
        }
    }

    /// The public URL without a trailing slash, once the real listening address is known.
    pub fn public_url(&self, bound: SocketAddr) -> String {
        match &self.public_url {
            Some(url) => url.trim_end_matches('/').to_owned(),
            None => format!("http://{bound}"),
        }
    }
}
