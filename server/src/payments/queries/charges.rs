//! The SQL of card payments: opening one (the database allows one open payment per request),
//! the bank's page while 3-D Secure runs, claiming it for the charge only while the request is
//! payable, recording the outcome once, and what the background jobs look for. Only a card's
//! brand and last four digits are ever stored.

use ortak_app::i18n::Locale;
use sqlx::{SqliteConnection, SqlitePool};
use time::OffsetDateTime;

/// Where a card payment stands (see migration 0030).
#[derive(Clone, Copy, Debug, PartialEq, Eq, sqlx::Type)]
#[sqlx(rename_all = "snake_case")]
pub enum PaymentStatus {
    /// Waiting for the issuer's 3-D Secure answer.
    Challenge,
    /// The charge was asked for; its answer is not known yet.
    Authorizing,
    Succeeded,
    Failed,
    /// Closed without counting: the request stopped being payable, or the challenge expired.
    Void,
}

impl PaymentStatus {
    /// The stored value, which also names its words (`dashboard-payment-status-…`).
    pub fn code(self) -> &'static str {
        match self {
            PaymentStatus::Challenge => "challenge",
            PaymentStatus::Authorizing => "authorizing",
            PaymentStatus::Succeeded => "succeeded",
            PaymentStatus::Failed => "failed",
            PaymentStatus::Void => "void",
        }
    }
}

/// A payment as the flow and the jobs need it.
#[derive(Clone, Debug)]
pub struct PaymentRow {
    pub public_id: String,
    pub request_id: i64,
    /// The investor whose request it pays.
    pub user_id: i64,
    pub language: Locale,
    pub provider: String,
    pub amount_kurus: i64,
    pub status: PaymentStatus,
    pub provider_payment_id: Option<String>,
}

/// One payment by our public id.
pub async fn by_public_id(db: &SqlitePool, public_id: &str) -> sqlx::Result<Option<PaymentRow>> {
    sqlx::query_as!(
        PaymentRow,
        r#"SELECT p.public_id, p.request_id, r.user_id, u.language AS "language: Locale", p.provider,
                p.amount_kurus, p.status AS "status: PaymentStatus", p.provider_payment_id
           FROM payments p JOIN investment_requests r ON r.id = p.request_id
           JOIN users u ON u.id = r.user_id
           WHERE p.public_id = ?"#,
        public_id
    )
    .fetch_optional(db)
    .await
}

/// One payment by the provider's id for it.
pub async fn by_provider_id(
    db: &SqlitePool,
    provider: &str,
    provider_payment_id: &str,
) -> sqlx::Result<Option<PaymentRow>> {
    sqlx::query_as!(
        PaymentRow,
        r#"SELECT p.public_id, p.request_id, r.user_id, u.language AS "language: Locale", p.provider,
                p.amount_kurus, p.status AS "status: PaymentStatus", p.provider_payment_id
           FROM payments p JOIN investment_requests r ON r.id = p.request_id
           JOIN users u ON u.id = r.user_id
           WHERE p.provider = ? AND p.provider_payment_id = ?"#,
        provider,
        provider_payment_id
    )
    .fetch_optional(db)
    .await
}

/// The request's open payment (waiting for 3-D Secure or for the charge's answer), if any.
pub async fn open_of_request(db: &SqlitePool, request_id: i64) -> sqlx::Result<Option<PaymentRow>> {
    sqlx::query_as!(
        PaymentRow,
        r#"SELECT p.public_id, p.request_id, r.user_id, u.language AS "language: Locale", p.provider,
                p.amount_kurus, p.status AS "status: PaymentStatus", p.provider_payment_id
           FROM payments p JOIN investment_requests r ON r.id = p.request_id
           JOIN users u ON u.id = r.user_id
           WHERE p.request_id = ? AND p.status IN ('challenge', 'authorizing')"#,
        request_id
    )
    .fetch_optional(db)
    .await
}

