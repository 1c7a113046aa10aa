//! Password hashing with argon2id, off the async threads (it is deliberately slow).

use argon2::Argon2;
use argon2::password_hash::PasswordHasher;

pub async fn hash(password: String) -> anyhow::Result<String> {
    tokio::task::spawn_blocking(move || {
        Argon2::default()
            .hash_password(password.as_bytes())
            .map(|h| h.to_string())
            .map_err(|e| anyhow::anyhow!("hashing failed: {e}"))
    })
    .await?
}

#[cfg(test)]
mod tests {
    use argon2::Argon2;
    use argon2::password_hash::{PasswordVerifier, phc::PasswordHash};

    #[tokio::test]
    async fn hashes_with_argon2id_and_a_salt() {
        let stored = super::hash("correct horse".into()).await.unwrap();
        assert!(stored.starts_with("$argon2id$"));
        assert_ne!(stored, super::hash("correct horse".into()).await.unwrap());
        let parsed = PasswordHash::new(&stored).unwrap();
        assert!(
            Argon2::default()
                .verify_password(b"correct horse", &parsed)
                .is_ok()
        );
        assert!(
            Argon2::default()
                .verify_password(b"wrong horse", &parsed)
                .is_err()
        );
    }
}
