//! The SQL of payments: the request being paid, card payments with their outcome, and the
//! payer's escrow transfer. Only a card's brand and last four digits are ever stored.

use ortak_app::domain::investing::RequestStatus;
use sqlx::{SqliteConnection, SqlitePool};
use time::OffsetDateTime;

/// Where a card payment stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, sqlx::Type)]
#[sqlx(rename_all = "snake_case")]
pub enum PaymentStatus {
    /// Waiting for the issuer's 3-D Secure answer.
    Challenge,
    Succeeded,
    Failed,
}

/// A request as the payment steps need it.
pub struct PayableRequest {
    pub id: i64,
    pub status: RequestStatus,
    pub fee_kurus: i64,
    pub investment_kurus: i64,
    pub fee_paid_at: Option<OffsetDateTime>,
    pub startup: String,
    pub has_transfer: bool,
}

/// `user`'s own request `id`; another investor's is as missing as one that is not.
pub async fn own_request(
    db: &SqlitePool,
    id: i64,
    user: i64,
) -> sqlx::Result<Option<PayableRequest>> {
    sqlx::query_as!(
        PayableRequest,
        r#"SELECT r.id, r.status AS "status: RequestStatus", r.fee_kurus, r.investment_kurus,
               r.fee_paid_at AS "fee_paid_at: OffsetDateTime", s.name AS startup,
               EXISTS (SELECT 1 FROM bank_transfers b WHERE b.request_id = r.id) AS "has_transfer!: bool"
           FROM investment_requests r JOIN startups s ON s.id = r.startup_id
           WHERE r.id = ? AND r.user_id = ?"#,
        id,
        user
    )
    .fetch_optional(db)
    .await
}

/// A card payment handed to the provider, waiting for its challenge.
pub struct NewPayment<'a> {
    pub public_id: &'a str,
    pub request: i64,
    pub provider: &'a str,
    pub amount_kurus: i64,
    pub card_brand: &'a str,
    pub card_last4: &'a str,
}

pub async fn insert_payment(db: &SqlitePool, p: &NewPayment<'_>) -> sqlx::Result<()> {
    let status = PaymentStatus::Challenge;
    sqlx::query!(
        "INSERT INTO payments (public_id, request_id, provider, amount_kurus, status, card_brand, card_last4)
         VALUES (?, ?, ?, ?, ?, ?, ?)",
        p.public_id,
        p.request,
        p.provider,
        p.amount_kurus,
        status,
        p.card_brand,
        p.card_last4
    )
    .execute(db)
    .await?;
    Ok(())
}

/// A payment whose outcome was just recorded.
pub struct Finished {
    pub request_id: i64,
    pub amount_kurus: i64,
    pub card_brand: String,
    pub card_last4: String,
}

/// Records the outcome of a payment still waiting for it; `None` when it already had one.
pub async fn finish_payment(
    conn: &mut SqliteConnection,
    public_id: &str,
    outcome: PaymentStatus,
    failure_reason: Option<&str>,
    now: OffsetDateTime,
) -> sqlx::Result<Option<Finished>> {
    sqlx::query_as!(
        Finished,
        "UPDATE payments SET status = ?, failure_reason = ?, completed_at = ?
         WHERE public_id = ? AND status = 'challenge'
         RETURNING request_id, amount_kurus, card_brand, card_last4",
        outcome,
        failure_reason,
        now,
        public_id
    )
    .fetch_optional(conn)
    .await
}

/// The request a payment is for, if it is `user`'s.
pub async fn payment_request(
    db: &SqlitePool,
    public_id: &str,
    user: i64,
) -> sqlx::Result<Option<i64>> {
    sqlx::query_scalar!(
        "SELECT p.request_id FROM payments p JOIN investment_requests r ON r.id = p.request_id
         WHERE p.public_id = ? AND r.user_id = ?",
        public_id,
        user
    )
    .fetch_optional(db)
    .await
}

pub async fn payment_status(db: &SqlitePool, public_id: &str) -> sqlx::Result<PaymentStatus> {
    sqlx::query_scalar!(
        r#"SELECT status AS "status: PaymentStatus" FROM payments WHERE public_id = ?"#,
        public_id
    )
    .fetch_one(db)
    .await
}

/// A sandbox payment waiting for its 3-D Secure code.
pub struct Challenge {
    pub amount_kurus: i64,
    pub card_brand: String,
    pub card_last4: String,
}

/// `user`'s sandbox payment `public_id`, if it still waits for its challenge.
pub async fn sandbox_challenge(
    db: &SqlitePool,
    public_id: &str,
    user: i64,
) -> sqlx::Result<Option<Challenge>> {
    sqlx::query_as!(
        Challenge,
        "SELECT p.amount_kurus, p.card_brand, p.card_last4
         FROM payments p JOIN investment_requests r ON r.id = p.request_id
         WHERE p.public_id = ? AND p.provider = 'sandbox' AND p.status = 'challenge' AND r.user_id = ?",
        public_id,
        user
    )
    .fetch_optional(db)
    .await
}

/// The payer's details for the escrow transfer, trimmed.
pub struct NewTransfer<'a> {
    pub request: i64,
    pub reference: &'a str,
    pub payer_name: &'a str,
    pub address: &'a str,
    pub country: &'a str,
    pub city: &'a str,
    pub post_code: &'a str,
    pub phone: &'a str,
    pub amount_kurus: i64,
    /// Where the clearing bank returns the money if the request ends without allocation.
    pub payer_iban: &'a str,
}

/// Stores the transfer details; a request keeps the first ones it was given.
pub async fn insert_transfer(db: &SqlitePool, t: &NewTransfer<'_>) -> sqlx::Result<()> {
    sqlx::query!(
        "INSERT OR IGNORE INTO bank_transfers (request_id, reference, payer_name, address, country, city, post_code, phone,
             amount_kurus, payer_iban)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        t.request,
        t.reference,
        t.payer_name,
        t.address,
        t.country,
        t.city,
        t.post_code,
        t.phone,
        t.amount_kurus,
        t.payer_iban
    )
    .execute(db)
    .await?;
    Ok(())
}

pub struct Transfer {
    pub reference: String,
    pub amount_kurus: i64,
}

pub async fn transfer(db: &SqlitePool, request: i64) -> sqlx::Result<Option<Transfer>> {
    sqlx::query_as!(
        Transfer,
        "SELECT reference, amount_kurus FROM bank_transfers WHERE request_id = ?",
        request
    )
    .fetch_optional(db)
    .await
}
