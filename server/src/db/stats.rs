//! Figures `/metrics` reads at each scrape: the outbox's depth and oldest waiting mail, and the
//! database's and its write-ahead log's sizes on disk.

use std::path::Path;

use sqlx::SqlitePool;
use time::OffsetDateTime;

/// Mails waiting to be sent, and when the oldest of them was queued.
pub struct Outbox {
    pub pending: i64,
    pub oldest: Option<OffsetDateTime>,
}

pub async fn outbox(db: &SqlitePool) -> sqlx::Result<Outbox> {
    sqlx::query_as!(
        Outbox,
        r#"SELECT COUNT(*) AS "pending!: i64", MIN(created_at) AS "oldest: OffsetDateTime"
           FROM outbox WHERE status = 'pending'"#
    )
    .fetch_one(db)
    .await
}

/// The sizes in bytes of `ortak.db` and `ortak.db-wal` (0 when absent).
pub fn file_sizes(data_dir: &Path) -> (u64, u64) {
    let size = |name: &str| {
        std::fs::metadata(data_dir.join(name))
            .map(|m| m.len())
            .unwrap_or(0)
    };
    (size("ortak.db"), size("ortak.db-wal"))
}
