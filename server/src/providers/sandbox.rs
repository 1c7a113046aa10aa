//! The built-in sandbox payment provider: it runs the whole card flow on our own pages, with a
//! 3-D Secure style challenge, so every path to `/paymentSuccess` and `/paymentFail` is real.
//! It takes no money: a payment it "completes" is paid only in our database, and a refund is a
//! record. Behind an `https` public URL it needs `ORTAK_ALLOW_SANDBOX_PAYMENTS`.
//!
//! Test cards (any future expiry, any CVV):
//! - `4242 4242 4242 4242`: asks for the 3-D Secure code `123456`, then succeeds;
//! - `4000 0000 0000 0002`: declined by the issuer at once;
//! - any other number that passes the Luhn check behaves like the first.

use super::payments::{
    Charge, FailKind, PaymentProvider, PaymentRef, ProviderFuture, RefundOutcome, RefundRecord,
    Refusal, StartPayment, Started, VerifiedCallback,
};

pub const DECLINED_CARD: &str = "4000000000000002";
pub const CHALLENGE_CODE: &str = "123456";

pub struct Sandbox;

impl PaymentProvider for Sandbox {
    fn name(&self) -> &'static str {
        "sandbox"
    }

    fn start<'a>(&'a self, p: &'a StartPayment<'a>) -> ProviderFuture<'a, Started> {
        Box::pin(async move {
            if p.card.number == DECLINED_CARD {
                return Started::Refused(Refusal::new(
                    FailKind::Declined,
                    "sandbox: card declined by issuer",
                ));
            }
            // The challenge page is ours (`/sandbox/3ds/…`); it answers to `/invFlow/callback`.
            Started::Redirect(format!("/sandbox/3ds/{}", p.payment.payment))
        })
    }

    fn complete<'a>(
        &'a self,
        _p: PaymentRef<'a>,
        _callback: &'a VerifiedCallback,
    ) -> ProviderFuture<'a, Charge> {
        Box::pin(async {
            Charge::Paid {
                provider_state: "sandbox: paid (no money moves)".into(),
            }
        })
    }

    /// The sandbox keeps nothing of its own: a payment left half-way (a crash between asking
    /// and recording) was never charged.
    fn retrieve<'a>(&'a self, _p: PaymentRef<'a>) -> ProviderFuture<'a, Charge> {
        Box::pin(async {
            Charge::Open {
                provider_state: "sandbox: not charged".into(),
            }
        })
    }

    fn refund<'a>(&'a self, p: PaymentRef<'a>, _ip: &'a str) -> ProviderFuture<'a, RefundOutcome> {
        Box::pin(async move {
            RefundOutcome::Refunded {
                reference: format!("sandbox-refund-{}", p.payment),
            }
        })
    }

    fn refunds_of<'a>(&'a self, _p: PaymentRef<'a>) -> ProviderFuture<'a, RefundRecord> {
        // The sandbox keeps no records and moves no money: asking again is always safe.
        Box::pin(async { RefundRecord::NotRefunded })
    }
}
