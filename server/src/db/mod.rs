//! The SQLite database: connection settings, migrations, backups, and what every area shares
//! below its own queries: the clock, the audit log writer, rate-limit counters, install
//! secrets and the session store.

pub mod audit;
pub mod clock;
#[cfg(test)]
mod migration_pins;
pub mod rate_limits;
pub mod rules;
pub mod secrets;
pub mod sessions;
pub mod snapshot;
pub mod stats;
pub mod wal;
pub mod writes;

use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::time::Duration;

use anyhow::Context;
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::{Sqlite, SqliteConnection, SqlitePool, Transaction};
use tokio::sync::{Semaphore, SemaphorePermit};

pub fn database_path(data_dir: &Path) -> PathBuf {
    data_dir.join("ortak.db")
}

/// Whether opening a data folder may make a new, empty database there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Create {
    /// The server: the first start makes the database.
    IfMissing,
    /// `migrate`, `create-admin` (unless `--create`) and `backup`: a missing database is a
    /// mistake (the wrong folder, a missing `ORTAK_DATA_DIR`), refused with its path instead of
    /// a new empty database that would then be migrated, filled or "backed up" (issue 30).
    Never,
}

/// The write-ahead log's settings: SQLite's automatic checkpoint (pages; 0 with Litestream)
/// and the size past which Ortak checkpoints it anyway ([`wal::keep_bounded`]).
#[derive(Clone, Copy, Debug)]
pub struct WalSettings {
    pub autocheckpoint: u32,
    pub max_mb: u64,
}

impl WalSettings {
    pub fn max_bytes(self) -> u64 {
        self.max_mb.max(1) * 1024 * 1024
    }
}

/// Opens the database in WAL mode with foreign keys on; creates it only when `create` says so.
///
/// `wal_autocheckpoint` is SQLite's automatic checkpoint threshold in pages; 0 leaves
/// checkpoints to Litestream when it replicates the database (README, "Continuous
/// replication"). Ortak itself never runs a TRUNCATE, RESTART or FULL checkpoint, nor an
/// in-place VACUUM: with Litestream holding its read transaction those block every writer for
/// the whole busy timeout, and they would cut Litestream's replica history.
pub async fn connect(
    data_dir: &Path,
    wal: WalSettings,
    create: Create,
) -> anyhow::Result<SqlitePool> {
    let path = database_path(data_dir);
    if create == Create::Never {
        anyhow::ensure!(
            path.is_file(),
            "no Ortak database at {}: run this where the data folder is, set ORTAK_DATA_DIR \
             (or --data-dir), or pass --create to make a new database there",
            path.display()
        );
    }
    std::fs::create_dir_all(data_dir)
        .with_context(|| format!("cannot create data folder {}", data_dir.display()))?;
    writes::watch(&path);
    let options = SqliteConnectOptions::from_str("sqlite://")?
        .filename(&path)
        .create_if_missing(create == Create::IfMissing)
        .journal_mode(SqliteJournalMode::Wal)
        .synchronous(SqliteSynchronous::Normal)
        .foreign_keys(true)
        .busy_timeout(WRITE_WAIT)
        .pragma("wal_autocheckpoint", wal.autocheckpoint.to_string())
        .pragma("journal_size_limit", wal.max_bytes().to_string());
    SqlitePoolOptions::new()
        .max_connections(8)
        // A connection to a local file does not go stale, and sqlx pings each one as it goes
        // back to the pool: a second ping as it is taken would be one more round trip to its
        // thread on every read (issue 29).
        .test_before_acquire(false)
        .after_connect(move |conn, _| {
            metrics::counter!("ortak_db_acquires_total").increment(1);
            Box::pin(writes::count_commits(conn, wal.autocheckpoint))
        })
        // Counted so that what is kept in memory can be seen to spare SQLite (issue 16).
        // A connection still inside a transaction is closed instead of handed out: a COMMIT that
        // failed (SQLITE_FULL on a full disk) leaves it so, and every later `BEGIN` on it failed
        // until a restart (issue 30).
        .before_acquire(|conn, _| {
            metrics::counter!("ortak_db_acquires_total").increment(1);
            let stuck = sqlx::Connection::is_in_transaction(conn);
            if stuck {
                metrics::counter!("ortak_db_connections_dropped_total").increment(1);
                tracing::warn!("a pooled connection was left inside a transaction: closed");
            }
            Box::pin(async move { Ok(!stuck) })
        })
        .connect_with(options)
        .await
        .with_context(|| format!("cannot open database {}", path.display()))
}

