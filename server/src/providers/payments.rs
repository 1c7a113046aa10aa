//! The card payment provider trait, what its calls answer, the choice of provider from the
//! settings, and the key that signs the sandbox's callbacks.
//!
//! A payment goes: `start` (3-D Secure begins: our own challenge page, or the bank's page as
//! HTML to show), the browser comes back through a callback the provider signs
//! (`verify_callback` for providers that post one to us), `complete` takes the money, `retrieve`
//! says what became of a payment whose answer never came, `refund` gives a fee back and
//! `refunds_of` says what was given back when a refund's answer never came. Every call
//! names our payment (`payment`, its public id) and the request it pays, so the provider's
//! records tie back to ours. Nothing here touches the database.

use std::future::Future;
use std::pin::Pin;

use base64::Engine;
use hmac::{Hmac, Mac};
use ortak_app::domain::card::Card;
use ortak_app::domain::money::Money;
use ortak_app::i18n::Locale;
use sha2::Sha256;
use time::OffsetDateTime;

use crate::settings::{PaymentProviderKind, PaymentSettings};

pub type ProviderFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// The investor as the provider must know them (from their MKK data and account).
pub struct Buyer {
    pub user_id: i64,
    pub first_name: String,
    pub last_name: String,
    pub identity_number: String,
    pub email: String,
    /// `+90…` as the MKK form normalised it.
    pub phone: String,
    pub city: String,
    pub country: String,
    pub address: String,
    pub registered_at: OffsetDateTime,
    pub last_sign_in_at: Option<OffsetDateTime>,
    /// The investor's address as we saw it.
    pub ip: String,
}

/// Which payment a call is about, and where to send its log lines.
#[derive(Clone, Copy)]
pub struct PaymentRef<'a> {
    /// Our payment's public id (iyzico's `conversationId`).
    pub payment: &'a str,
    /// The provider's id for it, once `start` gave one.
    pub provider_payment_id: Option<&'a str>,
    pub request_id: i64,
    pub amount: Money,
    pub locale: Locale,
    /// The HTTP request id (or the job's name) the provider's log lines carry.
    pub log_id: &'a str,
}

/// `start`'s input: the card passes through in memory only.
pub struct StartPayment<'a> {
    pub payment: PaymentRef<'a>,
    pub card: &'a Card,
    pub buyer: &'a Buyer,
    /// Where the provider sends the browser back to.
    pub callback_url: &'a str,
}

/// Why a payment failed, as the investor is told (`/paymentFail?reason=`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FailKind {
    Declined,
    InsufficientFunds,
    ExpiredCard,
    InvalidCvc,
    /// The bank's 3-D Secure check did not pass.
    ThreeDs,
    /// The provider did not answer in time.
    Timeout,
    /// The provider refused the call itself (keys, validation, its own error).
    Provider,
}

impl FailKind {
    /// The `reason` of `/paymentFail` (and the message `payment-fail-reason-…`).
    pub fn code(self) -> &'static str {
        match self {
            FailKind::Declined => "declined",
            FailKind::InsufficientFunds => "insufficient_funds",
            FailKind::ExpiredCard => "expired_card",
            FailKind::InvalidCvc => "invalid_cvc",
            FailKind::ThreeDs => "three_ds",
            FailKind::Timeout => "timeout",
            FailKind::Provider => "provider",
        }
    }
}

/// A refusal: what the investor is told, and the provider's own code for staff and the log.
#[derive(Clone, Debug)]
pub struct Refusal {
    pub kind: FailKind,
    pub code: String,
}

impl Refusal {
    pub fn new(kind: FailKind, code: impl Into<String>) -> Refusal {
        Refusal {
            kind,
            code: code.into(),
        }
    }
}

/// What `start` answers.
pub enum Started {
    /// Send the browser to this address of ours (the sandbox's challenge page).
    Redirect(String),
    /// Show the bank's 3-D Secure page (HTML) for the provider's payment `provider_payment_id`.
    Page {
        provider_payment_id: String,
        html: String,
    },
    /// Nothing was started; nothing can be charged.
    Refused(Refusal),
}

/// The browser's return from 3-D Secure, once the provider's signature on it checked out.
#[derive(Clone, Debug)]
pub struct VerifiedCallback {
    pub provider_payment_id: String,
    /// Our payment's public id as the provider echoed it (may be empty).
    pub payment: String,
    /// 3-D Secure passed (`status=success` and `mdStatus=1`).
    pub passed: bool,
    pub md_status: String,
    /// Opaque data the provider wants back in `complete`.
    pub conversation_data: String,
}

