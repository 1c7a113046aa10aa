//! The count of writes (issues 16 and 29). What is kept in memory between requests
//! (`db::snapshot`, `web::list_cache`, the signed-in user) is used only while the count it
//! depends on has not moved since it was read, so nothing is kept across a write that could
//! change it. There are three counts ([`Versions`]): every write (staff lists follow it); the
//! writes to tables that what everyone sees is made from ("shared" tables: every table but
//! [`PERSONAL`]); and each member's own (their row in `users`, their saved startups). A member
//! saving a startup, a session's expiry moving on or a sign-in changes only personal tables, so
//! the catalogue, the startups' pages and the public pages kept for everyone stay (issue 29),
//! and what is kept for other members (who they are, what they saved) stays too.
//!
//! SQLite itself says what changed: every connection of the pool has an update hook, which
//! names the table of each changed row, and a commit hook, which counts the commit (a shared
//! one when it changed a shared table). Some changes call no update hook (tables `WITHOUT
//! ROWID`, a `DELETE` of a whole table): a commit whose row count (`sqlite3_total_changes`)
//! exceeds what the update hook saw, or that changed rows the hook never saw, counts as
//! shared ([`count_commits`]). The commit hook runs just before the commit lands, so a reader
//! may, in that instant, keep what it read before the commit under the new count; so the count
//! moves again once a request that may have written is over ([`settle`], every request but GET
//! and HEAD, `web::ctx::middleware`, and after each round of the jobs; the GETs that write, a
//! sign-in by a mailed link or a provider's answer and the payment sandbox's answer, say so
//! themselves). Every entry is dropped after two seconds anyway.
//!
//! A write from outside the server (an operator's `sqlite3`, `ortak create-admin` on a live
//! database) calls no hook of ours, but SQLite counts every commit in the WAL index: every
//! request first reads that count ([`notice_outside_writes`], four bytes of `ortak.db-shm`),
//! and more commits than the server's own count as a shared write.

use std::fs::File;
use std::os::unix::fs::FileExt;
use std::path::PathBuf;
use std::ptr::NonNull;
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use sqlx::SqliteConnection;

static WRITES: AtomicU64 = AtomicU64::new(0);
static SHARED: AtomicU64 = AtomicU64::new(0);
/// Commits that changed a shared table, counted by the commit hook (see [`settle`]).
static SHARED_COMMITS: AtomicU64 = AtomicU64::new(0);
/// The server's own commits into the write-ahead log, counted by the WAL hook just after each
/// lands (see [`notice_outside_writes`]).
static WAL_COMMITS: AtomicU64 = AtomicU64::new(0);
/// The WAL index (`ortak.db-shm`), opened once (see [`notice_outside_writes`]).
static INDEX: OnceLock<PathBuf> = OnceLock::new();
static INDEX_FILE: OnceLock<Option<File>> = OnceLock::new();

/// Tables no page made for everyone reads: a member's own rows (saved startups, sessions,
/// mailed links), the account itself (its sign-in time; a founder's or staff member's name on
/// a public page may show the old one for up to the two seconds an entry lives), counters and
/// logs. Sessions are tower-sessions' table. (Accepted terms and mail choices are personal too,
/// but their tables have no rowids: the update hook cannot see them, so they count as shared.)
pub const PERSONAL: [&str; 7] = [
    "audit_log",
    "auth_tokens",
    "favorites",
    "outbox",
    "rate_limits",
    "sessions",
    "users",
];

/// Members' own counts, by user id modulo their number: a write to a member's row in `users`
/// (seen by the update hook, whose row id is the user's id) or to their saved startups
/// ([`member_wrote`]) moves it. Two members sharing a slot only end each other's entries
/// sooner.
const MEMBER_SLOTS: usize = 4096;
static MEMBERS: [AtomicU64; MEMBER_SLOTS] = [const { AtomicU64::new(0) }; MEMBER_SLOTS];
/// Slots the commit hook moved, moved again by [`settle`] once the commit has landed.
static MEMBERS_TO_SETTLE: Mutex<Vec<usize>> = Mutex::new(Vec::new());

