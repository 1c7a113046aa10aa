//! The SQL of the KVKK export (Art. 11): everything held about a member beyond the profile
//! itself, each row ready to serialise. Codes are exported as stored; times in RFC 3339 (UTC).

use serde::Serialize;
use sqlx::SqlitePool;
use time::OffsetDateTime;
use time::serde::rfc3339;

#[derive(Serialize)]
pub struct Mkk {
    pub investor_type: String,
    pub turkish_citizen: bool,
    pub id_type: String,
    pub identity_number: String,
    pub first_name: String,
    pub last_name: String,
    pub email: String,
    pub phone: String,
    pub organisation: String,
    pub birth_date: String,
    pub annual_income_kurus: i64,
    pub status: String,
    pub rejection_reason: Option<String>,
    #[serde(with = "rfc3339")]
    pub submitted_at: OffsetDateTime,
    #[serde(with = "rfc3339::option")]
    pub reviewed_at: Option<OffsetDateTime>,
}

pub async fn mkk(db: &SqlitePool, user: i64) -> sqlx::Result<Option<Mkk>> {
    sqlx::query_as!(
        Mkk,
        r#"SELECT investor_type, turkish_citizen AS "turkish_citizen: bool", id_type, identity_number,
               first_name, last_name, email, phone, organisation, birth_date, annual_income_kurus,
               status, rejection_reason, submitted_at AS "submitted_at: OffsetDateTime",
               reviewed_at AS "reviewed_at: OffsetDateTime"
           FROM mkk_profiles WHERE user_id = ?"#,
        user
    )
    .fetch_optional(db)
    .await
}

/// A qualified-investor declaration (its evidence file is not part of the export).
#[derive(Serialize)]
pub struct Declaration {
    pub basis: String,
    pub evidence_type: String,
    pub status: String,
    pub rejection_reason: Option<String>,
    #[serde(with = "rfc3339")]
    pub submitted_at: OffsetDateTime,
    #[serde(with = "rfc3339::option")]
    pub reviewed_at: Option<OffsetDateTime>,
}

pub async fn declarations(db: &SqlitePool, user: i64) -> sqlx::Result<Vec<Declaration>> {
    sqlx::query_as!(
        Declaration,
        r#"SELECT basis, evidence_type, status, rejection_reason,
               submitted_at AS "submitted_at: OffsetDateTime", reviewed_at AS "reviewed_at: OffsetDateTime"
           FROM qualified_declarations WHERE user_id = ? ORDER BY id"#,
        user
    )
    .fetch_all(db)
    .await
}

#[derive(Serialize)]
pub struct Request {
    pub id: i64,
    pub startup: String,
    pub kind: String,
    pub amount_kurus: i64,
    pub fee_kurus: i64,
    pub fee_added: bool,
    pub investment_kurus: i64,
    pub total_kurus: i64,
    pub status: String,
    pub rejection_reason: Option<String>,
    #[serde(with = "rfc3339::option")]
    pub fee_paid_at: Option<OffsetDateTime>,
    #[serde(with = "rfc3339")]
    pub created_at: OffsetDateTime,
}

/// An identity the account held (type, number, when it was sent).
#[derive(serde::Serialize)]
pub struct PastIdentity {
    pub investor_type: String,
    pub id_type: String,
    pub identity_number: String,
    #[serde(with = "rfc3339")]
    pub recorded_at: OffsetDateTime,
}

pub async fn identities(db: &SqlitePool, user: i64) -> sqlx::Result<Vec<PastIdentity>> {
    sqlx::query_as!(
        PastIdentity,
        r#"SELECT investor_type, id_type, identity_number, recorded_at AS "recorded_at: OffsetDateTime"
           FROM identity_history WHERE user_id = ? ORDER BY id"#,
        user
    )
    .fetch_all(db)
    .await
}

pub async fn requests(db: &SqlitePool, user: i64) -> sqlx::Result<Vec<Request>> {
    sqlx::query_as!(
        Request,
        r#"SELECT r.id AS "id!", s.name AS startup, r.kind, r.amount_kurus, r.fee_kurus,
               r.fee_added AS "fee_added: bool", r.investment_kurus, r.total_kurus, r.status,
               r.rejection_reason, r.fee_paid_at AS "fee_paid_at: OffsetDateTime",
               r.created_at AS "created_at: OffsetDateTime"
           FROM investment_requests r JOIN startups s ON s.id = r.startup_id
           WHERE r.user_id = ? ORDER BY r.id"#,
        user
    )
    .fetch_all(db)
    .await
}

