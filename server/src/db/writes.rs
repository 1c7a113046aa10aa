//! The count of writes (issue 16). What is kept in memory between requests (`db::snapshot`,
//! `web::list_cache`, the signed-in user) is used only while this count has not moved since it
//! was read, so nothing is kept across a write.
//!
//! SQLite itself counts: every connection of the pool bumps the count from its commit hook, so
//! a write nobody thought to announce (a GET that records a payment's answer, a task spawned
//! after a response, a background job) still empties what was kept. The hook runs just before
//! the commit lands, so a reader may, in that instant, keep what it read before the commit
//! under the new count; so the count moves again once a request that may have written is over
//! (every request but GET and HEAD, `web::ctx::middleware`; the GETs that write, a sign-in by
//! a mailed link or a provider's answer and the payment sandbox's answer, say so themselves),
//! and after each round of the jobs. Every entry is dropped after two seconds anyway.
//!
//! A write from outside the server (an operator's `sqlite3`, `ortak create-admin` on a live
//! database) calls no hook of ours, but it appends to the database's write-ahead log: every
//! request first looks at the log's size and modification time ([`notice_outside_writes`], one
//! `stat`), and a change counts as a write.

use std::path::PathBuf;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::UNIX_EPOCH;

use sqlx::SqliteConnection;

static WRITES: AtomicU64 = AtomicU64::new(0);
/// The write-ahead log, and its size and modification time (ns) when last looked at.
static LOG: OnceLock<PathBuf> = OnceLock::new();
static LOG_LEN: AtomicU64 = AtomicU64::new(0);
static LOG_MODIFIED: AtomicU64 = AtomicU64::new(0);

/// How many writes happened so far in this process.
pub fn count() -> u64 {
    WRITES.load(Ordering::Acquire)
}

/// Counts a write.
pub fn bump() {
    WRITES.fetch_add(1, Ordering::AcqRel);
}

/// Has `conn` count its commits (read-only transactions do not call the hook).
pub async fn count_commits(conn: &mut SqliteConnection) -> sqlx::Result<()> {
    conn.lock_handle().await?.set_commit_hook(|| {
        bump();
        true
    });
    Ok(())
}

/// Watches the write-ahead log of the database at `path` for writes from outside the server.
pub fn watch(path: &std::path::Path) {
    let mut log = path.as_os_str().to_owned();
    log.push("-wal");
    let _ = LOG.set(PathBuf::from(log));
}

/// Counts a write when the write-ahead log changed since the last look.
pub fn notice_outside_writes() {
    let Some(meta) = LOG.get().and_then(|log| std::fs::metadata(log).ok()) else {
        return;
    };
    let modified = meta
        .modified()
        .ok()
        .and_then(|at| at.duration_since(UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_nanos() as u64);
    let len_changed = LOG_LEN.swap(meta.len(), Ordering::AcqRel) != meta.len();
    let time_changed = LOG_MODIFIED.swap(modified, Ordering::AcqRel) != modified;
    if len_changed || time_changed {
        bump();
    }
}
