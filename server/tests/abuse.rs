//! The attacks of issue 12 on limits and storage, performed against the real server: rate
//! limits behind the documented reverse proxy (item 8), anonymous disk filling through uploads
//! (item 9), counters and drafts that grew without bound (item 15), and a flood of newsletter
//! subscriptions from one client (item 17).

use crate::common;

use std::path::{Path, PathBuf};
use std::time::Duration;

use common::journeys::{ADMIN_PASSWORD, create_admin, csrf};
use common::{Server, client, csrf_of, scalar};
use reqwest::multipart::{Form, Part};
use tempfile::TempDir;

const PDF: &[u8] = b"%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\n%%EOF\n";

/// A server whose clock the test moves (`ORTAK_CLOCK_FILE`) and whose jobs run every second.
fn start_with_clock(data: TempDir, env: &[(&str, &str)]) -> (Server, PathBuf, TempDir) {
    let dir = TempDir::new().unwrap();
    let clock = dir.path().join("offset");
    std::fs::write(&clock, "0").unwrap();
    let mut all = vec![
        ("ORTAK_CLOCK_FILE", clock.to_str().unwrap()),
        ("ORTAK_JOBS_INTERVAL_SECONDS", "1"),
    ];
    all.extend_from_slice(env);
    (Server::start_in(data, &all), clock, dir)
}

fn move_clock(clock: &Path, seconds: i64) {
    std::fs::write(clock, seconds.to_string()).unwrap();
}

