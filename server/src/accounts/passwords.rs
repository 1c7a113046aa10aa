//! Password hashing with argon2id, off the async threads (it is deliberately slow), and at
//! most as many at once as the memory budget holds: each hash takes 19 MiB, and 64 concurrent
//! sign-ins took 1.2 GB with no bound (issue 26, item 10). A hash waits for its turn for a few
//! seconds, then the sign-in answers 503 with a retry hint.

use std::sync::OnceLock;
use std::time::Duration;

use argon2::Argon2;
use axum::http::StatusCode;
use tokio::sync::Semaphore;

use crate::error::AppError;
use argon2::password_hash::phc::PasswordHash;
use argon2::password_hash::{PasswordHasher, PasswordVerifier};

/// A real argon2id hash of a random string, verified against when an address has no account,
/// so that a failed sign-in takes as long either way.
pub const DUMMY_HASH: &str = "$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$Xv0ctwLAh8Yp3IiJN3M2y3Ui9cwJvWjz5VNGSf6zF3U";

/// What one hash takes (argon2's default memory cost).
const HASH_MIB: u64 = 19;

/// How long a hash waits for a turn before the request is answered 503.
const WAIT: Duration = Duration::from_secs(5);

static TURNS: OnceLock<Semaphore> = OnceLock::new();

/// Sets the memory hashing may use at once (`ORTAK_HASHING_MEMORY_MB`), at start; at least one
/// hash runs whatever the budget.
pub fn set_memory_budget(mib: u64) {
    let turns = (mib / HASH_MIB).max(1) as usize;
    let _ = TURNS.set(Semaphore::new(turns));
}

fn turns() -> &'static Semaphore {
    // One at a time (19 MiB, the default budget) unless the start-up set the budget.
    TURNS.get_or_init(|| Semaphore::new(1))
}

/// Runs `argon2` on a blocking thread once a turn is free, which then gives the hash's 19 MiB
/// back to the system at once (`allocator::give_back_freed_memory`).
async fn off_the_async_threads<T: Send + 'static>(
    argon2: impl FnOnce() -> T + Send + 'static,
) -> Result<T, AppError> {
    let busy = AppError::Refused(StatusCode::SERVICE_UNAVAILABLE, "busy-try-again");
    let turn = tokio::time::timeout(WAIT, turns().acquire())
        .await
        .map_err(|_| busy)?
        .map_err(anyhow::Error::from)?;
    let result = tokio::task::spawn_blocking(move || {
        let result = argon2();
        crate::allocator::give_back_freed_memory();
        result
    })
    .await
    .map_err(anyhow::Error::from)?;
    drop(turn);
    Ok(result)
}

pub async fn hash(password: String) -> Result<String, AppError> {
    off_the_async_threads(move || {
        Argon2::default()
            .hash_password(password.as_bytes())
            .map(|h| h.to_string())
            .map_err(|e| anyhow::anyhow!("hashing failed: {e}"))
    })
    .await?
    .map_err(AppError::from)
}

/// Whether `password` matches the stored PHC string (busy: 503).
pub async fn verify(password: String, stored: String) -> Result<bool, AppError> {
    off_the_async_threads(move || {
        PasswordHash::new(&stored)
            .map(|parsed| {
                Argon2::default()
                    .verify_password(password.as_bytes(), &parsed)
                    .is_ok()
            })
            .unwrap_or(false)
    })
    .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn hashes_with_argon2id_and_a_salt_and_verifies() {
        let stored = hash("correct horse".into()).await.unwrap();
        assert!(stored.starts_with("$argon2id$"));
        assert_ne!(stored, hash("correct horse".into()).await.unwrap());
        assert!(
            verify("correct horse".into(), stored.clone())
                .await
                .unwrap()
        );
        assert!(!verify("wrong horse".into(), stored).await.unwrap());
        assert!(
            !verify("anything".into(), "not a hash".into())
                .await
                .unwrap()
        );
    }

    #[tokio::test]
    async fn the_dummy_hash_is_a_real_argon2id_hash() {
        let parsed = PasswordHash::new(DUMMY_HASH).unwrap();
        assert_eq!(parsed.algorithm.as_str(), "argon2id");
        assert!(!verify("guess".into(), DUMMY_HASH.into()).await.unwrap());
    }
}
