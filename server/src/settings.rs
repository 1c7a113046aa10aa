//! Command line and settings. Every setting is also an environment variable.

use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

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
    Migrate,
    /// Create an admin, or promote an existing user to admin.
    CreateAdmin {
        #[arg(long)]
        email: String,
        #[arg(long)]
        password: String,
        /// Make the user a superadmin.
        #[arg(long = "super")]
        superadmin: bool,
    },
    /// Write a consistent copy of the live database to FILE.
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
    #[arg(long, env = "ORTAK_SMTP_URL", global = true)]
    pub smtp_url: Option<String>,
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
    pub oidc_client_secret: Option<String>,
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
    /// the database (it then does the checkpoints); never 0 without it, or the WAL grows until
    /// Ortak stops.
    #[arg(
        long,
        env = "ORTAK_WAL_AUTOCHECKPOINT",
        default_value_t = 1000,
        global = true
    )]
    pub wal_autocheckpoint: u32,
    /// A bearer token that opens `/metrics` from other hosts (without it, only requests from
    /// the listening host itself are answered).
    #[arg(
        long,
        env = "ORTAK_METRICS_TOKEN",
        global = true,
        hide_env_values = true
    )]
    pub metrics_token: Option<String>,
    /// How often background jobs (round closing, payment deadlines, purges) look for work.
    #[arg(
        long,
        env = "ORTAK_JOBS_INTERVAL_SECONDS",
        default_value_t = 60,
        global = true
    )]
    pub jobs_interval_seconds: u64,
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
}

impl Settings {
    /// The public URL without a trailing slash, once the real listening address is known.
    pub fn public_url(&self, bound: SocketAddr) -> String {
        match &self.public_url {
            Some(url) => url.trim_end_matches('/').to_owned(),
            None => format!("http://{bound}"),
        }
    }
}

/// Rounds, payment deadlines and the investor's limits (see the README's "Investing").
#[derive(Args, Debug, Clone)]
pub struct RoundSettings {
    /// How long after sending a request the investor may withdraw it (hours).
    #[arg(
        long,
        env = "ORTAK_CANCEL_WINDOW_HOURS",
        default_value_t = 48,
        global = true
    )]
    pub cancel_window_hours: i64,
    /// How long an approved request has to pay its service fee (hours).
    #[arg(
        long,
        env = "ORTAK_FEE_DEADLINE_HOURS",
        default_value_t = 72,
        global = true
    )]
    pub fee_deadline_hours: i64,
    /// How long after the fee the investment has to reach escrow (hours).
    #[arg(
        long,
        env = "ORTAK_TRANSFER_DEADLINE_HOURS",
        default_value_t = 120,
        global = true
    )]
    pub transfer_deadline_hours: i64,
    /// How long before a payment deadline the reminder mail goes out (hours).
    #[arg(
        long,
        env = "ORTAK_DEADLINE_REMINDER_HOURS",
        default_value_t = 24,
        global = true
    )]
    pub reminder_hours: i64,
    /// How far past its goal a round takes commitments before requests join the waitlist
    /// (basis points of the goal; 2000 = 20%).
    #[arg(
        long,
        env = "ORTAK_OVERFUNDING_BP",
        default_value_t = 2000,
        global = true
    )]
    pub overfunding_bp: i64,
    /// The share of the goal that must be in escrow when the round closes for it to succeed
    /// (basis points; 10000 = the whole goal).
    #[arg(
        long,
        env = "ORTAK_ROUND_SUCCESS_BP",
        default_value_t = 10_000,
        global = true
    )]
    pub success_bp: i64,
    /// SPK's yearly limit for non-qualified individuals (whole lira; 50.000 in the 2021 text:
    /// check the current figure).
    #[arg(
        long,
        env = "ORTAK_ANNUAL_LIMIT_TL",
        default_value_t = 50_000,
        global = true
    )]
    pub annual_limit_tl: i64,
    /// The share of declared annual income that applies instead when higher (basis points;
    /// 1000 = 10%).
    #[arg(
        long,
        env = "ORTAK_ANNUAL_LIMIT_INCOME_BP",
        default_value_t = 1000,
        global = true
    )]
    pub annual_limit_income_bp: i64,
    /// The most the income rule allows (whole lira; 200.000 in the 2021 text).
    #[arg(
        long,
        env = "ORTAK_ANNUAL_LIMIT_CAP_TL",
        default_value_t = 200_000,
        global = true
    )]
    pub annual_limit_cap_tl: i64,
}

