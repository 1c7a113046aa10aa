//! One-click unsubscribe links (RFC 8058). A link names a member and a kind of mail and is
//! signed with an install secret, so it needs no stored token and cannot be forged for another
//! member or kind. It only ever switches that kind off, so it does not expire.

use base64::Engine;
use hmac::{Hmac, Mac};
use ortak_app::domain::notifications::MailKind;
use sha2::Sha256;
use sqlx::SqlitePool;

const B64: base64::engine::GeneralPurpose = base64::engine::general_purpose::URL_SAFE_NO_PAD;

#[derive(Clone)]
pub struct UnsubscribeKey(Vec<u8>);

impl UnsubscribeKey {
    /// The install's key (created on first start).
    pub async fn load(db: &SqlitePool) -> anyhow::Result<UnsubscribeKey> {
        Ok(UnsubscribeKey(
            crate::db::secrets::load_or_create(db, "unsubscribe_key").await?,
        ))
    }

    fn mac(&self, user: i64, kind: MailKind) -> Hmac<Sha256> {
        let mut mac = Hmac::<Sha256>::new_from_slice(&self.0).expect("any key length");
        mac.update(format!("unsubscribe:{user}:{}", kind.code()).as_bytes());
        mac
    }

    /// The token of `user`'s link for `kind`: `{user}.{kind}.{signature}`.
    pub fn token(&self, user: i64, kind: MailKind) -> String {
        let tag = self.mac(user, kind).finalize().into_bytes();
        format!("{user}.{}.{}", kind.code(), B64.encode(tag))
    }

    /// The member and kind a genuine token names.
    pub fn check(&self, token: &str) -> Option<(i64, MailKind)> {
        let mut parts = token.splitn(3, '.');
        let user: i64 = parts.next()?.parse().ok()?;
        let kind = MailKind::from_code(parts.next()?)?;
        let tag = B64.decode(parts.next()?).ok()?;
        self.mac(user, kind)
            .verify_slice(&tag)
            .is_ok()
            .then_some((user, kind))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_names_only_its_member_and_kind() {
        let key = UnsubscribeKey(b"test key".to_vec());
        let token = key.token(42, MailKind::Digest);
        assert_eq!(key.check(&token), Some((42, MailKind::Digest)));
        let sig = token.rsplit('.').next().unwrap();
        assert_eq!(key.check(&format!("43.digest.{sig}")), None);
        assert_eq!(key.check(&format!("42.updates.{sig}")), None);
        assert_eq!(key.check("42.digest."), None);
        assert_eq!(key.check("garbage"), None);
        let other = UnsubscribeKey(b"other key".to_vec());
        assert_eq!(other.check(&token), None);
    }
}
