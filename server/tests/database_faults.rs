//! Faults of the database's surroundings (issue 30). An operator's `sqlite3` holding the write
//! lock must not freeze the site: before the fix every waiting write held one of the pool's
//! connections inside SQLite's busy wait, so readers queued behind them for the whole busy
//! timeout and writes answered a generic 500. A write-ahead log nobody checkpoints (Litestream
//! stopped) must not grow until the disk is full.

use crate::common;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use common::Server;
use common::journeys::{csrf, post_form, sign_up};
use sqlx::Connection;
use tempfile::TempDir;

#[tokio::test]
async fn reads_answer_while_an_outside_lock_holds_writes_which_answer_a_retry_hint() {
    let server = Server::start();
    let browser = sign_up(&server, "kilit@example.com").await;
    let token = csrf(&browser, &server, "/startups").await;
    let toggle = |on: bool| {
        let (browser, token, url) = (
            browser.clone(),
            token.clone(),
            server.url("/favorites/cemre-enerji"),
        );
        async move {
            let fields = [
                ("favorite", if on { "1" } else { "0" }.to_owned()),
                ("return", "/startups".to_owned()),
            ];
            post_form(&browser, url, &token, &fields).await
        }
    };
    assert_eq!(toggle(true).await.status(), 303);
    // The member reads the confirmation (a session change, itself a write) before the lock.
    let seen = browser.get(server.url("/startups")).send().await.unwrap();
    assert_eq!(seen.status(), 200);

    // The operator's shell takes the write lock and keeps it.
    let db = server.db().await;
    let mut outside = db.acquire().await.unwrap().detach();
    sqlx::query("BEGIN IMMEDIATE")
        .execute(&mut outside)
        .await
        .unwrap();

    // Sixteen members write at once: every write waits for the lock.
    let finished = Arc::new(AtomicUsize::new(0));
    let writes: Vec<_> = (0..16)
        .map(|i| {
            let (finished, write) = (finished.clone(), toggle(i % 2 == 0));
            tokio::spawn(async move {
                let response = write.await;
                finished.fetch_add(1, Ordering::SeqCst);
                let retry = response
                    .headers()
                    .get("retry-after")
                    .map(|v| v.to_str().unwrap().to_owned());
                (
                    response.status().as_u16(),
                    retry,
                    response.text().await.unwrap(),
                )
            })
        })
        .collect();
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;

    // Readers are not behind them: pages answer before any write has given up.
    for path in [
        "/startups",
        "/overview",
        "/favorites",
        "/startups/cemre-enerji",
    ] {
        let page = browser.get(server.url(path)).send().await.unwrap();
        let status = page.status();
        assert_eq!(status, 200, "{path}: {}", page.text().await.unwrap());
    }
    assert_eq!(server.get("/faq").await.0, 200);
    assert_eq!(
        finished.load(Ordering::SeqCst),
        0,
        "the reads waited until writes gave up"
    );

    // The writes give up after the busy timeout with 503 and a retry hint, never a 500.
    for write in writes {
        let (status, retry, body) = write.await.unwrap();
        assert_eq!(status, 503, "{body}");
        assert_eq!(retry.as_deref(), Some("5"));
    }

    // The lock is let go: writes work again at once.
    sqlx::query("ROLLBACK").execute(&mut outside).await.unwrap();
    outside.close().await.unwrap();
    assert_eq!(toggle(false).await.status(), 303);
    assert_eq!(server.get("/healthz").await.0, 200);
}

#[tokio::test]
async fn a_write_ahead_log_nobody_checkpoints_is_bounded() {
    // As in production with Litestream stopped: SQLite's automatic checkpoint is off.
    let server = Server::start_in(
        TempDir::new().unwrap(),
        &[
            ("ORTAK_DEMO", "1"),
            ("ORTAK_WAL_AUTOCHECKPOINT", "0"),
            ("ORTAK_WAL_MAX_MB", "1"),
        ],
    );
    let wal = server.data.path().join("ortak.db-wal");
    let browser = sign_up(&server, "gunluk@example.com").await;
    let token = csrf(&browser, &server, "/startups").await;
    let mut largest = 0;
    for i in 0..400 {
        let fields = [
            ("favorite", if i % 2 == 0 { "1" } else { "0" }.to_owned()),
            ("return", "/startups".to_owned()),
        ];
        let url = server.url("/favorites/cemre-enerji");
        assert_eq!(
            post_form(&browser, url, &token, &fields).await.status(),
            303
        );
        largest = largest.max(std::fs::metadata(&wal).unwrap().len());
    }
    // Once the job has checkpointed what the writes above left (it looks every two seconds),
    // the next write starts the log over, cut to its limit.
    let complete = "ortak_wal_checkpoints_total{outcome=\"complete\"}";
    let before = server.metric(complete).await.unwrap_or(0);
    for _ in 0..100 {
        if server.metric(complete).await.unwrap_or(0) > before {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    let fields = [
        ("favorite", "1".to_owned()),
        ("return", "/startups".to_owned()),
    ];
    let url = server.url("/favorites/cemre-enerji");
    assert_eq!(
        post_form(&browser, url, &token, &fields).await.status(),
        303
    );
    let last = std::fs::metadata(&wal).unwrap().len();
    let metrics = server.get("/metrics").await.1;
    eprintln!("WAL: largest {largest} bytes, last {last} bytes");
    assert!(
        metrics.contains("ortak_wal_checkpoints_total{outcome=\"complete\"}"),
        "{metrics}"
    );
    assert!(
        last <= 1024 * 1024,
        "the log is cut back to its limit: {last} bytes"
    );
}
