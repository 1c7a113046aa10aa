//! Password hashing with argon2id, off the async threads (it is deliberately slow).

use argon2::Argon2;
use argon2::password_hash::phc::PasswordHash;
use argon2::password_hash::{PasswordHasher, PasswordVerifier};

/// A real argon2id hash of a random string, verified against when an address has no account,
/// so that a failed sign-in takes as long either way.
pub const DUMMY_HASH: &str = "$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$Xv0ctwLAh8Yp3IiJN3M2y3Ui9cwJvWjz5VNGSf6zF3U";

/// Runs `argon2` on a blocking thread, which then gives the hash's 19 MiB back to the system
/// at once (`allocator::give_back_freed_memory`).
async fn off_the_async_threads<T: Send + 'static>(
    argon2: impl FnOnce() -> T + Send + 'static,
) -> Result<T, tokio::task::JoinError> {
    tokio::task::spawn_blocking(move || {
        let result = argon2();
        crate::allocator::give_back_freed_memory();
        result
    })
    .await
}

pub async fn hash(password: String) -> anyhow::Result<String> {
    off_the_async_threads(move || {
        Argon2::default()
            .hash_password(password.as_bytes())
            .map(|h| h.to_string())
            .map_err(|e| anyhow::anyhow!("hashing failed: {e}"))
    })
    .await?
}

/// Whether `password` matches the stored PHC string.
pub async fn verify(password: String, stored: String) -> bool {
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
    .unwrap_or(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn hashes_with_argon2id_and_a_salt_and_verifies() {
        let stored = hash("correct horse".into()).await.unwrap();
        assert!(stored.starts_with("$argon2id$"));
        assert_ne!(stored, hash("correct horse".into()).await.unwrap());
        assert!(verify("correct horse".into(), stored.clone()).await);
        assert!(!verify("wrong horse".into(), stored).await);
        assert!(!verify("anything".into(), "not a hash".into()).await);
    }

    #[tokio::test]
    async fn the_dummy_hash_is_a_real_argon2id_hash() {
        let parsed = PasswordHash::new(DUMMY_HASH).unwrap();
        assert_eq!(parsed.algorithm.as_str(), "argon2id");
        assert!(!verify("guess".into(), DUMMY_HASH.into()).await);
    }
}
