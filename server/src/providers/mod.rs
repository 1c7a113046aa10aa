//! Outside services, each behind one small type or trait with a real adapter and a stand-in the
//! tests run: card payments (the built-in sandbox, or iyzico), professional-network sign-in
//! (OpenID Connect) and the population registry's identity check. Mail (SMTP) lives in `mail`.
//! Nothing here touches the database or knows about requests.

pub mod edevlet;
pub mod iyzico;
pub mod oidc;
pub mod payments;
pub mod sandbox;