fn slot(user: i64) -> usize {
    user.rem_euclid(MEMBER_SLOTS as i64) as usize
}

/// The counts an entry kept in memory was made at (read before the data it was made from).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Versions {
    /// Every write so far.
    pub all: u64,
    /// The writes to shared tables so far.
    pub shared: u64,
    /// One member's own writes so far, when asked for with [`Versions::of_member`] (else 0).
    pub member: u64,
}

impl Versions {
    /// These counts with member `user`'s own.
    pub fn of_member(self, user: i64) -> Versions {
        Versions {
            member: MEMBERS[slot(user)].load(Ordering::Acquire),
            ..self
        }
    }
}

/// The counts so far.
pub fn versions() -> Versions {
    Versions {
        shared: SHARED.load(Ordering::Acquire),
        all: WRITES.load(Ordering::Acquire),
        member: 0,
    }
}

/// Counts a write to member `user`'s own rows that the hooks cannot tell apart (their saved
/// startups), once it has committed.
pub fn member_wrote(user: i64) {
    MEMBERS[slot(user)].fetch_add(1, Ordering::AcqRel);
    bump_personal();
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
    let slots = std::mem::take(&mut *lock_slots());
    for slot in slots {
        MEMBERS[slot].fetch_add(1, Ordering::AcqRel);
    }
}

fn lock_slots() -> std::sync::MutexGuard<'static, Vec<usize>> {
    MEMBERS_TO_SETTLE.lock().unwrap_or_else(|e| e.into_inner())
}

/// What one connection's current transaction changed, as its hooks saw it.
#[derive(Default)]
struct Changes {
    rows: AtomicU64,
    shared: AtomicBool,
    /// The members whose `users` row changed.
    members: Mutex<Vec<i64>>,
    /// `sqlite3_total_changes64` as it will stand when the last transaction has ended.
    baseline: AtomicI64,
}

