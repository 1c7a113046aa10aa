//! Password hashing with argon2id, off the async threads (it is deliberately slow).

use argon2::Argon2;
use argon2::password_hash::phc::PasswordHash;
use argon2::password_hash::{PasswordHasher, PasswordVerifier};

/// A real argon2id hash of a random string, verified against when an address has no account,
/// so that a failed sign-in takes as long either way.
pub const DUMMY_HASH: &str = "$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$Xv0ctwLAh8Yp3IiJN3M2y3Ui9cwJvWjz5VNGSf6zF3U";

pub async fn hash(password: String) -> anyhow::Result<String> {
    tokio::task::spawn_blocking(move || {
        let hashed = Argon2::default()
            .hash_password(password.as_bytes())
            .map(|h| h.to_string())
            .map_err(|e| anyhow::anyhow!("hashing failed: {e}"));
        crate::give_back_freed_memory();
        hashed
    })
    .await?
}

/// Whether `password` matches the stored PHC string.
pub async fn verify(password: String, stored: String) -> bool {
    tokio::task::spawn_blocking(move || {
        let matches = PasswordHash::new(&stored)
            .map(|parsed| {
                Argon2::default()
                    .verify_password(password.as_bytes(), &parsed)
                    .is_ok()
            })
            .unwrap_or(false);
        crate::give_back_freed_memory();
        matches
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