/// Waits up to 10 s for `sql` to count `expected`.
async fn wait_for_count(server: &Server, sql: &str, expected: i64) {
    for _ in 0..100 {
        if scalar(server, sql).await == expected {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(scalar(server, sql).await, expected, "{sql}");
}

fn files_in(server: &Server, folder: &str) -> usize {
    // The demo's own files (its investors' evidence) are not the member's.
    std::fs::read_dir(server.data.path().join(folder)).map_or(0, |d| {
        d.filter(|f| {
            !f.as_ref()
                .is_ok_and(|f| f.file_name().to_string_lossy().starts_with("demo-"))
        })
        .count()
    })
}

/// A password sign-in from `client_address`, as the proxy forwards it.
async fn sign_in_from(
    browser: &reqwest::Client,
    server: &Server,
    token: &str,
    forwarded_for: &str,
    email: &str,
    password: &str,
) -> u16 {
    browser
        .post(server.url("/signin"))
        .header("x-forwarded-for", forwarded_for)
        .form(&[("csrf", token), ("email", email), ("password", password)])
        .send()
        .await
        .unwrap()
        .status()
        .as_u16()
}

// ---- item 8: rate limits behind a reverse proxy ---------------------------------------------

#[tokio::test]
async fn behind_a_trusted_proxy_each_client_has_its_own_limits() {
    let data = TempDir::new().unwrap();
    create_admin(&data, "super@example.com", true);
    let server = Server::start_in(data, &[("ORTAK_TRUSTED_PROXIES", "127.0.0.1, ::1")]);
    let attacker = client();
    let token = csrf(&attacker, &server, "/signin").await;
    // Thirty-five failures, each from another address behind the proxy (and for made-up
    // accounts): none of them is the superadmin's limit.
    for i in 0..35 {
        let status = sign_in_from(
            &attacker,
            &server,
            &token,
            &format!("203.0.113.{i}"),
            &format!("guess-{i}@example.com"),
            "wrong-password",
        )
        .await;
        assert_eq!(status, 422, "attempt {i}");
    }
    let owner = client();
    let token = csrf(&owner, &server, "/signin").await;
    let status = sign_in_from(
        &owner,
        &server,
        &token,
        "198.51.100.1",
        "super@example.com",
        ADMIN_PASSWORD,
    )
    .await;
    assert_eq!(status, 303, "the superadmin still signs in");

    // One address is limited after thirty failures, whatever it writes before the proxy's hop.
    let token = csrf(&attacker, &server, "/signin").await;
    let mut statuses = Vec::new();
    for i in 0..31 {
        let hops = format!("10.0.{i}.1, 192.0.2.{i}, 203.0.113.200");
        let email = format!("other-{i}@example.com");
        statuses.push(sign_in_from(&attacker, &server, &token, &hops, &email, "nope-nope").await);
    }
    assert!(statuses[..30].iter().all(|s| *s == 422), "{statuses:?}");
    assert_eq!(
        statuses[30], 429,
        "the right-most untrusted hop is the client"
    );
}

#[tokio::test]
async fn without_trusted_proxies_the_forwarded_header_changes_nothing() {
    let server = Server::start_in(TempDir::new().unwrap(), &[]);
    let attacker = client();
    let token = csrf(&attacker, &server, "/signin").await;
    let mut statuses = Vec::new();
    for i in 0..31 {
        let spoofed = format!("198.51.100.{i}");
        let email = format!("x{i}@example.com");
        statuses
            .push(sign_in_from(&attacker, &server, &token, &spoofed, &email, "nope-nope").await);
    }
    assert_eq!(statuses[30], 429, "{statuses:?}");
}

#[tokio::test]
async fn only_failures_count_and_a_success_clears_the_accounts_failures() {
    let data = TempDir::new().unwrap();
    create_admin(&data, "admin@example.com", false);
    let server = Server::start_in(data, &[]);
    let browser = client();
    let token = csrf(&browser, &server, "/signin").await;
    let sign_in = |password: &'static str| {
        let (browser, token) = (browser.clone(), token.clone());
        let url = server.url("/signin");
        async move {
            browser
                .post(url)
                .form(&[
                    ("csrf", token.as_str()),
                    ("email", "admin@example.com"),
                    ("password", password),
                ])
                .send()
                .await
                .unwrap()
                .status()
                .as_u16()
        }
    };
    // A busy office behind one address signs in over and over: successes cost nothing.
    for i in 0..40 {
        assert_eq!(sign_in(ADMIN_PASSWORD).await, 303, "sign-in {i}");
    }
    // Four typos, a success, four typos: the success forgot the first four.
    let mut passwords = vec!["wrong-1"; 4];
    passwords.push(ADMIN_PASSWORD);
    passwords.extend(["wrong-2"; 4]);
    let mut statuses = Vec::new();
    for password in passwords {
        statuses.push(sign_in(password).await);
    }
    assert_eq!(statuses, [422, 422, 422, 422, 303, 422, 422, 422, 422]);
    // The account's limit still holds for failures in a row.
    assert_eq!(sign_in("wrong-3").await, 422);
    assert_eq!(sign_in(ADMIN_PASSWORD).await, 429);
}

#[tokio::test]
async fn finished_rate_limit_windows_are_purged() {
    let (server, clock, _dir) = start_with_clock(TempDir::new().unwrap(), &[]);
    let browser = client();
    let token = csrf(&browser, &server, "/signin").await;
    for i in 0..20 {
        sign_in_from(
            &browser,
            &server,
            &token,
            "",
            &format!("someone-{i}@example.com"),
            "nope-nope",
        )
        .await;
    }
    assert!(scalar(&server, "SELECT COUNT(*) FROM rate_limits").await >= 21);
    // One hour later every fifteen-minute window is over: the hourly job deletes them.
    move_clock(&clock, 3600);
    wait_for_count(&server, "SELECT COUNT(*) FROM rate_limits", 0).await;
}

// ---- item 9: uploads ------------------------------------------------------------------------

fn step_one(csrf: &str, name: &str, file: Option<Vec<u8>>) -> Form {
    let mut form = Form::new()
        .text("csrf", csrf.to_owned())
        .text("name", name.to_owned())
        .text("sector", "fintech")
        .text("country", "Türkiye")
        .text("city", "Ankara")
        .text("description", "Ödeme altyapısı.");
    if let Some(bytes) = file {
        form = form.part("presentation", Part::bytes(bytes).file_name("deck.pdf"));
    }
    form
}

/// A fresh visitor posts the first step; its status.
async fn fresh_visitor_posts(server: &Server, name: &str, file: Option<Vec<u8>>) -> u16 {
    let browser = client();
    let page = common::text(&browser, server.url("/projectFlow/1")).await;
    let sent = browser
        .post(server.url("/projectFlow/1"))
        .multipart(step_one(&csrf_of(&page), name, file))
        .send()
        .await;
    // A body over the route's limit may be answered before it is all sent.
    sent.map_or(413, |r| r.status().as_u16())
}

fn big_pdf(size: usize) -> Vec<u8> {
    let mut bytes = PDF.to_vec();
    bytes.resize(size, b' ');
    bytes
}

#[tokio::test]
async fn anonymous_applications_cannot_fill_the_disk() {
    let server = Server::start_in(TempDir::new().unwrap(), &[]);
    // A refused step stores nothing, however good its file.
    for _ in 0..3 {
        let status = fresh_visitor_posts(&server, "", Some(big_pdf(5 * 1024 * 1024 - 4096))).await;
        assert_eq!(status, 422);
    }
    assert_eq!(files_in(&server, "applications"), 0);
    assert_eq!(
        scalar(&server, "SELECT COUNT(*) FROM startup_applications").await,
        0
    );
    // A body far over the limit is cut off and leaves nothing, not even a temporary file.
    let status = fresh_visitor_posts(&server, "Büyük", Some(big_pdf(16 * 1024 * 1024))).await;
    assert!((400..500).contains(&status), "{status}");
    assert_eq!(files_in(&server, "applications"), 0);
    assert_eq!(files_in(&server, "tmp"), 0);

    // One file per draft: sending the step again replaces it.
    let browser = client();
    let page = common::text(&browser, server.url("/projectFlow/1")).await;
    for _ in 0..3 {
        let sent = browser
            .post(server.url("/projectFlow/1"))
            .multipart(step_one(&csrf_of(&page), "Tek Dosya", Some(PDF.to_vec())))
            .send()
            .await
            .unwrap();
        assert_eq!(sent.status(), 303);
    }
    assert_eq!(files_in(&server, "applications"), 1);

    // Ten new drafts an hour from one address (the one above counts): nine more, then none.
    let mut statuses = Vec::new();
    for i in 0..10 {
        let name = format!("Girişim {i}");
        statuses.push(fresh_visitor_posts(&server, &name, Some(PDF.to_vec())).await);
    }
    let mut expected = vec![303; 9];
    expected.push(429);
    assert_eq!(statuses, expected);
    assert_eq!(
        scalar(&server, "SELECT COUNT(*) FROM startup_applications").await,
        10
    );
    assert_eq!(files_in(&server, "applications"), 10);
}

/// The server's peak resident memory (VmHWM) in kB.
fn peak_memory_kb(server: &Server) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{}/status", server.pid())).unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap()
}

