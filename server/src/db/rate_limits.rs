//! Fixed-window counters kept in SQLite, so limits hold across restarts. Keys name what is
//! counted (`signin:ip:203.0.113.7`, `form:gsyf:email:…`); the client's address comes from
//! `web::client_ip`, so behind a trusted reverse proxy every client has its own key.
//!
//! Three ways to count: [`hit`] counts every request (a mail sent, a form stored), [`spend`]
//! counts an amount against a quota (bytes of files kept), while
//! [`attempt`] with [`forgive`] and [`clear`] count failures only (wrong passwords): each
//! attempt is counted first, and a success is taken back and clears the account's failures. Each row knows when its window ends, and
//! [`purge`] (an hourly job) deletes the finished ones. Time is the injectable clock's.

use sqlx::SqlitePool;
use time::OffsetDateTime;

/// A limit: at most `max` hits per `window` seconds for one key.
#[derive(Clone, Copy, Debug)]
pub struct Limit {
    pub max: i64,
    pub window: i64,
}

/// Failed password sign-ins from one client address (any account).
pub const SIGNIN_PER_IP: Limit = Limit {
    max: 30,
    window: 15 * 60,
};
/// Failed password sign-ins to one account from one client address.
pub const SIGNIN_PER_ACCOUNT: Limit = Limit {
    max: 5,
    window: 15 * 60,
};
/// Failed password sign-ins to one account from every address together: slows a guesser
/// spread over many addresses, while one address alone cannot lock the owner out.
pub const SIGNIN_PER_ACCOUNT_ANYWHERE: Limit = Limit {
    max: 100,
    window: 15 * 60,
};
/// Sign-in link and reset requests per address and per client address.
pub const MAIL_PER_ACCOUNT: Limit = Limit {
    max: 3,
    window: 15 * 60,
};
pub const MAIL_PER_IP: Limit = Limit {
    max: 10,
    window: 15 * 60,
};

fn window(now: OffsetDateTime, limit: Limit) -> (i64, i64) {
    let now = now.unix_timestamp();
    let start = now - now.rem_euclid(limit.window);
    (start, start + limit.window)
}

/// Minutes until the window of `limit` that holds `now` ends (at least one).
fn minutes_left(now: OffsetDateTime, limit: Limit) -> i64 {
    let (_, end) = window(now, limit);
    ((end - now.unix_timestamp() + 59) / 60).max(1)
}

/// Counts `amount` for `key` in the current window and returns the window's count.
async fn count(
    db: &SqlitePool,
    now: OffsetDateTime,
    key: &str,
    limit: Limit,
    amount: i64,
) -> Result<i64, sqlx::Error> {
    let (start, end) = window(now, limit);
    let mut tx = super::write(db).await?;
    let hits = sqlx::query_scalar!(
        r#"INSERT INTO rate_limits (key, window_start, hits, expires_at) VALUES (?1, ?2, ?4, ?3)
           ON CONFLICT (key) DO UPDATE SET
               hits = CASE WHEN window_start = ?2 THEN hits + ?4 ELSE ?4 END,
               window_start = ?2, expires_at = ?3
           RETURNING hits AS "hits!: i64""#,
        key,
        start,
        end,
        amount
    )
    .fetch_one(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(hits)
}

/// Counts a hit for `key`; `Err(minutes)` tells how long to wait when over the limit.
pub async fn hit(
    db: &SqlitePool,
    now: OffsetDateTime,
    key: &str,
    limit: Limit,
) -> Result<Result<(), i64>, sqlx::Error> {
    spend(db, now, key, limit, 1).await
}

/// Counts `amount` (bytes, say) for `key`: a quota rather than a count of requests;
/// `Err(minutes)` when the window's total is over the limit.
pub async fn spend(
    db: &SqlitePool,
    now: OffsetDateTime,
    key: &str,
    limit: Limit,
    amount: i64,
) -> Result<Result<(), i64>, sqlx::Error> {
    if count(db, now, key, limit, amount).await? > limit.max {
        metrics::counter!("ortak_rate_limit_refusals_total").increment(1);
        Ok(Err(minutes_left(now, limit)))
    } else {
        Ok(Ok(()))
    }
}

/// Counts an attempt on each of `checks` in order, before its outcome is known, so parallel
/// attempts cannot slip past a limit; stops at the first limit exceeded: `Some(minutes)` to
/// wait. An attempt that succeeds is then taken back with [`forgive`] and [`clear`].
pub async fn attempt(
    db: &SqlitePool,
    now: OffsetDateTime,
    checks: &[(String, Limit)],
) -> Result<Option<i64>, sqlx::Error> {
    for (key, limit) in checks {
        if let Err(minutes) = hit(db, now, key, *limit).await? {
            return Ok(Some(minutes));
        }
    }
    Ok(None)
}

/// Takes back one attempt counted under `key` in the current window of `limit`.
pub async fn forgive(
    db: &SqlitePool,
    now: OffsetDateTime,
    key: &str,
    limit: Limit,
) -> Result<(), sqlx::Error> {
    let (start, _) = window(now, limit);
    let mut tx = super::write(db).await?;
    sqlx::query!(
        "UPDATE rate_limits SET hits = MAX(hits - 1, 0) WHERE key = ? AND window_start = ?",
        key,
        start
    )
    .execute(&mut *tx)
    .await?;
    tx.commit().await
}

/// Forgets the failures counted under `keys` (after a success).
pub async fn clear(db: &SqlitePool, keys: &[String]) -> Result<(), sqlx::Error> {
    let mut tx = super::write(db).await?;
    for key in keys {
        sqlx::query!("DELETE FROM rate_limits WHERE key = ?", key)
            .execute(&mut *tx)
            .await?;
    }
    tx.commit().await
}

/// Deletes the counters whose window ended; returns how many.
pub async fn purge(db: &SqlitePool, now: OffsetDateTime) -> Result<u64, sqlx::Error> {
    let now = now.unix_timestamp();
    let mut tx = super::write(db).await?;
    let done = sqlx::query!("DELETE FROM rate_limits WHERE expires_at <= ?", now)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(done.rows_affected())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_are_aligned_and_the_wait_is_rounded_up() {
        let limit = Limit {
            max: 1,
            window: 15 * 60,
        };
        let at = OffsetDateTime::from_unix_timestamp(1_800_000_030).unwrap();
        let (start, end) = window(at, limit);
        assert_eq!(start % 900, 0);
        assert_eq!(end - start, 900);
        assert!(start <= 1_800_000_030 && 1_800_000_030 < end);
        let last_second = OffsetDateTime::from_unix_timestamp(end - 1).unwrap();
        assert_eq!(minutes_left(last_second, limit), 1);
        assert_eq!(
            minutes_left(OffsetDateTime::from_unix_timestamp(start).unwrap(), limit),
            15
        );
    }
}
