//! The count of writes (issues 16 and 29). What is kept in memory between requests
//! (`db::snapshot`, `web::list_cache`, the signed-in user) is used only while the count it
//! depends on has not moved since it was read, so nothing is kept across a write that could
//! change it. There are two counts ([`Versions`]): every write, and the writes to tables that
//! what everyone sees is made from ("shared" tables: every table but [`PERSONAL`]). A member
//! saving a startup, a session's expiry moving on or a sign-in changes only personal tables, so
//! the catalogue, the startups' pages and the public pages kept for everyone stay (issue 29);
//! what is kept per member (who they are, what they saved) follows every write.
//!
//! SQLite itself says what changed: every connection of the pool has an update hook, which
//! names the table of each changed row, and a commit hook, which counts the commit (a shared
//! one when it changed a shared table). Some changes call no update hook (tables `WITHOUT
//! ROWID`, a `DELETE` of a whole table): a commit whose row count (`sqlite3_total_changes`)
//! exceeds what the update hook saw, or that changed rows the hook never saw, counts as
//! shared ([`count_commits`]). The commit hook runs just before the
//! commit lands, so a reader may, in that instant, keep what it read before the commit under
//! the new count; so the count moves again once a request that may have written is over
//! ([`settle`], every request but GET and HEAD, `web::ctx::middleware`, and after each round of
//! the jobs; the GETs that write, a sign-in by a mailed link or a provider's answer and the
//! payment sandbox's answer, say so themselves). Every entry is dropped after two seconds
//! anyway.
//!
//! A write from outside the server (an operator's `sqlite3`, `ortak create-admin` on a live
//! database) calls no hook of ours, but it appends to the database's write-ahead log: every
//! request first looks at the log's size and modification time ([`notice_outside_writes`], one
//! `stat`), and a change while the server itself committed nothing counts as a shared write.
//! (One made while the server was writing too shows within the two seconds an entry lives.)

use std::path::PathBuf;
use std::ptr::NonNull;
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::UNIX_EPOCH;

use sqlx::SqliteConnection;

static WRITES: AtomicU64 = AtomicU64::new(0);
static SHARED: AtomicU64 = AtomicU64::new(0);
/// Commits that changed a shared table, counted by the commit hook (see [`settle`]).
static SHARED_COMMITS: AtomicU64 = AtomicU64::new(0);
/// Every commit of the server's own connections, and their number at the last look at the
/// write-ahead log (see [`notice_outside_writes`]).
static COMMITS: AtomicU64 = AtomicU64::new(0);
static COMMITS_SEEN: AtomicU64 = AtomicU64::new(0);
/// The write-ahead log, and its size and modification time (ns) when last looked at.
static LOG: OnceLock<PathBuf> = OnceLock::new();
static LOG_LEN: AtomicU64 = AtomicU64::new(0);
static LOG_MODIFIED: AtomicU64 = AtomicU64::new(0);

/// Tables no page made for everyone reads: a member's own rows (saved startups, sessions,
/// accepted terms, mail choices), the account itself (its sign-in time; a founder's or staff
/// member's name on a public page may show the old one for up to the two seconds an entry
/// lives), counters and logs. Sessions are tower-sessions' table.
pub const PERSONAL: [&str; 9] = [
    "acceptances",
    "audit_log",
    "auth_tokens",
    "favorites",
    "mail_preferences",
    "outbox",
    "rate_limits",
    "sessions",
    "users",
];

/// The counts an entry kept in memory was made at (read before the data it was made from).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Versions {
    /// Every write so far.
    pub all: u64,
    /// The writes to shared tables so far.
    pub shared: u64,
}

/// The counts so far.
pub fn versions() -> Versions {
    Versions {
        shared: SHARED.load(Ordering::Acquire),
        all: WRITES.load(Ordering::Acquire),
    }
}

/// Counts a write that may have changed anything.
pub fn bump() {
    SHARED.fetch_add(1, Ordering::AcqRel);
    WRITES.fetch_add(1, Ordering::AcqRel);
}

/// Counts a write to personal tables only.
fn bump_personal() {
    WRITES.fetch_add(1, Ordering::AcqRel);
}

/// The shared commits so far: read when a request or a round of jobs begins, handed to
/// [`settle`] when it ends.
pub fn shared_commits() -> u64 {
    SHARED_COMMITS.load(Ordering::Acquire)
}

/// Counts again once work that may have written is over: a shared write when a shared commit
/// happened since `before` (this work's, or another's meanwhile), else a personal one.
pub fn settle(before: u64) {
    if shared_commits() != before {
        bump();
    } else {
        bump_personal();
    }
}

/// What one connection's current transaction changed, as its hooks saw it.
#[derive(Default)]
struct Changes {
    rows: AtomicU64,
    shared: AtomicBool,
    /// `sqlite3_total_changes64` as it will stand when the last transaction has ended.
    baseline: AtomicI64,
}