/// A move of one of the member's requests.
#[derive(Serialize)]
pub struct Event {
    pub request_id: i64,
    pub status: String,
    pub note: String,
    #[serde(with = "rfc3339")]
    pub created_at: OffsetDateTime,
}

pub async fn events(db: &SqlitePool, user: i64) -> sqlx::Result<Vec<Event>> {
    sqlx::query_as!(
        Event,
        r#"SELECT e.request_id, e.status, e.note, e.created_at AS "created_at: OffsetDateTime"
           FROM request_events e JOIN investment_requests r ON r.id = e.request_id
           WHERE r.user_id = ? ORDER BY e.id"#,
        user
    )
    .fetch_all(db)
    .await
}

/// A card payment (only the brand and last four digits were ever stored).
#[derive(Serialize)]
pub struct Payment {
    pub request_id: i64,
    pub provider: String,
    pub amount_kurus: i64,
    pub status: String,
    pub card_brand: String,
    pub card_last4: String,
    pub failure_reason: Option<String>,
    #[serde(with = "rfc3339")]
    pub created_at: OffsetDateTime,
    #[serde(with = "rfc3339::option")]
    pub completed_at: Option<OffsetDateTime>,
}

pub async fn payments(db: &SqlitePool, user: i64) -> sqlx::Result<Vec<Payment>> {
    sqlx::query_as!(
        Payment,
        r#"SELECT p.request_id, p.provider, p.amount_kurus, p.status, p.card_brand, p.card_last4,
               p.failure_reason, p.created_at AS "created_at: OffsetDateTime",
               p.completed_at AS "completed_at: OffsetDateTime"
           FROM payments p JOIN investment_requests r ON r.id = p.request_id
           WHERE r.user_id = ? ORDER BY p.id"#,
        user
    )
    .fetch_all(db)
    .await
}

/// An escrow transfer with the payer's details.
#[derive(Serialize)]
pub struct Transfer {
    pub request_id: i64,
    pub reference: String,
    pub payer_name: String,
    pub address: String,
    pub country: String,
    pub city: String,
    pub post_code: String,
    pub phone: String,
    pub amount_kurus: i64,
    #[serde(with = "rfc3339")]
    pub created_at: OffsetDateTime,
    /// The day the clearing bank reported it (`YYYY-MM-DD`: a date, not a moment).
    pub received_on: Option<String>,
    pub received_amount_kurus: Option<i64>,
}

pub async fn transfers(db: &SqlitePool, user: i64) -> sqlx::Result<Vec<Transfer>> {
    sqlx::query_as!(
        Transfer,
        r#"SELECT b.request_id AS "request_id!", b.reference, b.payer_name, b.address, b.country,
               b.city, b.post_code, b.phone, b.amount_kurus,
               b.created_at AS "created_at: OffsetDateTime",
               b.received_at AS "received_on?: String", b.received_amount_kurus
           FROM bank_transfers b JOIN investment_requests r ON r.id = b.request_id
           WHERE r.user_id = ? ORDER BY b.request_id"#,
        user
    )
    .fetch_all(db)
    .await
}

/// Something kept with a name and a time: a favourite, a fund team, a VIP group.
#[derive(Serialize)]
pub struct Named {
    pub name: String,
    #[serde(with = "rfc3339::option")]
    pub since: Option<OffsetDateTime>,
}

pub async fn favourites(db: &SqlitePool, user: i64) -> sqlx::Result<Vec<Named>> {
    sqlx::query_as!(
        Named,
        r#"SELECT s.name, f.created_at AS "since: OffsetDateTime"
           FROM favorites f JOIN startups s ON s.id = f.startup_id WHERE f.user_id = ? ORDER BY f.created_at"#,
        user
    )
    .fetch_all(db)
    .await
}

/// Fund teams and VIP groups the member belongs to.
pub async fn groups(db: &SqlitePool, user: i64) -> sqlx::Result<Vec<Named>> {
    sqlx::query_as!(
        Named,
        r#"SELECT 'fund: ' || f.name AS "name!: String", m.added_at AS "since: OffsetDateTime"
           FROM fund_members m JOIN funds f ON f.id = m.fund_id WHERE m.user_id = ?1
           UNION ALL
           SELECT 'vip: ' || g.name, NULL FROM vip_group_members v JOIN vip_groups g ON g.id = v.group_id
           WHERE v.user_id = ?1"#,
        user
    )
    .fetch_all(db)
    .await
}
