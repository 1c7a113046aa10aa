//! The SQL of a member's documents. Every statement is scoped by the member: nothing of another
//! investor is ever read into their documents.

use sqlx::SqlitePool;
use time::OffsetDateTime;

/// The risk notice accepted with a request, and the information form opened for it.
pub struct RiskNotice {
    pub request_id: i64,
    pub startup: String,
    pub accepted_at: OffsetDateTime,
    /// The version (upload time) of the round's information form the request was sent under.
    pub information_form: Option<OffsetDateTime>,
}

pub async fn risk_notices(db: &SqlitePool, user: i64) -> sqlx::Result<Vec<RiskNotice>> {
    sqlx::query_as!(
        RiskNotice,
        r#"SELECT r.id AS "request_id!", s.name AS startup,
               r.risk_accepted_at AS "accepted_at: OffsetDateTime",
               f.uploaded_at AS "information_form?: OffsetDateTime"
         FROM investment_requests r JOIN startups s ON s.id = r.startup_id
         LEFT JOIN round_documents f ON f.id = r.information_form_id
         WHERE r.user_id = ? ORDER BY r.id"#,
        user
    )
    .fetch_all(db)
    .await
}

/// A holding: a request whose money was allocated when its round closed.
pub struct Holding {
    pub request_id: i64,
    pub startup: String,
    pub fund: String,
    pub amount_kurus: i64,
    pub fee_kurus: i64,
    pub share_ppm: Option<i64>,
    pub allocated_at: OffsetDateTime,
}

/// `user`'s holdings (all, or the one request `only`), oldest first.
pub async fn holdings(db: &SqlitePool, user: i64, only: Option<i64>) -> sqlx::Result<Vec<Holding>> {
    sqlx::query_as!(
        Holding,
        r#"SELECT r.id AS "request_id!", s.name AS startup, f.name AS fund,
               m.amount_kurus, r.fee_kurus, r.share_ppm,
               m.created_at AS "allocated_at: OffsetDateTime"
         FROM investment_requests r
         JOIN money_events m ON m.request_id = r.id AND m.kind = 'allocated'
         JOIN startups s ON s.id = r.startup_id JOIN funds f ON f.id = s.fund_id
         WHERE r.user_id = ?1 AND r.status = 'allocated' AND (?2 IS NULL OR r.id = ?2)
         ORDER BY m.created_at, r.id"#,
        user,
        only
    )
    .fetch_all(db)
    .await
}

/// A document of the round behind a holding: the shareholder agreement or a side letter.
pub struct HoldingDocument {
    pub request_id: i64,
    pub slug: String,
    pub id: i64,
    pub kind: String,
}

/// The current shareholder agreement and every side letter of the rounds `user` holds.
pub async fn holding_documents(db: &SqlitePool, user: i64) -> sqlx::Result<Vec<HoldingDocument>> {
    sqlx::query_as!(
        HoldingDocument,
        r#"SELECT r.id AS "request_id!", s.slug, d.id AS "id!", d.kind
         FROM investment_requests r JOIN startups s ON s.id = r.startup_id
         JOIN round_documents d ON d.startup_id = s.id
         WHERE r.user_id = ? AND r.status = 'allocated' AND d.kind <> 'information-form'
           AND (d.kind = 'side-letter' OR d.id = (SELECT MAX(id) FROM round_documents
                                                  WHERE startup_id = s.id AND kind = d.kind))
         ORDER BY r.id, d.kind, d.id"#,
        user
    )
    .fetch_all(db)
    .await
}

/// A move of the member's money, for the yearly statement.
pub struct Movement {
    pub at: OffsetDateTime,
    pub startup: String,
    pub request_id: i64,
    pub kind: String,
    pub amount_kurus: i64,
}

/// Fees paid and refunded, investments allocated and escrow refunds of `user` in
/// `[from, to)`, in time order.
pub async fn movements(
    db: &SqlitePool,
    user: i64,
    from: OffsetDateTime,
    to: OffsetDateTime,
) -> sqlx::Result<Vec<Movement>> {
    sqlx::query_as!(
        Movement,
        r#"SELECT m.created_at AS "at: OffsetDateTime", s.name AS startup,
               r.id AS "request_id!", m.kind, m.amount_kurus
         FROM money_events m JOIN investment_requests r ON r.id = m.request_id
         JOIN startups s ON s.id = r.startup_id
         WHERE r.user_id = ?1 AND m.created_at >= ?2 AND m.created_at < ?3
           AND m.kind IN ('fee_paid', 'fee_refunded', 'allocated', 'escrow_refunded')
         ORDER BY m.created_at, m.id"#,
        user,
        from,
        to
    )
    .fetch_all(db)
    .await
}

/// The years (UTC) in which `user`'s money moved, newest first.
pub async fn years(db: &SqlitePool, user: i64) -> sqlx::Result<Vec<i64>> {
    sqlx::query_scalar!(
        r#"SELECT DISTINCT CAST(strftime('%Y', m.created_at) AS INTEGER) AS "year!: i64"
         FROM money_events m JOIN investment_requests r ON r.id = m.request_id
         WHERE r.user_id = ? AND m.kind IN ('fee_paid', 'fee_refunded', 'allocated', 'escrow_refunded')
         ORDER BY 1 DESC"#,
        user
    )
    .fetch_all(db)
    .await
}

/// Who the documents are for, as registered with MKK (the account's name otherwise).
pub struct Investor {
    pub name: String,
    pub identity_number: Option<String>,
}

pub async fn investor(db: &SqlitePool, user: i64) -> sqlx::Result<Investor> {
    sqlx::query_as!(
        Investor,
        r#"SELECT COALESCE(m.first_name || ' ' || m.last_name, u.first_name || ' ' || u.last_name)
                 AS "name!: String",
               m.identity_number AS "identity_number?: String"
         FROM users u LEFT JOIN mkk_profiles m ON m.user_id = u.id WHERE u.id = ?"#,
        user
    )
    .fetch_one(db)
    .await
}
