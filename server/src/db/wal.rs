//! Keeps the write-ahead log bounded (issue 30). With Litestream, SQLite's automatic checkpoint
//! is off (`ORTAK_WAL_AUTOCHECKPOINT=0`) and Litestream checkpoints at about 4 MB; when
//! Litestream is stopped or failing nothing did, and the log grew until the disk was full. Past
//! `ORTAK_WAL_MAX_MB` Ortak now runs a PASSIVE checkpoint itself: it never waits for or blocks a
//! writer, and it can only copy frames up to the read mark Litestream holds, so a running
//! Litestream loses nothing (docs/notes/litestream.md). The log is then reused from its start
//! and cut back to the limit (`journal_size_limit`, set on every connection).

use std::path::PathBuf;
use std::time::{Duration, Instant};

use sqlx::SqlitePool;

/// How often the log's size is looked at (one `stat`).
const EVERY: Duration = Duration::from_secs(2);

/// Checks the log's size forever; checkpoints when it passes `max_bytes`.
pub async fn keep_bounded(pool: SqlitePool, wal: PathBuf, max_bytes: u64) {
    let mut tick = tokio::time::interval(EVERY);
    let mut last_warned: Option<Instant> = None;
    loop {
        tick.tick().await;
        let size = std::fs::metadata(&wal).map_or(0, |m| m.len());
        if size <= max_bytes {
            continue;
        }
        let outcome = match checkpoint(&pool).await {
            Ok((0, log, moved)) if log == moved => "complete",
            Ok(_) => "partial",
            Err(e) => {
                tracing::error!(error = %e, "WAL checkpoint failed");
                "failed"
            }
        };
        metrics::counter!("ortak_wal_checkpoints_total", "outcome" => outcome).increment(1);
        if last_warned.is_none_or(|at| at.elapsed() > Duration::from_secs(60)) {
            last_warned = Some(Instant::now());
            tracing::warn!(
                wal_bytes = size,
                max_bytes,
                outcome,
                "the WAL passed ORTAK_WAL_MAX_MB: checkpointed it (is Litestream running?)"
            );
        }
    }
}

/// `PRAGMA wal_checkpoint(PASSIVE)`: (busy, frames in the log, frames checkpointed).
async fn checkpoint(pool: &SqlitePool) -> sqlx::Result<(i64, i64, i64)> {
    sqlx::query_as("PRAGMA wal_checkpoint(PASSIVE)")
        .fetch_one(pool)
        .await
}
