//! The operations contract: migrations, admins, backups, demo sign-in, graceful restarts.

mod common;

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
    assert!(ortak(&data, &["migrate"]).status.success());
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
