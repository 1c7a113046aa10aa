//! Starts the real `ortak` binary on a free port with a fresh data folder, and talks HTTP to it.

#![allow(dead_code)] // each test file uses a different part of this helper

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

pub mod campaigns;
pub mod journeys;
pub mod money;
pub mod oidc;
pub mod smtp;

use sqlx::SqlitePool;
use tempfile::TempDir;

pub struct Server {
    child: Child,
    pub base: String,
    pub data: TempDir,
    /// Everything the server printed to stdout.
    pub output: Arc<Mutex<Vec<String>>>,
}

/// The one number `sql` (a `SELECT COUNT(*)`, an id, ...) answers in the server's database.
pub async fn scalar(server: &Server, sql: &str) -> i64 {
    sqlx::query_scalar(sql)
        .fetch_one(&server.db().await)
        .await
        .unwrap()
}

/// Runs `sql` against the server's database (a test's set-up).
pub async fn exec(server: &Server, sql: &str) {
    sqlx::query(sql).execute(&server.db().await).await.unwrap();
}

/// A client that keeps cookies and does not follow redirects, like a careful browser.
pub fn client() -> reqwest::Client {
    reqwest::Client::builder()
        .cookie_store(true)
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap()
}

impl Server {
    pub fn start() -> Server {
        Server::start_in(TempDir::new().unwrap(), &[("ORTAK_DEMO", "1")])
    }

    /// The demo, with an hour between the jobs' rounds: after the round at start-up, rounds
    /// run only when the test asks (`run_jobs`), so nothing writes behind its back.
    pub fn start_jobs_on_request() -> Server {
        Server::start_in(
            TempDir::new().unwrap(),
            &[("ORTAK_DEMO", "1"), ("ORTAK_JOBS_INTERVAL_SECONDS", "3600")],
        )
    }

    pub fn start_in(data: TempDir, env: &[(&str, &str)]) -> Server {
        Server::launch(Server::command(&data, env), data)
    }

    /// Starts the server with the open-files limit `(soft, hard)`, as a shell's `ulimit -n` or
    /// a systemd unit's `LimitNOFILE` would give it.
    pub fn start_with_open_files(env: &[(&str, &str)], soft: u64, hard: u64) -> Server {
        use std::os::unix::process::CommandExt;
        let data = TempDir::new().unwrap();
        let mut command = Server::command(&data, env);
        // SAFETY: the closure only calls setrlimit, which is async-signal-safe as `pre_exec`
        // requires of code run between fork and exec.
        unsafe {
            command.pre_exec(move || {
                let limit = libc::rlimit {
                    rlim_cur: soft,
                    rlim_max: hard,
                };
                if libc::setrlimit(libc::RLIMIT_NOFILE, &limit) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        Server::launch(command, data)
    }

    fn command(data: &TempDir, env: &[(&str, &str)]) -> Command {
        let mut command = Command::new(env!("CARGO_BIN_EXE_ortak"));
        command
            .arg("serve")
            .env("ORTAK_ADDR", "127.0.0.1:0")
            .env("ORTAK_DATA_DIR", data.path())
            .env("RUST_LOG", "warn")
            .envs(env.iter().copied())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit());
        command
    }

    fn launch(mut command: Command, data: TempDir) -> Server {
        let mut child = command.spawn().expect("the ortak binary starts");
        let stdout = child.stdout.take().unwrap();
        let output = Arc::new(Mutex::new(Vec::new()));
        let (tx, rx) = std::sync::mpsc::channel();
        let sink = output.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if let Some(rest) = line.split("listening on ").nth(1) {
                    let _ = tx.send(rest.split_whitespace().next().unwrap_or("").to_owned());
                }
                sink.lock().unwrap().push(line);
            }
        });
        let base = rx
            .recv_timeout(Duration::from_secs(30))
            .expect("the server reports its address");
        Server {
            child,
            base,
            data,
            output,
        }
    }

    /// The value of the series `series` (name and labels) on `/metrics`, if it was counted yet.
    pub async fn metric(&self, series: &str) -> Option<u64> {
        text(&client(), self.url("/metrics"))
            .await
            .lines()
            .find_map(|l| l.strip_prefix(series)?.strip_prefix(' '))
            .and_then(|n| n.trim().parse().ok())
    }

    /// Rounds of the background jobs run whole so far (`ortak_job_rounds_total`).
    pub async fn job_rounds(&self) -> u64 {
        self.metric("ortak_job_rounds_total").await.unwrap_or(0)
    }

    /// Runs a round of the background jobs now (`SIGUSR1`) and returns once one round started
    /// after this call has run whole: what "the next tick" does, without waiting for the timer.
    pub async fn run_jobs(&self) {
        let before = self.job_rounds().await;
        for _ in 0..500 {
            // A round under way when the signal comes ends first (one more); the one the signal
            // asked for is the second.
            // SAFETY: kill(2) on our own child's pid, with a signal the server handles.
            unsafe { libc::kill(self.pid() as libc::pid_t, libc::SIGUSR1) };
            tokio::time::sleep(Duration::from_millis(20)).await;
            if self.job_rounds().await >= before + 2 {
                return;
            }
        }
        panic!("no round of the background jobs ran in 10 s");
    }

    /// The server's process id (for its memory figures in `/proc`).
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    pub async fn db(&self) -> SqlitePool {
        let url = format!("sqlite://{}", self.data.path().join("ortak.db").display());
        SqlitePool::connect(&url).await.unwrap()
    }

    /// GETs a page with a fresh cookie jar and returns (status, body).
    pub async fn get(&self, path: &str) -> (u16, String) {
        let response = client().get(self.url(path)).send().await.unwrap();
        (response.status().as_u16(), response.text().await.unwrap())
    }

    /// Stops the server gracefully (SIGTERM) and returns its data folder.
    pub fn stop(mut self) -> TempDir {
        let _ = Command::new("kill")
            .arg("-TERM")
            .arg(self.child.id().to_string())
            .status();
        let _ = self.child.wait();
        std::mem::replace(&mut self.data, TempDir::new().unwrap())
    }
}