#[tokio::test]
async fn uploads_stream_to_disk_instead_of_memory() {
    let server = Server::start_in(TempDir::new().unwrap(), &[]);
    let browser = client();
    let page = common::text(&browser, server.url("/projectFlow/1")).await;
    let token = csrf_of(&page);
    // Warm up: one small upload.
    let warm = browser
        .post(server.url("/projectFlow/1"))
        .multipart(step_one(&token, "", Some(PDF.to_vec())))
        .send()
        .await
        .unwrap();
    assert_eq!(warm.status(), 422);
    let before = peak_memory_kb(&server);
    // Sixteen 5 MB uploads at once (refused steps, so the rate limit does not interfere).
    let mut uploads = Vec::new();
    for _ in 0..16 {
        let (browser, url, token) = (browser.clone(), server.url("/projectFlow/1"), token.clone());
        uploads.push(tokio::spawn(async move {
            let form = step_one(&token, "", Some(big_pdf(5 * 1024 * 1024 - 4096)));
            browser
                .post(url)
                .multipart(form)
                .send()
                .await
                .unwrap()
                .status()
        }));
    }
    for upload in uploads {
        assert_eq!(upload.await.unwrap(), 422);
    }
    let grown_mb = (peak_memory_kb(&server).saturating_sub(before)) / 1024;
    eprintln!("peak memory grew by {grown_mb} MB");
    // Held whole, sixteen bodies would take 80 MB and more.
    assert!(grown_mb < 40, "peak memory grew by {grown_mb} MB");
    assert_eq!(files_in(&server, "tmp"), 0, "temporary files are removed");
}

#[tokio::test]
async fn stale_drafts_are_purged_with_their_files() {
    let (server, clock, _dir) = start_with_clock(TempDir::new().unwrap(), &[]);
    assert_eq!(
        fresh_visitor_posts(&server, "Eski", Some(PDF.to_vec())).await,
        303
    );
    assert_eq!(files_in(&server, "applications"), 1);
    // A month later, untouched: the draft and its file are gone; a draft started now stays.
    move_clock(&clock, 31 * 24 * 3600);
    wait_for_count(&server, "SELECT COUNT(*) FROM startup_applications", 0).await;
    assert_eq!(files_in(&server, "applications"), 0);
    assert_eq!(
        fresh_visitor_posts(&server, "Yeni", Some(PDF.to_vec())).await,
        303
    );
    server.run_jobs().await;
    server.run_jobs().await;
    assert_eq!(
        scalar(&server, "SELECT COUNT(*) FROM startup_applications").await,
        1
    );
    assert_eq!(files_in(&server, "applications"), 1);
}

/// A member of `server` whose address is verified, signed in.
async fn verified_member(server: &Server, email: &str) -> reqwest::Client {
    let browser = common::journeys::sign_up(server, email).await;
    sqlx::query("UPDATE users SET email_verified_at = '2026-11-01T00:00:00Z' WHERE email = ?")
        .bind(email)
        .execute(&server.db().await)
        .await
        .unwrap();
    browser
}

fn declaration(token: &str, file: &[u8]) -> Form {
    Form::new()
        .text("csrf", token.to_owned())
        .text("basis", "income")
        .text("declare", "on")
        .part(
            "evidence",
            Part::bytes(file.to_vec()).file_name("kanit.pdf"),
        )
}