/// What became of a charge: `complete` and `retrieve` answer this.
#[derive(Clone, Debug)]
pub enum Charge {
    /// The money was taken, for exactly the amount, currency and payment we asked.
    Paid { provider_state: String },
    /// Nothing was taken.
    Failed(Refusal),
    /// The provider knows the payment but it never reached a charge (3-D Secure started or
    /// passed, no authorisation): nothing was taken, nothing will be without us.
    Open { provider_state: String },
    /// The answer is missing or cannot be trusted (timeout, transport, no valid signature):
    /// ask again later, never guess.
    Unknown(String),
    /// A signed answer for another payment, basket, currency or amount than ours: never
    /// counted as the fee; money may have moved, so staff settle it by hand.
    Mismatch(String),
}

/// What `refund` answers.
#[derive(Clone, Debug)]
pub enum RefundOutcome {
    /// Given back; the provider's reference for the refund.
    Refunded { reference: String },
    /// The provider refused (its code); nothing was given back.
    Refused { code: String },
    /// No trustworthy answer: resolve later.
    Unknown(String),
}

/// What the provider's records say was refunded of a payment (`refunds_of`), asked after a
/// refund's answer was lost.
#[derive(Clone, Debug)]
pub enum RefundRecord {
    /// Our whole amount was given back; the provider's reference for it.
    Refunded { reference: String },
    /// Nothing was given back: asking for the refund again is safe.
    NotRefunded,
    /// Some other amount was given back: a person must look.
    Other(String),
    /// No trustworthy answer: ask again later.
    Unknown(String),
}

/// A card payment provider: the built-in [`super::sandbox::Sandbox`] (the default) or
/// [`super::iyzico::Iyzico`], chosen by `ORTAK_PAYMENT_PROVIDER`.
pub trait PaymentProvider: Send + Sync {
    /// Stored with each payment (`payments.provider`).
    fn name(&self) -> &'static str;

    /// Starts 3-D Secure for `p.payment.amount` on `p.card`.
    fn start<'a>(&'a self, p: &'a StartPayment<'a>) -> ProviderFuture<'a, Started>;

    /// Checks a callback form the provider had the browser post to us (`None` when it is not
    /// genuine, or when this provider has no such callback).
    fn verify_callback(&self, fields: &[(String, String)]) -> Option<VerifiedCallback> {
        let _ = fields;
        None
    }

    /// Takes the money after 3-D Secure passed.
    fn complete<'a>(
        &'a self,
        p: PaymentRef<'a>,
        callback: &'a VerifiedCallback,
    ) -> ProviderFuture<'a, Charge>;

    /// What the provider knows of payment `p` now.
    fn retrieve<'a>(&'a self, p: PaymentRef<'a>) -> ProviderFuture<'a, Charge>;

    /// Gives `p.amount` back to the card; `ip` is who asked (the investor's or staff's).
    fn refund<'a>(&'a self, p: PaymentRef<'a>, ip: &'a str) -> ProviderFuture<'a, RefundOutcome>;

    /// What the provider's records say was refunded of payment `p` (a refund's answer that
    /// never came is resolved by this, never by refunding blind).
    fn refunds_of<'a>(&'a self, p: PaymentRef<'a>) -> ProviderFuture<'a, RefundRecord>;

    /// Origins the bank's 3-D Secure page may post forms to, beyond any `https:` one.
    fn form_origins(&self) -> Vec<String> {
        Vec::new()
    }
}

/// The provider the settings ask for. The sandbox takes no money: behind an `https` public
/// URL (a real install) it refuses to start unless `ORTAK_ALLOW_SANDBOX_PAYMENTS` is set.
pub fn from_settings(
    settings: &PaymentSettings,
    public_url: &str,
) -> anyhow::Result<Box<dyn PaymentProvider>> {
    match settings.payment_provider {
        PaymentProviderKind::Sandbox => {
            if public_url.starts_with("https://") {
                if !settings.allow_sandbox_payments {
                    anyhow::bail!(
                        "refusing to start: the public URL {public_url} is https but the payment \
                         provider is the sandbox, which accepts test cards as paid fees. Set \
                         ORTAK_PAYMENT_PROVIDER=iyzico with its keys, or ORTAK_ALLOW_SANDBOX_PAYMENTS=1 \
                         for a demo or staging install"
                    );
                }
                tracing::warn!(
                    "SANDBOX PAYMENTS ON AN HTTPS INSTALL ({public_url}): test cards count as paid \
                     fees and no money moves (ORTAK_ALLOW_SANDBOX_PAYMENTS is set); never use this \
                     for real investors"
                );
            }
            Ok(Box::new(super::sandbox::Sandbox))
        }
        PaymentProviderKind::Iyzico => {
            let iyzico = super::iyzico::Iyzico::new(settings)?;
            if settings.iyzico_base_url.contains("sandbox") {
                tracing::warn!(base = %settings.iyzico_base_url, "iyzico's sandbox: no real money moves");
            }
            Ok(Box::new(iyzico))
        }
    }
}

/// Signs and checks the sandbox's callbacks (`payment:outcome`).
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