/// Has `conn` count its commits (read-only transactions do not call the hook), and name the
/// tables they changed.
///
/// The update hook sees every changed row of a table with rowids; a change it cannot see (a
/// table `WITHOUT ROWID`) still adds to the connection's row count, so a commit that changed
/// more rows than the hook saw, or changed rows the hook never saw at all, counts as shared.
/// Inside the commit hook the count holds the statements already completed: all of an explicit
/// transaction's, none of a lone statement's (its rows are added just after the hook).
pub async fn count_commits(conn: &mut SqliteConnection) -> sqlx::Result<()> {
    let mut handle = conn.lock_handle().await?;
    let raw = SqliteRaw(handle.as_raw_handle());
    let changes = Arc::new(Changes::default());
    changes
        .baseline
        .store(raw.total_changes(), Ordering::Relaxed);
    let seen = changes.clone();
    handle.set_update_hook(move |change| {
        seen.rows.fetch_add(1, Ordering::Relaxed);
        if !PERSONAL.contains(&change.table) {
            seen.shared.store(true, Ordering::Relaxed);
        }
    });
    let ended = changes.clone();
    handle.set_rollback_hook(move || {
        ended.rows.store(0, Ordering::Relaxed);
        ended.shared.store(false, Ordering::Relaxed);
        ended.baseline.store(raw.total_changes(), Ordering::Relaxed);
    });
    handle.set_commit_hook(move || {
        COMMITS.fetch_add(1, Ordering::AcqRel);
        let total = raw.total_changes();
        let rows = changes.rows.swap(0, Ordering::Relaxed);
        let shared = changes.shared.swap(false, Ordering::Relaxed);
        let completed = total - changes.baseline.load(Ordering::Relaxed);
        let unseen = if rows > 0 && completed == 0 {
            // A lone statement: its rows land just after this hook.
            changes
                .baseline
                .store(total + rows as i64, Ordering::Relaxed);
            false
        } else {
            changes.baseline.store(total, Ordering::Relaxed);
            rows == 0 || completed > rows as i64
        };
        if shared || unseen {
            SHARED_COMMITS.fetch_add(1, Ordering::AcqRel);
            bump();
        } else {
            bump_personal();
        }
        true
    });
    Ok(())
}

/// A connection's SQLite handle, for the one figure sqlx does not offer.
#[derive(Clone, Copy)]
struct SqliteRaw(NonNull<libsqlite3_sys::sqlite3>);

// SAFETY: the handle is used only from the connection's hooks, which SQLite calls on the
// thread running that connection's statement, and while the connection is open (sqlx removes
// the hooks before it closes the connection).
unsafe impl Send for SqliteRaw {}

impl SqliteRaw {
    /// Rows changed since the connection opened, whatever the table.
    fn total_changes(self) -> i64 {
        // SAFETY: see the `Send` impl: the handle is valid while the hooks can run.
        unsafe { libsqlite3_sys::sqlite3_total_changes64(self.0.as_ptr()) }
    }
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
    let commits = COMMITS.load(Ordering::Acquire);
    let ours = COMMITS_SEEN.swap(commits, Ordering::AcqRel) != commits;
    // The server's own commits change the log too, and they are counted already.
    if (len_changed || time_changed) && !ours {
        bump();
    }
}

#[cfg(test)]
mod tests {
    use sqlx::{Connection, Executor};

    use super::*;

    /// What one statement on `conn` moved: (every write, shared writes).
    async fn moved(conn: &mut SqliteConnection, sql: &str) -> (u64, u64) {
        let before = versions();
        conn.execute(sql).await.unwrap();
        let after = versions();
        (after.all - before.all, after.shared - before.shared)
    }

    #[tokio::test]
    async fn personal_tables_move_only_every_write_and_unseen_changes_count_as_shared() {
        let mut conn = SqliteConnection::connect("sqlite::memory:").await.unwrap();
        count_commits(&mut conn).await.unwrap();
        conn.execute(
            "CREATE TABLE favorites (user_id INTEGER, startup_id INTEGER);
             CREATE TABLE startups (id INTEGER PRIMARY KEY, name TEXT);
             CREATE TABLE founder_photos (name TEXT PRIMARY KEY, file TEXT) WITHOUT ROWID;",
        )
        .await
        .unwrap();
        // Nothing else in this test binary writes through these hooks, so the counts move
        // only by what this test does.
        assert_eq!(
            moved(&mut conn, "INSERT INTO favorites VALUES (1, 2)").await,
            (1, 0)
        );
        assert_eq!(
            moved(&mut conn, "INSERT INTO startups VALUES (1, 'a')").await,
            (1, 1)
        );
        let both =
            "BEGIN; INSERT INTO favorites VALUES (3, 4); UPDATE startups SET name = 'b'; COMMIT;";
        assert_eq!(moved(&mut conn, both).await, (1, 1));
        // A table without rowids calls no update hook: its change counts as shared.
        let photo = "INSERT INTO founder_photos VALUES ('x', 'y')";
        assert_eq!(moved(&mut conn, photo).await, (1, 1));
        let hidden = "BEGIN; INSERT INTO favorites VALUES (5, 6); INSERT INTO founder_photos VALUES ('z', 'w'); COMMIT;";
        assert_eq!(moved(&mut conn, hidden).await, (1, 1));
        // A rolled-back change and a read count nothing.
        let undone = "BEGIN; INSERT INTO startups VALUES (2, 'c'); ROLLBACK;";
        assert_eq!(moved(&mut conn, undone).await, (0, 0));
        assert_eq!(moved(&mut conn, "SELECT * FROM startups").await, (0, 0));
        assert_eq!(
            moved(&mut conn, "DELETE FROM favorites WHERE user_id = 1").await,
            (1, 0)
        );
        assert!(shared_commits() >= 4);
    }
}
