//! The SQLite database: connection settings, migrations and backups.

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

/// The current time as the database stores it.
pub fn now_utc() -> String {
    time::OffsetDateTime::now_utc()
        .replace_nanosecond(0)
        .unwrap()
        .format(&time::format_description::well_known::Rfc3339)
        .unwrap()
}

/// Reads a stored UTC time.
pub fn parse_utc(text: &str) -> Option<time::OffsetDateTime> {
    time::OffsetDateTime::parse(text, &time::format_description::well_known::Rfc3339).ok()
}