impl RoundSettings {
    pub fn rules(&self) -> ortak_app::domain::rounds::RoundRules {
        ortak_app::domain::rounds::RoundRules {
            overfunding_bp: self.overfunding_bp,
            success_bp: self.success_bp,
        }
    }

    pub fn limits(&self) -> ortak_app::domain::limits::LimitRules {
        use ortak_app::domain::money::Money;
        ortak_app::domain::limits::LimitRules {
            base: Money::from_lira(self.annual_limit_tl),
            income_share_bp: self.annual_limit_income_bp,
            cap: Money::from_lira(self.annual_limit_cap_tl),
        }
    }

    /// Refuses figures that make no sense, before the server starts.
    pub fn check(&self) -> anyhow::Result<()> {
        let hours = [
            self.cancel_window_hours,
            self.fee_deadline_hours,
            self.transfer_deadline_hours,
            self.reminder_hours,
        ];
        anyhow::ensure!(
            hours.iter().all(|h| (0..=24 * 365).contains(h)),
            "the round's windows and deadlines must be between 0 and 8760 hours"
        );
        anyhow::ensure!(
            (0..=100_000).contains(&self.overfunding_bp)
                && (0..=100_000).contains(&self.success_bp),
            "ORTAK_OVERFUNDING_BP and ORTAK_ROUND_SUCCESS_BP must be between 0 and 100000"
        );
        anyhow::ensure!(
            self.annual_limit_tl >= 0
                && self.annual_limit_cap_tl >= 0
                && (0..=10_000).contains(&self.annual_limit_income_bp),
            "the annual limit settings must not be negative (income share at most 10000)"
        );
        Ok(())
    }
}

/// One entry of `ORTAK_TRUSTED_PROXIES`: an address and a prefix length (`10.0.0.0/8`,
/// `127.0.0.1` = `/32`, `::1` = `/128`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Proxy {
    network: IpAddr,
    prefix: u8,
}

impl Proxy {
    /// Parses `addr` or `addr/prefix`.
    pub fn parse(text: &str) -> Result<Proxy, String> {
        let text = text.trim();
        let (addr, prefix) = match text.split_once('/') {
            Some((addr, prefix)) => (addr, Some(prefix)),
            None => (text, None),
        };
        let network: IpAddr = addr
            .parse()
            .map_err(|_| format!("{text:?} is not an IP address or CIDR range"))?;
        let network = network.to_canonical();
        let max = if network.is_ipv4() { 32 } else { 128 };
        let prefix = match prefix {
            None => max,
            Some(p) => p
                .parse::<u8>()
                .ok()
                .filter(|p| *p <= max)
                .ok_or_else(|| format!("{text:?} has an invalid prefix length"))?,
        };
        Ok(Proxy { network, prefix })
    }

    /// Parses a comma-separated list; empty entries are skipped.
    pub fn parse_list(text: &str) -> Result<Vec<Proxy>, String> {
        text.split(',')
            .filter(|entry| !entry.trim().is_empty())
            .map(Proxy::parse)
            .collect()
    }

    pub fn contains(&self, addr: IpAddr) -> bool {
        match (self.network, addr.to_canonical()) {
            (IpAddr::V4(net), IpAddr::V4(ip)) => {
                let mask = u32::MAX
                    .checked_shl(32 - u32::from(self.prefix))
                    .unwrap_or(0);
                u32::from(net) & mask == u32::from(ip) & mask
            }
            (IpAddr::V6(net), IpAddr::V6(ip)) => {
                let mask = u128::MAX
                    .checked_shl(128 - u32::from(self.prefix))
                    .unwrap_or(0);
                u128::from(net) & mask == u128::from(ip) & mask
            }
            _ => false,
        }
    }
}
