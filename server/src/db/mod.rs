//! The SQLite database: connection settings, migrations, backups, and what every area shares
//! below its own queries: the clock, the audit log writer, rate-limit counters and install
//! secrets.

pub mod audit;
pub mod clock;
pub mod rate_limits;
pub mod secrets;

use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::time::Duration;

use anyhow::Context;
use sqlx::SqlitePool;
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};

pub fn database_path(data_dir: &Path) -> PathBuf {
    data_dir.join("ortak.db")
}

/// Opens (creating if needed) the database in WAL mode with foreign keys on.
pub async fn connect(data_dir: &Path) -> anyhow::Result<SqlitePool> {
    std::fs::create_dir_all(data_dir)
        .with_context(|| format!("cannot create data folder {}", data_dir.display()))?;
    let path = database_path(data_dir);
    let options = SqliteConnectOptions::from_str("sqlite://")?
        .filename(&path)
        .create_if_missing(true)
        .journal_mode(SqliteJournalMode::Wal)
        .synchronous(SqliteSynchronous::Normal)
        .foreign_keys(true)
        .busy_timeout(Duration::from_secs(5));
    SqlitePoolOptions::new()
        .max_connections(8)
        .connect_with(options)
        .await
        .with_context(|| format!("cannot open database {}", path.display()))
}

pub async fn migrate(pool: &SqlitePool) -> anyhow::Result<()> {
    sqlx::migrate!("./migrations")
        .run(pool)
        .await
        .context("migrations failed")?;
    Ok(())
}

/// `VACUUM INTO` copies a consistent snapshot while the server keeps running.
pub async fn backup(pool: &SqlitePool, file: &Path) -> anyhow::Result<()> {
    anyhow::ensure!(!file.exists(), "{} already exists", file.display());
    let target = file.to_str().context("backup path is not UTF-8")?;
    sqlx::query("VACUUM INTO ?")
        .bind(target)
        .execute(pool)
        .await
        .context("backup failed")?;
    Ok(())
}

/// Answers when the database does.
pub async fn ping(pool: &SqlitePool) -> Result<(), sqlx::Error> {
    sqlx::query!("SELECT 1 AS one").fetch_one(pool).await?;
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