#[tokio::test]
async fn qualified_evidence_is_one_pending_file_per_member_and_rate_limited() {
    let server = Server::start_in(TempDir::new().unwrap(), &[("ORTAK_DEMO", "1")]);
    let member = verified_member(&server, "nitelikli@example.com").await;
    let token = csrf(&member, &server, "/qualifiedInvestor").await;
    let post = || {
        member
            .post(server.url("/qualifiedInvestor"))
            .multipart(declaration(&token, &big_pdf(1024 * 1024)))
            .send()
    };
    for _ in 0..3 {
        assert_eq!(post().await.unwrap().status(), 303);
    }
    // Each new declaration replaced the pending one and its file.
    assert_eq!(
        scalar(&server, "SELECT COUNT(*) FROM qualified_declarations WHERE user_id NOT IN (SELECT id FROM users WHERE email LIKE '%@demo.ortak.local')").await,
        1
    );
    assert_eq!(files_in(&server, "qualified"), 1);
    // Ten an hour (these three included).
    let mut statuses = Vec::new();
    for _ in 0..8 {
        statuses.push(post().await.unwrap().status().as_u16());
    }
    assert_eq!(statuses, [303, 303, 303, 303, 303, 303, 303, 429]);
    assert_eq!(files_in(&server, "qualified"), 1);

    // An address nobody proved cannot send evidence.
    let unverified = common::journeys::sign_up(&server, "dogrulanmamis@example.com").await;
    let token = csrf(&unverified, &server, "/qualifiedInvestor").await;
    let refused = unverified
        .post(server.url("/qualifiedInvestor"))
        .multipart(declaration(&token, PDF))
        .send()
        .await
        .unwrap();
    assert_eq!(refused.status(), 403);
    assert!(
        refused
            .text()
            .await
            .unwrap()
            .contains("e-posta adresinizi doğrulayın")
    );
    assert_eq!(
        scalar(&server, "SELECT COUNT(*) FROM qualified_declarations WHERE user_id NOT IN (SELECT id FROM users WHERE email LIKE '%@demo.ortak.local')").await,
        1
    );
    assert_eq!(files_in(&server, "qualified"), 1);
}

// ---- item 17: a newsletter flood ------------------------------------------------------------

#[tokio::test]
async fn a_newsletter_flood_from_one_client_is_limited_and_loses_nothing() {
    let data = TempDir::new().unwrap();
    create_admin(&data, "admin@example.com", false);
    let server = Server::start_in(data, &[]);
    let admin = common::journeys::sign_in(&server, "admin@example.com", ADMIN_PASSWORD).await;
    let browser = client();
    let page = common::text(&browser, server.url("/")).await;
    let token = csrf_of(&page);
    let deadline = tokio::time::Instant::now() + Duration::from_secs(3);
    let mut writers = Vec::new();
    for w in 0..64 {
        let (browser, url, token) = (
            browser.clone(),
            server.url("/api/newsletter"),
            token.clone(),
        );
        writers.push(tokio::spawn(async move {
            let mut answers = Vec::new();
            let mut i = 0;
            while tokio::time::Instant::now() < deadline {
                let email = format!("uydurma-{w}-{i}@example.com");
                let status = browser
                    .post(&url)
                    .header("x-csrf-token", &token)
                    .json(&serde_json::json!({ "email": email }))
                    .send()
                    .await
                    .unwrap()
                    .status()
                    .as_u16();
                answers.push((email, status));
                i += 1;
            }
            answers
        }));
    }
    let mut answers = Vec::new();
    for writer in writers {
        answers.extend(writer.await.unwrap());
    }
    assert!(
        answers.len() > 200,
        "the flood was a flood: {}",
        answers.len()
    );
    let server_errors: Vec<_> = answers.iter().filter(|(_, s)| *s >= 500).collect();
    assert!(server_errors.is_empty(), "{server_errors:?}");
    let taken: Vec<&String> = answers
        .iter()
        .filter(|(_, s)| *s == 200)
        .map(|(e, _)| e)
        .collect();
    assert!(answers.iter().all(|(_, s)| *s == 200 || *s == 429));
    assert_eq!(taken.len(), 20, "twenty requests an hour from one client");
    // Nothing acknowledged was lost, nothing else was stored, and nobody is subscribed yet.
    let db = server.db().await;
    for email in &taken {
        let mails: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM outbox WHERE to_email = ?")
            .bind(email)
            .fetch_one(&db)
            .await
            .unwrap();
        assert_eq!(mails, 1, "{email}'s confirmation mail");
    }
    assert_eq!(
        scalar(&server, "SELECT COUNT(*) FROM newsletter_subscribers").await,
        20
    );
    assert_eq!(
        scalar(
            &server,
            "SELECT COUNT(*) FROM newsletter_subscribers WHERE confirmed_at IS NOT NULL"
        )
        .await,
        0
    );
    // The staff export lists none of them.
    let csv = common::text(&admin, server.url("/dashboard/newsletter.csv")).await;
    assert!(!csv.contains("uydurma-"));
}