impl Server {
    /// Kills the server at once (SIGKILL: no shutdown, no flush) and returns its data folder.
    pub fn kill(mut self) -> TempDir {
        let _ = self.child.kill();
        let _ = self.child.wait();
        std::mem::replace(&mut self.data, TempDir::new().unwrap())
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The CSRF token a page's forms carry.
pub fn csrf_of(html: &str) -> String {
    let marker = "name=\"csrf\" value=\"";
    let start = html.find(marker).expect("page has a CSRF field") + marker.len();
    html[start..start + html[start..].find('"').unwrap()].to_owned()
}

/// The text of the first `<h1>`.
pub fn h1_of(html: &str) -> String {
    let open = html.find("<h1").expect("page has an h1");
    let start = open + html[open..].find('>').unwrap() + 1;
    html[start..start + html[start..].find("</h1>").unwrap()].to_owned()
}

/// The current UTC time as the database writes it.
pub fn now_text() -> String {
    time::OffsetDateTime::now_utc()
        .replace_nanosecond(0)
        .unwrap()
        .format(&time::format_description::well_known::Rfc3339)
        .unwrap()
}

/// GETs `url` with `browser` and returns the body.
pub async fn text(browser: &reqwest::Client, url: impl reqwest::IntoUrl) -> String {
    browser.get(url).send().await.unwrap().text().await.unwrap()
}

/// One route of the table `ortak routes` prints: the router's own list, so a new route
/// cannot escape the tests that walk it.
#[derive(serde::Deserialize, Clone, Debug)]
pub struct RouteInfo {
    pub method: String,
    pub path: String,
    /// `public`, `member`, `staff`, `super-admin` or `fund`.
    pub access: String,
    pub nav: Option<String>,
}

/// Every route the server mounts, with its access level.
pub fn route_table() -> Vec<RouteInfo> {
    let output = Command::new(env!("CARGO_BIN_EXE_ortak"))
        .arg("routes")
        .output()
        .expect("ortak routes runs");
    assert!(output.status.success(), "ortak routes failed");
    serde_json::from_slice(&output.stdout).expect("ortak routes prints JSON")
}

/// `(pattern, has GET, has POST)` of every route path.
pub fn registered_routes() -> Vec<(String, bool, bool)> {
    let mut routes: Vec<(String, bool, bool)> = Vec::new();
    for route in route_table() {
        let (get, post) = (route.method == "GET", route.method == "POST");
        match routes.iter_mut().find(|(p, ..)| *p == route.path) {
            Some(entry) => {
                entry.1 |= get;
                entry.2 |= post;
            }
            None => routes.push((route.path, get, post)),
        }
    }
    routes
}

/// Whether `path` fits the router pattern (`{name}` matches one segment).
pub fn matches_pattern(pattern: &str, path: &str) -> bool {
    let (a, b): (Vec<&str>, Vec<&str>) = (pattern.split('/').collect(), path.split('/').collect());
    a.len() == b.len()
        && a.iter()
            .zip(&b)
            .all(|(p, s)| (p.starts_with('{') && !s.is_empty()) || p == s)
}