/// Open payments last touched before `before` (`challenge` or `authorizing`), oldest first.
pub async fn stale(
    db: &SqlitePool,
    status: PaymentStatus,
    before: OffsetDateTime,
) -> sqlx::Result<Vec<PaymentRow>> {
    sqlx::query_as!(
        PaymentRow,
        r#"SELECT p.public_id, p.request_id, r.user_id, u.language AS "language: Locale", p.provider,
                p.amount_kurus, p.status AS "status: PaymentStatus", p.provider_payment_id
           FROM payments p JOIN investment_requests r ON r.id = p.request_id
           JOIN users u ON u.id = r.user_id
           WHERE p.status = ? AND p.updated_at < ? ORDER BY p.updated_at LIMIT 100"#,
        status,
        before
    )
    .fetch_all(db)
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

/// Opens a payment. Fails on `payments_one_open` when the request already has an open or a
/// succeeded one (two tabs racing): the caller uses that one instead.
pub async fn insert(db: &SqlitePool, p: &NewPayment<'_>, now: OffsetDateTime) -> sqlx::Result<()> {
    let status = PaymentStatus::Challenge;
    sqlx::query!(
        "INSERT INTO payments (public_id, request_id, provider, amount_kurus, status, card_brand,
             card_last4, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        p.public_id,
        p.request,
        p.provider,
        p.amount_kurus,
        status,
        p.card_brand,
        p.card_last4,
        now,
        now
    )
    .execute(db)
    .await?;
    Ok(())
}

/// The provider's id for the payment and the bank's page to show while 3-D Secure runs.
pub async fn set_started(
    db: &SqlitePool,
    public_id: &str,
    provider_payment_id: &str,
    page: &str,
) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE payments SET provider_payment_id = ?, three_ds_page = ?, provider_state = 'INIT_THREEDS'
         WHERE public_id = ? AND status = 'challenge'",
        provider_payment_id,
        page,
        public_id
    )
    .execute(db)
    .await?;
    Ok(())
}

/// The bank's page of `user`'s payment, while its challenge is open.
pub async fn three_ds_page(
    db: &SqlitePool,
    public_id: &str,
    user: i64,
) -> sqlx::Result<Option<String>> {
    let page = sqlx::query_scalar!(
        "SELECT p.three_ds_page FROM payments p JOIN investment_requests r ON r.id = p.request_id
         WHERE p.public_id = ? AND r.user_id = ? AND p.status = 'challenge'",
        public_id,
        user
    )
    .fetch_optional(db)
    .await?;
    Ok(page.flatten())
}

/// Moves a challenge to `authorizing` only while its request is approved with the fee unpaid,
/// so the charge is never asked for a cancelled, rejected or already paid request.
pub async fn claim_for_charge(
    db: &SqlitePool,
    public_id: &str,
    now: OffsetDateTime,
) -> sqlx::Result<bool> {
    let done = sqlx::query!(
        "UPDATE payments SET status = 'authorizing', three_ds_page = NULL, updated_at = ?
         WHERE public_id = ? AND status = 'challenge'
           AND EXISTS (SELECT 1 FROM investment_requests r WHERE r.id = payments.request_id
                       AND r.status = 'approved' AND r.fee_paid_at IS NULL)",
        now,
        public_id
    )
    .execute(db)
    .await?;
    Ok(done.rows_affected() > 0)
}

/// How an open payment ends.
pub struct Closing<'a> {
    pub status: PaymentStatus,
    /// The provider took the money.
    pub charged: bool,
    pub reason: Option<&'a str>,
    pub provider_state: Option<&'a str>,
}

/// Ends an open payment (`challenge` or `authorizing`) once; `false` when it already ended.
pub async fn close(
    conn: &mut SqliteConnection,
    public_id: &str,
    c: &Closing<'_>,
    now: OffsetDateTime,
) -> sqlx::Result<bool> {
    let done = sqlx::query!(
        "UPDATE payments SET status = ?, charged = ?, failure_reason = ?,
             provider_state = COALESCE(?, provider_state), three_ds_page = NULL, completed_at = ?,
             updated_at = ?
         WHERE public_id = ? AND status IN ('challenge', 'authorizing')",
        c.status,
        c.charged,
        c.reason,
        c.provider_state,
        now,
        now,
        public_id
    )
    .execute(conn)
    .await?;
    Ok(done.rows_affected() > 0)
}

/// Records the provider's latest word on a payment still waiting for it.
pub async fn note_state(
    db: &SqlitePool,
    public_id: &str,
    provider_state: &str,
    now: OffsetDateTime,
) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE payments SET provider_state = ?, updated_at = ? WHERE public_id = ?",
        provider_state,
        now,
        public_id
    )
    .execute(db)
    .await?;
    Ok(())
}

/// Voids every challenge whose request is no longer payable (cancelled, rejected, paid by
/// another payment): nothing was charged, and now nothing can be. Returns their ids.
pub async fn void_unpayable_challenges(
    db: &SqlitePool,
    now: OffsetDateTime,
) -> sqlx::Result<Vec<String>> {
    sqlx::query_scalar!(
        "UPDATE payments SET status = 'void', failure_reason = 'the request is no longer payable',
             three_ds_page = NULL, completed_at = ?, updated_at = ?
         WHERE status = 'challenge'
           AND NOT EXISTS (SELECT 1 FROM investment_requests r WHERE r.id = payments.request_id
                           AND r.status = 'approved' AND r.fee_paid_at IS NULL)
         RETURNING public_id",
        now,
        now
    )
    .fetch_all(db)
    .await
}
