//! Fixed-window request counters kept in SQLite, so limits hold across restarts.

use sqlx::SqlitePool;

/// A limit: at most `max` hits per `window` seconds for one key.
#[derive(Clone, Copy)]
pub struct Limit {
    pub max: i64,
    pub window: i64,
}

/// Sign-in attempts per address and per IP; link and reset requests per address and per IP.
pub const SIGNIN_PER_ACCOUNT: Limit = Limit {
    max: 5,
    window: 15 * 60,
};
pub const SIGNIN_PER_IP: Limit = Limit {
    max: 30,
    window: 15 * 60,
};
pub const MAIL_PER_ACCOUNT: Limit = Limit {
    max: 3,
    window: 15 * 60,
};
pub const MAIL_PER_IP: Limit = Limit {
    max: 10,
    window: 15 * 60,
};

/// Counts a hit for `key`; `Err(minutes)` tells how long to wait when over the limit.
pub async fn hit(db: &SqlitePool, key: &str, limit: Limit) -> Result<Result<(), i64>, sqlx::Error> {
    let now = time::OffsetDateTime::now_utc().unix_timestamp();
    let window_start = now - now.rem_euclid(limit.window);
    let hits: i64 = sqlx::query_scalar(
        "INSERT INTO rate_limits (key, window_start, hits) VALUES (?1, ?2, 1)
         ON CONFLICT (key) DO UPDATE SET
             hits = CASE WHEN window_start = ?2 THEN hits + 1 ELSE 1 END,
             window_start = ?2
         RETURNING hits",
    )
    .bind(key)
    .bind(window_start)
    .fetch_one(db)
    .await?;
    if hits > limit.max {
        metrics::counter!("ortak_rate_limit_refusals_total").increment(1);
        let minutes = (window_start + limit.window - now + 59) / 60;
        Ok(Err(minutes.max(1)))
    } else {
        Ok(Ok(()))
    }
}
