//! The card payment provider trait and the key that signs provider callbacks.

use std::future::Future;
use std::pin::Pin;

use base64::Engine;
use hmac::{Hmac, Mac};
use ortak_app::domain::card::Card;
use ortak_app::domain::money::Money;
use sha2::Sha256;

/// What a provider answers when a card payment starts.
pub enum Started {
    /// Send the browser to the issuer's 3-D Secure page.
    Challenge(String),
    Declined(String),
}

/// A card payment provider. The built-in [`super::sandbox::Sandbox`] is the default; a real
/// provider is an adapter implementing this trait.
pub trait PaymentProvider: Send + Sync {
    fn name(&self) -> &'static str;

    /// Starts charging `amount` to `card` for our payment `payment_id`; the provider later
    /// sends the browser back with the outcome, signed with the callback key.
    fn start<'a>(
        &'a self,
        payment_id: &'a str,
        amount: Money,
        card: &'a Card,
    ) -> Pin<Box<dyn Future<Output = anyhow::Result<Started>> + Send + 'a>>;
}

/// Signs and checks provider callbacks (`payment:outcome`).
pub struct CallbackKey(Vec<u8>);

impl CallbackKey {
    pub fn new(key: Vec<u8>) -> CallbackKey {
        CallbackKey(key)
    }

    fn mac(&self, payment: &str, outcome: &str) -> Hmac<Sha256> {
        let mut mac = Hmac::<Sha256>::new_from_slice(&self.0).expect("any key length");
        mac.update(payment.as_bytes());
        mac.update(b":");
        mac.update(outcome.as_bytes());
        mac
    }

    pub fn sign(&self, payment: &str, outcome: &str) -> String {
        let tag = self.mac(payment, outcome).finalize().into_bytes();
        base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(tag)
    }

    pub fn verify(&self, payment: &str, outcome: &str, signature: &str) -> bool {
        base64::engine::general_purpose::URL_SAFE_NO_PAD
            .decode(signature)
            .is_ok_and(|tag| self.mac(payment, outcome).verify_slice(&tag).is_ok())
    }
}
