//! A full disk must not take the platform down (issue 30): the data folder on a small tmpfs is
//! filled and freed. Before the fix a COMMIT that failed with SQLITE_FULL left its pooled
//! connection marked inside a transaction, so every later write answered 500 ("attempted to
//! call begin_with at non-zero transaction depth") until a restart, while `/healthz` said 200.

use crate::common;

use std::io::Write;
use std::path::Path;
use std::process::Command;

use common::Server;
use common::journeys::{csrf, post_form, sign_up};
use tempfile::TempDir;

/// `program` run as root: directly when this process is root, else through `sudo -n`.
fn as_root(program: &str) -> Command {
    if is_root() {
        Command::new(program)
    } else {
        let mut command = Command::new("sudo");
        command.args(["-n", program]);
        command
    }
}

/// Mounts a tmpfs of `megabytes` on `dir` (the test command runs as root, or with sudo).
fn mount_tmpfs(dir: &Path, megabytes: u32) {
    let size = format!("size={megabytes}m");
    let status = as_root("mount")
        .args(["-t", "tmpfs", "-o", size.as_str(), "tmpfs"])
        .arg(dir)
        .status();
    assert!(
        status.is_ok_and(|s| s.success()),
        "the full-disk test mounts a {megabytes} MB tmpfs: run the tests as root or with sudo"
    );
}

fn unmount(dir: &Path) {
    let _ = as_root("umount").arg("-l").arg(dir).status();
}

/// Whether this process runs as root (read from `/proc`).
fn is_root() -> bool {
    std::fs::read_to_string("/proc/self/status")
        .unwrap()
        .lines()
        .find(|l| l.starts_with("Uid:"))
        .and_then(|l| l.split_whitespace().nth(1).map(|uid| uid == "0"))
        .unwrap_or(false)
}

/// Fills the disk holding `dir` with one file until nothing more fits.
fn fill(dir: &Path) -> std::path::PathBuf {
    let path = dir.join("filler");
    let mut file = std::fs::File::create(&path).unwrap();
    let block = vec![0u8; 64 * 1024];
    while file.write_all(&block).and_then(|()| file.flush()).is_ok() {}
    let _ = file.sync_all();
    path
}

/// Saves or unsaves a startup: one small write, as often as the test likes.
async fn toggle(
    server: &Server,
    browser: &reqwest::Client,
    token: &str,
    on: bool,
) -> reqwest::Response {
    post_form(
        browser,
        server.url("/favorites/cemre-enerji"),
        token,
        &[
            ("favorite", if on { "1" } else { "0" }.into()),
            ("return", "/startups".into()),
        ],
    )
    .await
}

#[tokio::test]
async fn writes_come_back_once_a_full_disk_has_room_again() {
    let mount = TempDir::new().unwrap();
    mount_tmpfs(mount.path(), 96);
    let data = mount.path().join("data");
    std::fs::create_dir(&data).unwrap();
    let holder = TempDir::new_in(mount.path()).unwrap();
    let folder = TempDir::new_in(&data).unwrap();
    // As in production with Litestream: no automatic checkpoint, so every commit appends to
    // the WAL and needs new room on the disk.
    let server = Server::start_in(
        folder,
        &[("ORTAK_DEMO", "1"), ("ORTAK_WAL_AUTOCHECKPOINT", "0")],
    );
    let browser = sign_up(&server, "dolu-disk@example.com").await;
    let token = csrf(&browser, &server, "/startups").await;
    assert_eq!(toggle(&server, &browser, &token, true).await.status(), 303);
    assert_eq!(server.get("/healthz").await.0, 200);

    // The disk fills: writes are refused with 503 and a retry hint, never a 500.
    let filler = fill(holder.path());
    let mut refused = 0;
    for i in 0..40 {
        let response = toggle(&server, &browser, &token, i % 2 == 0).await;
        let status = response.status().as_u16();
        assert!(
            matches!(status, 303 | 503),
            "a write on a full disk answered {status}"
        );
        if status == 503 {
            assert_eq!(response.headers()["retry-after"], "5");
            assert!(
                response
                    .text()
                    .await
                    .unwrap()
                    .contains("yeni kayıt alamıyor")
            );
            refused += 1;
        }
    }
    assert!(refused > 0, "the full disk refused no write");

    // Room again: every write works at once, without a restart, and healthz (which begins a
    // write) says so.
    std::fs::remove_file(&filler).unwrap();
    for i in 0..20 {
        let status = toggle(&server, &browser, &token, i % 2 == 0).await.status();
        assert_eq!(status, 303, "write {i} after the disk has room");
    }
    assert_eq!(server.get("/healthz").await.0, 200);
    assert_eq!(server.get("/faq").await.0, 200);

    drop(server);
    drop(holder);
    unmount(mount.path());
}
