//! The built-in sandbox payment provider: it runs the whole card flow on our own pages, with a
//! 3-D Secure style challenge, so every path to `/paymentSuccess` and `/paymentFail` is real.
//!
//! Test cards (any future expiry, any CVV):
//! - `4242 4242 4242 4242`: asks for the 3-D Secure code `123456`, then succeeds;
//! - `4000 0000 0000 0002`: declined by the issuer at once;
//! - any other number that passes the Luhn check behaves like the first.

use std::future::Future;
use std::pin::Pin;

use ortak_app::domain::card::Card;
use ortak_app::domain::money::Money;

use super::payments::{PaymentProvider, Started};

pub const DECLINED_CARD: &str = "4000000000000002";
pub const CHALLENGE_CODE: &str = "123456";

pub struct Sandbox;

impl PaymentProvider for Sandbox {
    fn name(&self) -> &'static str {
        "sandbox"
    }

    fn start<'a>(
        &'a self,
        payment_id: &'a str,
        _amount: Money,
        card: &'a Card,
    ) -> Pin<Box<dyn Future<Output = anyhow::Result<Started>> + Send + 'a>> {
        Box::pin(async move {
            if card.number == DECLINED_CARD {
                return Ok(Started::Declined("card declined by issuer".into()));
            }
            // The challenge page is ours (`/sandbox/3ds/…`); it answers to `/invFlow/callback`.
            Ok(Started::Challenge(format!("/sandbox/3ds/{payment_id}")))
        })
    }
}
