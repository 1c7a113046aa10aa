//! The SQL of payments: the request being paid, its investor as the provider must know them,
//! and the payer's escrow transfer. Card payments are in `charges`, refunds and staff's view in
//! `refunds`. Only a card's brand and last four digits are ever stored.

pub mod charges;
pub mod refunds;

use ortak_app::domain::investing::RequestStatus;
use sqlx::SqlitePool;
use time::OffsetDateTime;

/// A request as the payment steps need it.
pub struct PayableRequest {
    pub id: i64,
    pub status: RequestStatus,
    pub fee_kurus: i64,
    pub investment_kurus: i64,
    pub fee_paid_at: Option<OffsetDateTime>,
    /// When the investment must reach escrow (set once the fee is paid).
    pub transfer_due_at: Option<OffsetDateTime>,
    pub startup: String,
    pub has_transfer: bool,
    /// The investor's name as verified in their MKK data: the payer escrow accepts.
    pub verified_name: Option<String>,
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
               r.fee_paid_at AS "fee_paid_at: OffsetDateTime",
               r.transfer_due_at AS "transfer_due_at: OffsetDateTime", s.name AS startup,
               EXISTS (SELECT 1 FROM bank_transfers b WHERE b.request_id = r.id) AS "has_transfer!: bool",
               m.verified_name AS "verified_name?"
           FROM investment_requests r JOIN startups s ON s.id = r.startup_id
           LEFT JOIN mkk_profiles m ON m.user_id = r.user_id
           WHERE r.id = ? AND r.user_id = ?"#,
        id,
        user
    )
    .fetch_optional(db)
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

/// The investor paying request `request`, as the provider must know them: the MKK data for
/// the person, the account for where they live.
pub struct BuyerRow {
    pub user_id: i64,
    pub first_name: String,
    pub last_name: String,
    pub identity_number: String,
    pub email: String,
    pub phone: String,
    pub city: String,
    pub country: String,
    pub registered_at: OffsetDateTime,
    pub last_sign_in_at: Option<OffsetDateTime>,
}

pub async fn buyer(db: &SqlitePool, request: i64) -> sqlx::Result<Option<BuyerRow>> {
    sqlx::query_as!(
        BuyerRow,
        r#"SELECT u.id AS "user_id!", m.first_name, m.last_name, m.identity_number, m.email, m.phone,
                u.city, u.country, u.created_at AS "registered_at: OffsetDateTime",
                u.last_sign_in_at AS "last_sign_in_at: OffsetDateTime"
           FROM investment_requests r JOIN users u ON u.id = r.user_id
           JOIN mkk_profiles m ON m.user_id = u.id
           WHERE r.id = ?"#,
        request
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
    /// When the payer declared the IBAN is in their own name.
    pub iban_own_declared_at: OffsetDateTime,
}

/// Stores the transfer details; a request keeps the first ones it was given.
pub async fn insert_transfer(db: &SqlitePool, t: &NewTransfer<'_>) -> sqlx::Result<()> {
    sqlx::query!(
        "INSERT OR IGNORE INTO bank_transfers (request_id, reference, payer_name, address, country, city, post_code, phone,
             amount_kurus, payer_iban, iban_own_declared_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        t.request,
        t.reference,
        t.payer_name,
        t.address,
        t.country,
        t.city,
        t.post_code,
        t.phone,
        t.amount_kurus,
        t.payer_iban,
        t.iban_own_declared_at
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
