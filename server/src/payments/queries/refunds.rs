//! The SQL of fee refunds and of what staff see of a request's payments. A refund is claimed
//! (`refunding`) in its own transaction before the provider is asked, so a crash leaves a row
//! the job resolves, never a second refund.

use ortak_app::domain::investing::RequestStatus;
use ortak_app::i18n::Locale;
use sqlx::{SqliteConnection, SqlitePool};
use time::OffsetDateTime;

use super::charges::PaymentStatus;

/// Where a charged payment's refund stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, sqlx::Type)]
#[sqlx(rename_all = "snake_case")]
pub enum RefundStatus {
    /// Asked for; the answer is not recorded yet.
    Refunding,
    Refunded,
    /// The provider refused, or the payment needs a person: staff retry from the request page.
    Failed,
}

impl RefundStatus {
    /// The stored value, which also names its words (`dashboard-refund-status-…`).
    pub fn code(self) -> &'static str {
        match self {
            RefundStatus::Refunding => "refunding",
            RefundStatus::Refunded => "refunded",
            RefundStatus::Failed => "failed",
        }
    }
}

/// A charged payment that may be owed back.
#[derive(Clone, Debug)]
pub struct Refundable {
    pub public_id: String,
    pub request_id: i64,
    pub request_status: RequestStatus,
    pub language: Locale,
    pub amount_kurus: i64,
    pub status: PaymentStatus,
    pub provider_payment_id: Option<String>,
    pub refund_status: Option<RefundStatus>,
}

/// Charged payments with no refund yet (`succeeded` ones whose request may owe the fee back,
/// and `void` ones charged after their request stopped being payable).
pub async fn unrefunded(db: &SqlitePool) -> sqlx::Result<Vec<Refundable>> {
    sqlx::query_as!(
        Refundable,
        r#"SELECT p.public_id, p.request_id, r.status AS "request_status: RequestStatus",
                u.language AS "language: Locale", p.amount_kurus,
                p.status AS "status: PaymentStatus", p.provider_payment_id,
                p.refund_status AS "refund_status: RefundStatus"
           FROM payments p JOIN investment_requests r ON r.id = p.request_id
           JOIN users u ON u.id = r.user_id
           WHERE p.charged = 1 AND p.refund_status IS NULL AND p.status IN ('succeeded', 'void')
           ORDER BY p.id LIMIT 100"#
    )
    .fetch_all(db)
    .await
}

/// Refunds asked for before `before` whose answer was never recorded (a crash, a timeout).
pub async fn stuck(db: &SqlitePool, before: OffsetDateTime) -> sqlx::Result<Vec<Refundable>> {
    sqlx::query_as!(
        Refundable,
        r#"SELECT p.public_id, p.request_id, r.status AS "request_status: RequestStatus",
                u.language AS "language: Locale", p.amount_kurus,
                p.status AS "status: PaymentStatus", p.provider_payment_id,
                p.refund_status AS "refund_status: RefundStatus"
           FROM payments p JOIN investment_requests r ON r.id = p.request_id
           JOIN users u ON u.id = r.user_id
           WHERE p.refund_status = 'refunding' AND p.refund_started_at < ?
           ORDER BY p.id LIMIT 100"#,
        before
    )
    .fetch_all(db)
    .await
}

/// One charged payment of request `request_id`, by public id.
pub async fn of_request(
    db: &SqlitePool,
    request_id: i64,
    public_id: &str,
) -> sqlx::Result<Option<Refundable>> {
    sqlx::query_as!(
        Refundable,
        r#"SELECT p.public_id, p.request_id, r.status AS "request_status: RequestStatus",
                u.language AS "language: Locale", p.amount_kurus,
                p.status AS "status: PaymentStatus", p.provider_payment_id,
                p.refund_status AS "refund_status: RefundStatus"
           FROM payments p JOIN investment_requests r ON r.id = p.request_id
           JOIN users u ON u.id = r.user_id
           WHERE p.request_id = ? AND p.public_id = ? AND p.charged = 1"#,
        request_id,
        public_id
    )
    .fetch_optional(db)
    .await
}

/// Marks the refund asked for, once: from no refund, or (`retry`, staff) from a failed one.
pub async fn claim(
    db: &SqlitePool,
    public_id: &str,
    retry: bool,
    now: OffsetDateTime,
) -> sqlx::Result<bool> {
    let done = sqlx::query!(
        "UPDATE payments SET refund_status = 'refunding', refund_started_at = ?, refund_error = NULL,
             updated_at = ?
         WHERE public_id = ? AND charged = 1
           AND (refund_status IS NULL OR (? AND refund_status = 'failed'))",
        now,
        now,
        public_id,
        retry
    )
    .execute(db)
    .await?;
    Ok(done.rows_affected() > 0)
}

/// Records a refund's outcome (`refunded` with the provider's reference, or `failed` with its
/// code) on a payment being refunded.
pub async fn settle(
    conn: &mut SqliteConnection,
    public_id: &str,
    outcome: RefundStatus,
    reference: Option<&str>,
    error: Option<&str>,
    now: OffsetDateTime,
) -> sqlx::Result<bool> {
    let refunded_at = (outcome == RefundStatus::Refunded).then_some(now);
    let done = sqlx::query!(
        "UPDATE payments SET refund_status = ?, refund_reference = ?, refund_error = ?, refunded_at = ?,
             updated_at = ?
         WHERE public_id = ? AND refund_status = 'refunding'",
        outcome,
        reference,
        error,
        refunded_at,
        now,
        public_id
    )
    .execute(conn)
    .await?;
    Ok(done.rows_affected() > 0)
}

/// Flags a charge that must not be refunded automatically (amounts that differ from ours).
pub async fn flag_for_staff(
    conn: &mut SqliteConnection,
    public_id: &str,
    why: &str,
    now: OffsetDateTime,
) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE payments SET refund_status = 'failed', refund_error = ?, updated_at = ?
         WHERE public_id = ? AND refund_status IS NULL",
        why,
        now,
        public_id
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// A payment as staff see it on the request's page.
pub struct StaffPayment {
    pub public_id: String,
    pub provider: String,
    pub provider_payment_id: Option<String>,
    pub provider_state: Option<String>,
    pub status: PaymentStatus,
    pub charged: bool,
    pub amount_kurus: i64,
    pub card_brand: String,
    pub card_last4: String,
    pub failure_reason: Option<String>,
    pub refund_status: Option<RefundStatus>,
    pub refund_reference: Option<String>,
    pub refund_error: Option<String>,
    pub created_at: OffsetDateTime,
}

/// Every payment of request `request_id`, oldest first.
pub async fn staff_list(db: &SqlitePool, request_id: i64) -> sqlx::Result<Vec<StaffPayment>> {
    sqlx::query_as!(
        StaffPayment,
        r#"SELECT public_id, provider, provider_payment_id, provider_state,
                status AS "status: PaymentStatus", charged AS "charged: bool", amount_kurus,
                card_brand, card_last4, failure_reason,
                refund_status AS "refund_status: RefundStatus", refund_reference, refund_error,
                created_at AS "created_at: OffsetDateTime"
           FROM payments WHERE request_id = ? ORDER BY id"#,
        request_id
    )
    .fetch_all(db)
    .await
}