/// How long a write waits for its turn (and SQLite for its lock: the busy timeout) before it
/// gives up; the error answers 503 with a retry hint.
pub const WRITE_WAIT: Duration = Duration::from_secs(5);

/// The writer's turn. SQLite lets one connection write at a time; waiting writers used to wait
/// inside SQLite, each holding one of the pool's connections, so while an operator's `sqlite3`
/// held the write lock they took every connection and readers queued behind them (issue 30).
/// Writers now wait here, holding no connection, one at a time, and readers always find one.
static WRITER: Semaphore = Semaphore::const_new(1);

/// Waits at most [`WRITE_WAIT`] for the writer's turn (`PoolTimedOut` after that).
pub async fn writer_turn() -> sqlx::Result<SemaphorePermit<'static>> {
    match tokio::time::timeout(WRITE_WAIT, WRITER.acquire()).await {
        Ok(Ok(turn)) => Ok(turn),
        _ => Err(sqlx::Error::PoolTimedOut),
    }
}

/// A write transaction holding the writer's turn; it reads as the connection, so queries run
/// on `&mut *tx`. Dropped without `commit`, it rolls back and gives the turn on.
pub struct WriteTx {
    tx: Transaction<'static, Sqlite>,
    _turn: SemaphorePermit<'static>,
}

impl WriteTx {
    pub async fn commit(self) -> sqlx::Result<()> {
        self.tx.commit().await
    }

    pub async fn rollback(self) -> sqlx::Result<()> {
        self.tx.rollback().await
    }
}

impl std::ops::Deref for WriteTx {
    type Target = SqliteConnection;

    fn deref(&self) -> &SqliteConnection {
        &self.tx
    }
}

impl std::ops::DerefMut for WriteTx {
    fn deref_mut(&mut self) -> &mut SqliteConnection {
        &mut self.tx
    }
}

/// Every write starts here: it waits for the writer's turn, then takes SQLite's write lock at
/// once (`BEGIN IMMEDIATE`), so what it reads before writing cannot change under it, and it
/// waits out a busy writer instead of failing: a deferred transaction that read first fails at
/// its first write, at once and whatever the busy timeout, when another connection wrote in
/// between (`SQLITE_BUSY_SNAPSHOT`).
pub async fn write(pool: &SqlitePool) -> sqlx::Result<WriteTx> {
    let turn = writer_turn().await?;
    let tx = pool.begin_with("BEGIN IMMEDIATE").await?;
    Ok(WriteTx { tx, _turn: turn })
}

/// Brings the database up to this binary's schema. A database another (newer) Ortak already
/// migrated further is refused with a clear message; before changing an existing database the
/// migrations are preceded by a backup beside it (`DATA/backups/`), so an upgrade can be rolled
/// back by restoring that file and running the previous binary.
pub async fn migrate(pool: &SqlitePool, data_dir: &Path) -> anyhow::Result<Option<PathBuf>> {
    let migrator = sqlx::migrate!("./migrations");
    let known = migrator.iter().map(|m| m.version).max().unwrap_or(0);
    let applied = applied_migrations(pool).await?;
    if let Some(newest) = applied.iter().copied().max().filter(|v| *v > known) {
        anyhow::bail!(
            "the database in {} was migrated by a newer Ortak (migration {newest}; this binary \
             knows up to {known}). Run that newer binary, or restore the backup taken before the \
             upgrade (DATA/backups/) and run this one.",
            data_dir.display()
        );
    }
    let pending = migrator.iter().any(|m| !applied.contains(&m.version));
    let saved = if pending && !applied.is_empty() {
        let stamp = time::OffsetDateTime::now_utc().unix_timestamp();
        let dir = data_dir.join("backups");
        std::fs::create_dir_all(&dir)
            .with_context(|| format!("cannot create {}", dir.display()))?;
        let file = dir.join(format!("ortak-before-migration-{known}-{stamp}.db"));
        backup(pool, &file).await?;
        tracing::info!(file = %file.display(), "backup taken before migrating");
        prune_migration_backups(&dir)?;
        Some(file)
    } else {
        None
    };
    migrator.run(pool).await.context("migrations failed")?;
    Ok(saved)
}