impl Changes {
    fn members(&self) -> std::sync::MutexGuard<'_, Vec<i64>> {
        self.members.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// Has `conn` count its commits (read-only transactions do not call the hook), and name the
/// tables they changed.
///
/// The update hook sees every changed row of a table with rowids; a change it cannot see (a
/// table `WITHOUT ROWID`) still adds to the connection's row count, so a commit that changed
/// more rows than the hook saw, or changed rows the hook never saw at all, counts as shared.
/// Inside the commit hook the count holds the statements already completed: all of an explicit
/// transaction's, none of a lone statement's (its rows are added just after the hook).
pub async fn count_commits(conn: &mut SqliteConnection, autocheckpoint: u32) -> sqlx::Result<()> {
    let mut handle = conn.lock_handle().await?;
    let raw = SqliteRaw(handle.as_raw_handle());
    raw.count_wal_commits(autocheckpoint);
    let changes = Arc::new(Changes::default());
    changes
        .baseline
        .store(raw.total_changes(), Ordering::Relaxed);
    let seen = changes.clone();
    handle.set_update_hook(move |change| {
        seen.rows.fetch_add(1, Ordering::Relaxed);
        if change.table == "users" {
            seen.members().push(change.rowid);
        } else if !PERSONAL.contains(&change.table) {
            seen.shared.store(true, Ordering::Relaxed);
        }
    });
    let ended = changes.clone();
    handle.set_rollback_hook(move || {
        ended.rows.store(0, Ordering::Relaxed);
        ended.shared.store(false, Ordering::Relaxed);
        ended.members().clear();
        ended.baseline.store(raw.total_changes(), Ordering::Relaxed);
    });
    handle.set_commit_hook(move || {
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
        let members = std::mem::take(&mut *changes.members());
        if !members.is_empty() {
            let mut to_settle = lock_slots();
            for user in members {
                MEMBERS[slot(user)].fetch_add(1, Ordering::AcqRel);
                if to_settle.len() < MEMBER_SLOTS {
                    to_settle.push(slot(user));
                }
            }
        }
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

    /// Counts each commit into the WAL ([`wal_written`]), which takes the place of SQLite's
    /// automatic checkpoint hook: it checkpoints as that one did, past `autocheckpoint` pages.
    fn count_wal_commits(self, autocheckpoint: u32) {
        // SAFETY: the handle is open (the connection is being set up); the hook keeps no
        // pointer, only the threshold, passed as the pointer-sized argument.
        unsafe {
            libsqlite3_sys::sqlite3_wal_hook(
                self.0.as_ptr(),
                Some(wal_written),
                autocheckpoint as usize as *mut std::ffi::c_void,
            );
        }
    }
}

/// SQLite's WAL hook, called just after a commit landed in the WAL with the log's frames.
unsafe extern "C" fn wal_written(
    threshold: *mut std::ffi::c_void,
    db: *mut libsqlite3_sys::sqlite3,
    name: *const std::ffi::c_char,
    frames: std::ffi::c_int,
) -> std::ffi::c_int {
    WAL_COMMITS.fetch_add(1, Ordering::AcqRel);
    let threshold = threshold as usize;
    if threshold > 0 && usize::try_from(frames).is_ok_and(|f| f >= threshold) {
        // What SQLite's own hook (`sqlite3WalDefaultHook`) does: a PASSIVE checkpoint, whose
        // failure (a busy reader) is no failure of the commit.
        // SAFETY: SQLite passes its open handle and the database's name for this call.
        unsafe { libsqlite3_sys::sqlite3_wal_checkpoint(db, name) };
    }
    libsqlite3_sys::SQLITE_OK
}

/// Watches the database at `path` for commits from outside the server.
pub fn watch(path: &std::path::Path) {
    let mut index = path.as_os_str().to_owned();
    index.push("-shm");
    let _ = INDEX.set(PathBuf::from(index));
}

/// The database's count of commits (the WAL index header's `iChange`, offset 8, which every
/// commit of every connection moves by one; SQLite's `wal.c`), read from the `-shm` file.
fn commits_in_index() -> Option<u32> {
    let file = INDEX_FILE
        .get_or_init(|| INDEX.get().and_then(|path| File::open(path).ok()))
        .as_ref()?;
    let mut count = [0u8; 4];
    file.read_exact_at(&mut count, 8).ok()?;
    Some(u32::from_ne_bytes(count))
}

/// What the looks at the WAL index have seen: its count at the last look, the commits it has
/// counted since the first look and ours then, and the outside commits already reported.
struct Looks {
    last: Option<(u32, u64)>,
    landed: u64,
    reported: u64,
}

static LOOKS: Mutex<Looks> = Mutex::new(Looks {
    last: None,
    landed: 0,
    reported: 0,
});

/// Commits into the WAL since the first look beyond the server's own, when more than already
/// reported.
fn outside_commits() -> Option<u64> {
    let in_index = commits_in_index()?;
    let ours = WAL_COMMITS.load(Ordering::Acquire);
    let mut looks = LOOKS.lock().unwrap_or_else(|e| e.into_inner());
    let Some((last, first_ours)) = looks.last else {
        // The first look: what came before the server started is not news.
        looks.last = Some((in_index, ours));
        return None;
    };
    looks.landed += u64::from(in_index.wrapping_sub(last));
    looks.last = Some((in_index, first_ours));
    let outside = looks.landed.saturating_sub(ours - first_ours);
    (outside > looks.reported).then_some(outside)
}

/// Counts a shared write when the database took more commits than the server's own: another
/// process wrote. Ours are counted by the WAL hook, just after each lands; one that landed a
/// moment ago may not be counted yet, so an excess is looked at again a millisecond later.
pub async fn notice_outside_writes() {
    if outside_commits().is_none() {
        return;
    }
    tokio::time::sleep(std::time::Duration::from_millis(1)).await;
    if let Some(outside) = outside_commits() {
        LOOKS.lock().unwrap_or_else(|e| e.into_inner()).reported = outside;
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
        count_commits(&mut conn, 1000).await.unwrap();
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
