//! The operations contract: migrations, admins, backups, demo sign-in, graceful restarts.

use crate::common;

use std::process::Command;

use common::Server;
use tempfile::TempDir;

fn ortak(data: &TempDir, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_ortak"))
        .args(args)
        .env("ORTAK_DATA_DIR", data.path())
        .env("RUST_LOG", "warn")
        .output()
        .unwrap()
}

#[tokio::test]
async fn demo_prints_an_admin_sign_in_once_and_content_survives_restarts() {
    let server = Server::start();
    let printed = server.output.lock().unwrap().join("\n");
    assert!(printed.contains("admin@ortak.local"), "{printed}");
    assert!(printed.contains("password: "), "{printed}");
    let data = server.stop();

    let server = Server::start_in(data, &[("ORTAK_DEMO", "1")]);
    assert!(
        !server
            .output
            .lock()
            .unwrap()
            .join("\n")
            .contains("password: ")
    );
    let (status, _) = server.get("/politikalar/kvkk-genel-aydinlatma-metni").await;
    assert_eq!(status, 200);
    let db = server.db().await;
    let (admins,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM users WHERE role = 'superadmin'")
        .fetch_one(&db)
        .await
        .unwrap();
    assert_eq!(admins, 1);
    let (pages,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM pages")
        .fetch_one(&db)
        .await
        .unwrap();
    assert_eq!(pages, 10, "nine policies and /techinvestor, seeded once");
}

#[tokio::test]
async fn without_demo_policies_exist_but_no_blog_or_admin() {
    let server = Server::start_in(TempDir::new().unwrap(), &[]);
    assert_eq!(server.get("/politikalar/genel-risk-bildirimi").await.0, 200);
    assert_eq!(server.get("/faq").await.0, 200);
    let (_, blog) = server.get("/blog").await;
    assert!(blog.contains("Henüz yayımlanmış yazı yok."));
    assert!(
        !server
            .output
            .lock()
            .unwrap()
            .join("\n")
            .contains("password: ")
    );
}

#[tokio::test]
async fn create_admin_migrate_and_backup_work_from_the_command_line() {
    let data = TempDir::new().unwrap();
    assert!(ortak(&data, &["migrate", "--create"]).status.success());
    let out = ortak(
        &data,
        &[
            "create-admin",
            "--email",
            "Ops@Example.com",
            "--password",
            "long enough",
        ],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = ortak(
        &data,
        &[
            "create-admin",
            "--email",
            "ops@example.com",
            "--password",
            "long enough",
            "--super",
        ],
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("superadmin"));
    let short = ortak(
        &data,
        &[
            "create-admin",
            "--email",
            "x@example.com",
            "--password",
            "short",
        ],
    );
    assert!(!short.status.success());

    let server = Server::start_in(data, &[]);
    let backup_dir = TempDir::new().unwrap();
    let backup = backup_dir.path().join("copy.db");
    let out = Command::new(env!("CARGO_BIN_EXE_ortak"))
        .args(["backup", backup.to_str().unwrap()])
        .env("ORTAK_DATA_DIR", server.data.path())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    // A fresh server opens the copy as its database.
    let restored = TempDir::new().unwrap();
    std::fs::copy(&backup, restored.path().join("ortak.db")).unwrap();
    let copy = Server::start_in(restored, &[]);
    let db = copy.db().await;
    let (role,): (String,) =
        sqlx::query_as("SELECT role FROM users WHERE email = 'ops@example.com'")
            .fetch_one(&db)
            .await
            .unwrap();
    assert_eq!(role, "superadmin");
    let (hash,): (String,) = sqlx::query_as("SELECT password_hash FROM users")
        .fetch_one(&db)
        .await
        .unwrap();
    assert!(hash.starts_with("$argon2id$"));
    assert_eq!(copy.get("/healthz").await.0, 200);
}

/// Applies only the first `n` of the embedded migrations, as an older Ortak would have.
async fn migrate_to(data: &TempDir, n: usize) {
    let url = format!(
        "sqlite://{}?mode=rwc",
        data.path().join("ortak.db").display()
    );
    let pool = sqlx::SqlitePool::connect(&url).await.unwrap();
    let all = sqlx::migrate!("./migrations");
    let older = sqlx::migrate::Migrator {
        migrations: std::borrow::Cow::Owned(all.iter().take(n).cloned().collect()),
        ..sqlx::migrate::Migrator::DEFAULT
    };
    older.run(&pool).await.unwrap();
    pool.close().await;
}

#[tokio::test]
async fn migrating_an_existing_database_takes_a_backup_first() {
    let data = TempDir::new().unwrap();
    let total = sqlx::migrate!("./migrations").iter().count();
    migrate_to(&data, total - 1).await;

    let out = ortak(&data, &["migrate"]);
    assert!(out.status.success(), "{out:?}");
    let backups: Vec<_> = std::fs::read_dir(data.path().join("backups"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(backups.len(), 1, "one backup before the pending migration");
    // The backup is the database as it was: one migration short.
    let copy = sqlx::SqlitePool::connect(&format!("sqlite://{}", backups[0].display()))
        .await
        .unwrap();
    let applied: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM _sqlx_migrations")
        .fetch_one(&copy)
        .await
        .unwrap();
    assert_eq!(applied as usize, total - 1);
    assert!(String::from_utf8_lossy(&out.stdout).contains("Backup before migrating"));

    // Up to date: nothing to back up.
    assert!(ortak(&data, &["migrate"]).status.success());
    assert_eq!(
        std::fs::read_dir(data.path().join("backups"))
            .unwrap()
            .count(),
        1
    );
}

#[tokio::test]
async fn a_database_from_a_newer_ortak_is_refused_with_a_clear_message() {
    let data = TempDir::new().unwrap();
    assert!(ortak(&data, &["migrate", "--create"]).status.success());
    let db = sqlx::SqlitePool::connect(&format!(
        "sqlite://{}",
        data.path().join("ortak.db").display()
    ))
    .await
    .unwrap();
    sqlx::query(
        "INSERT INTO _sqlx_migrations (version, description, success, checksum, execution_time)
         VALUES (99990101, 'from the future', 1, x'00', 0)",
    )
    .execute(&db)
    .await
    .unwrap();
    db.close().await;
    for command in [["migrate"], ["serve"]] {
        let out = Command::new(env!("CARGO_BIN_EXE_ortak"))
            .args(command)
            .env("ORTAK_DATA_DIR", data.path())
            .env("ORTAK_ADDR", "127.0.0.1:0")
            .output()
            .unwrap();
        assert!(!out.status.success(), "{command:?} must refuse");
        let said = String::from_utf8_lossy(&out.stderr);
        assert!(said.contains("migrated by a newer Ortak"), "{said}");
    }
}

/// Issue 30: `ortak backup FILE` from the wrong folder wrote an empty 4 KB database, said
/// "Backup written" and exited 0.
#[tokio::test]
async fn commands_refuse_a_folder_without_a_database_unless_asked_to_create_one() {
    let wrong = TempDir::new().unwrap();
    let copy = wrong.path().join("copy.db");
    let copy_arg = copy.to_str().unwrap();
    for args in [
        vec!["backup", copy_arg],
        vec!["migrate"],
        vec![
            "create-admin",
            "--email",
            "ops@example.com",
            "--password",
            "long enough",
        ],
    ] {
        let out = ortak(&wrong, &args);
        assert!(!out.status.success(), "{args:?} must refuse");
        let said = String::from_utf8_lossy(&out.stderr);
        assert!(
            said.contains("no Ortak database at") && said.contains("--create"),
            "{said}"
        );
        assert!(!String::from_utf8_lossy(&out.stdout).contains("written"));
    }
    assert!(!copy.exists(), "no backup file");
    assert!(
        !wrong.path().join("ortak.db").exists(),
        "no database was made"
    );

    // An empty database file is not backed up either.
    std::fs::write(wrong.path().join("ortak.db"), b"").unwrap();
    let out = ortak(&wrong, &["backup", copy_arg]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("nothing to back up"));
    assert!(!copy.exists());
}

#[tokio::test]
async fn only_the_newest_pre_migration_backups_are_kept() {
    let data = TempDir::new().unwrap();
    let total = sqlx::migrate!("./migrations").iter().count();
    migrate_to(&data, total - 1).await;
    let backups = data.path().join("backups");
    std::fs::create_dir_all(&backups).unwrap();
    // Four older upgrades' copies, and a file of the operator's own.
    for stamp in [1_700_000_000, 1_700_000_100, 1_700_000_200, 1_700_000_300] {
        let name = format!("ortak-before-migration-40-{stamp}.db");
        std::fs::write(backups.join(name), b"old").unwrap();
    }
    std::fs::write(backups.join("keep-me.db"), b"mine").unwrap();
    let out = ortak(&data, &["migrate"]);
    assert!(out.status.success(), "{out:?}");
    let mut left: Vec<String> = std::fs::read_dir(&backups)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    left.sort();
    assert_eq!(left.len(), 4, "{left:?}");
    assert_eq!(left[0], "keep-me.db");
    assert_eq!(left[1], "ortak-before-migration-40-1700000200.db");
    assert_eq!(left[2], "ortak-before-migration-40-1700000300.db");
    assert!(left[3].starts_with(&format!("ortak-before-migration-{}-", total_version())));
}

/// The newest migration's version, as the backup's name carries it.
fn total_version() -> i64 {
    sqlx::migrate!("./migrations")
        .iter()
        .map(|m| m.version)
        .max()
        .unwrap()
}

/// The soft open-files limit of the server's process, from `/proc`.
fn soft_open_files(server: &Server) -> u64 {
    let limits = std::fs::read_to_string(format!("/proc/{}/limits", server.pid())).unwrap();
    let line = limits
        .lines()
        .find(|l| l.starts_with("Max open files"))
        .unwrap();
    line.split_whitespace().nth(3).unwrap().parse().unwrap()
}

/// Issue 30: at the default 1,024 open files, 2,000 clients broke accepts and health probes.
#[tokio::test]
async fn the_server_raises_its_open_files_limit_and_serves_within_it() {
    // A soft limit of 256 under a hard one of 4,096 (or this machine's, when lower): raised
    // to the hard one at start.
    let mut own = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: `own` is a writable `rlimit` for the call to fill.
    assert_eq!(unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut own) }, 0);
    let hard = own.rlim_max.min(4096);
    let server = Server::start_with_open_files(&[], 256, hard);
    assert_eq!(soft_open_files(&server), hard);
    assert_eq!(server.get("/healthz").await.0, 200);
    assert!(
        !server
            .output
            .lock()
            .unwrap()
            .join("\n")
            .contains("LimitNOFILE")
    );

    // A hard limit of 512 cannot hold 900 connections: the server says so and serves fewer.
    let small = Server::start_with_open_files(&[("RUST_LOG", "warn")], 256, 512);
    assert_eq!(soft_open_files(&small), 512);
    assert_eq!(small.get("/healthz").await.0, 200);
    let said = small.output.lock().unwrap().join("\n");
    assert!(
        said.contains("raise LimitNOFILE") && said.contains("connections=384"),
        "{said}"
    );
}

#[tokio::test]
async fn metrics_answer_the_local_host_or_the_token_holder_only() {
    let data = TempDir::new().unwrap();
    let server = Server::start_in(data, &[("ORTAK_METRICS_TOKEN", "olcum-anahtari")]);
    // Some traffic first: a page with a path parameter and a 404.
    assert_eq!(server.get("/blog/no-such-post").await.0, 404);
    assert_eq!(server.get("/faq").await.0, 200);

    let local = common::client()
        .get(server.url("/metrics"))
        .send()
        .await
        .unwrap();
    assert_eq!(local.status(), 200);
    let body = local.text().await.unwrap();
    for metric in [
        "ortak_http_requests_total",
        "ortak_http_request_duration_seconds_bucket",
        "ortak_outbox_pending",
        "ortak_outbox_oldest_age_seconds",
        "ortak_database_bytes",
        "ortak_wal_bytes",
        // What the alerts need of the process and its disk (issue 30).
        "ortak_disk_free_bytes",
        "ortak_resident_memory_bytes",
        "ortak_open_files",
        "ortak_build_info{version=",
    ] {
        assert!(body.contains(metric), "{metric} in\n{body}");
    }
    let gauge = |name: &str| -> f64 {
        let line = body
            .lines()
            .find(|l| l.starts_with(&format!("{name} ")))
            .unwrap();
        line.split_whitespace().nth(1).unwrap().parse().unwrap()
    };
    assert!(gauge("ortak_disk_free_bytes") > 0.0);
    assert!(gauge("ortak_resident_memory_bytes") > 1_000_000.0);
    assert!(gauge("ortak_open_files") >= 3.0);
    // By route pattern, never by raw path.
    assert!(body.contains("route=\"/blog/{slug}\""), "{body}");
    assert!(!body.contains("no-such-post"));
    assert!(body.contains("route=\"/faq\""));

    // Through a reverse proxy on the same host: as if from outside.
    let relayed = |token: Option<&str>| {
        let mut request = common::client()
            .get(server.url("/metrics"))
            .header("x-forwarded-for", "203.0.113.7");
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        request.send()
    };
    assert_eq!(relayed(None).await.unwrap().status(), 404);
    assert_eq!(relayed(Some("yanlis")).await.unwrap().status(), 404);
    assert_eq!(relayed(Some("olcum-anahtari")).await.unwrap().status(), 200);
}

#[tokio::test]
async fn sigusr1_runs_a_round_of_the_background_jobs_at_once() {
    // Only the round at start-up comes from the timer.
    let server = Server::start_jobs_on_request();
    let before = server.job_rounds().await;
    server.run_jobs().await;
    server.run_jobs().await;
    assert!(server.job_rounds().await >= before + 2);
    // The server is still there, and answers.
    let home = common::client().get(server.url("/")).send().await.unwrap();
    assert_eq!(home.status(), 200);
}