/// How many pre-migration backups `DATA/backups/` keeps: the newest, enough to step back
/// through a few upgrades without filling the disk with every copy ever taken.
pub const MIGRATION_BACKUPS_KEPT: usize = 3;

/// Deletes all but the newest [`MIGRATION_BACKUPS_KEPT`] pre-migration backups in `dir` (their
/// names carry the time they were taken); other files there are left alone.
fn prune_migration_backups(dir: &Path) -> anyhow::Result<()> {
    let mut taken: Vec<(i64, PathBuf)> = std::fs::read_dir(dir)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter_map(|path| {
            let name = path.file_name()?.to_str()?;
            let stamp = name
                .strip_prefix("ortak-before-migration-")?
                .strip_suffix(".db")?
                .rsplit_once('-')?
                .1
                .parse()
                .ok()?;
            Some((stamp, path))
        })
        .collect();
    taken.sort();
    let old = taken.len().saturating_sub(MIGRATION_BACKUPS_KEPT);
    for (_, path) in taken.drain(..old) {
        std::fs::remove_file(&path).with_context(|| format!("cannot remove {}", path.display()))?;
        tracing::info!(file = %path.display(), "old pre-migration backup removed");
    }
    Ok(())
}

/// The versions of the migrations already applied (none on a new database).
async fn applied_migrations(pool: &SqlitePool) -> anyhow::Result<Vec<i64>> {
    let exists: i64 = sqlx::query_scalar!(
        r#"SELECT COUNT(*) AS "n!: i64" FROM sqlite_master WHERE type = 'table' AND name = '_sqlx_migrations'"#
    )
    .fetch_one(pool)
    .await?;
    if exists == 0 {
        return Ok(Vec::new());
    }
    // Not a checked query: the table is sqlx's own and absent from the schema it checks against.
    Ok(
        sqlx::query_scalar("SELECT version FROM _sqlx_migrations WHERE success = 1")
            .fetch_all(pool)
            .await?,
    )
}

/// `VACUUM INTO` copies a consistent snapshot while the server keeps running.
pub async fn backup(pool: &SqlitePool, file: &Path) -> anyhow::Result<()> {
    anyhow::ensure!(!file.exists(), "{} already exists", file.display());
    // An empty file is not a database worth copying: a backup of it would restore nothing.
    anyhow::ensure!(
        !applied_migrations(pool).await?.is_empty(),
        "the database holds no Ortak data (no migration applied): nothing to back up"
    );
    let target = file.to_str().context("backup path is not UTF-8")?;
    sqlx::query("VACUUM INTO ?")
        .bind(target)
        .execute(pool)
        .await
        .context("backup failed")?;
    Ok(())
}

/// Whether `error` is a unique-constraint violation of `column_or_constraint`: a constraint's
/// name where the database reports one, or `table.column` as SQLite names it ("UNIQUE
/// constraint failed: startups.slug"). Writers insert and turn this into a field error instead
/// of looking first, which could race.
pub fn unique_violation(error: &sqlx::Error, column_or_constraint: &str) -> bool {
    let sqlx::Error::Database(error) = error else {
        return false;
    };
    if !error.is_unique_violation() {
        return false;
    }
    if error.constraint() == Some(column_or_constraint) {
        return true;
    }
    error
        .message()
        .rsplit_once(": ")
        .is_some_and(|(_, columns)| columns.split(", ").any(|c| c == column_or_constraint))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_unique_violation_is_told_by_its_column() {
        let pool = SqlitePool::connect("sqlite::memory:").await.unwrap();
        sqlx::query("CREATE TABLE t (a TEXT NOT NULL UNIQUE, b TEXT UNIQUE)")
            .execute(&pool)
            .await
            .unwrap();
        let insert = |a: Option<&'static str>, b: &'static str| {
            sqlx::query("INSERT INTO t (a, b) VALUES (?, ?)")
                .bind(a)
                .bind(b)
                .execute(&pool)
        };
        insert(Some("x"), "y").await.unwrap();
        let taken = insert(Some("x"), "z").await.unwrap_err();
        assert!(unique_violation(&taken, "t.a"));
        assert!(!unique_violation(&taken, "t.b"));
        assert!(
            !unique_violation(&taken, "a"),
            "columns are named with their table"
        );
        let missing = insert(None, "w").await.unwrap_err();
        assert!(!unique_violation(&missing, "t.a"), "a NOT NULL violation");
        assert!(!unique_violation(&sqlx::Error::RowNotFound, "t.a"));
    }
}
