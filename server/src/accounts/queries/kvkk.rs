//! The SQL of deleting a membership under KVKK: which requests moved money (kept, with the
//! identity in the restricted archive, for the retention the law requires), erasing everything
//! else about the member, and the archive's expiry. Times come from the caller.

use ortak_app::domain::investing::RequestStatus;
use sqlx::{SqliteConnection, SqlitePool};
use time::OffsetDateTime;

/// One of the member's requests through which money moved: the fee was paid, a card payment
/// succeeded, escrow instructions were issued, or it reached an invested state.
pub struct Moved {
    pub id: i64,
    pub status: RequestStatus,
}

pub async fn money_requests(conn: &mut SqliteConnection, user: i64) -> sqlx::Result<Vec<Moved>> {
    let invested = RequestStatus::invested_json();
    sqlx::query_as!(
        Moved,
        r#"SELECT r.id AS "id!", r.status AS "status: RequestStatus" FROM investment_requests r
           WHERE r.user_id = ?1 AND (r.fee_paid_at IS NOT NULL
               OR r.status IN (SELECT value FROM json_each(?2))
               OR EXISTS (SELECT 1 FROM payments p WHERE p.request_id = r.id AND p.status = 'succeeded')
               OR EXISTS (SELECT 1 FROM bank_transfers b WHERE b.request_id = r.id))"#,
        user,
        invested
    )
    .fetch_all(conn)
    .await
}

/// The identity the member invested under: the MKK registration, or the account.
pub struct Identity {
    pub account_email: String,
    pub account_first_name: String,
    pub account_last_name: String,
    pub account_phone: String,
    pub investor_type: Option<String>,
    pub turkish_citizen: Option<bool>,
    pub id_type: Option<String>,
    pub identity_number: Option<String>,
    pub first_name: Option<String>,
    pub last_name: Option<String>,
    pub email: Option<String>,
    pub phone: Option<String>,
    pub organisation: Option<String>,
    pub birth_date: Option<String>,
}

pub async fn identity(conn: &mut SqliteConnection, user: i64) -> sqlx::Result<Identity> {
    sqlx::query_as!(
        Identity,
        r#"SELECT u.email AS account_email, u.first_name AS account_first_name,
               u.last_name AS account_last_name, u.phone AS account_phone,
               m.investor_type AS "investor_type?", m.turkish_citizen AS "turkish_citizen?: bool",
               m.id_type AS "id_type?", m.identity_number AS "identity_number?",
               m.first_name AS "first_name?", m.last_name AS "last_name?", m.email AS "email?",
               m.phone AS "phone?", m.organisation AS "organisation?", m.birth_date AS "birth_date?"
           FROM users u LEFT JOIN mkk_profiles m ON m.user_id = u.id WHERE u.id = ?"#,
        user
    )
    .fetch_one(conn)
    .await
}

/// Files the erased rows named, to delete after the commit.
#[derive(Default)]
pub struct ErasedFiles {
    pub evidence: Vec<String>,
    pub presentations: Vec<String>,
}

/// Erases the member's requests through which no money moved (all but `keep`), with their
/// payments, history, unconfirmed typed receipts, and their link from bank statement lines.
async fn erase_requests(conn: &mut SqliteConnection, user: i64, keep: &[i64]) -> sqlx::Result<()> {
    let requests = sqlx::query_scalar!(
        r#"SELECT id AS "id!" FROM investment_requests WHERE user_id = ?"#,
        user
    )
    .fetch_all(&mut *conn)
    .await?;
    for id in requests.into_iter().filter(|id| !keep.contains(id)) {
        sqlx::query!("DELETE FROM payments WHERE request_id = ?", id)
            .execute(&mut *conn)
            .await?;
        // No money moved for it: a typed receipt nobody confirmed goes, and a bank line that
        // named it keeps its figures without the link.
        sqlx::query!(
            "DELETE FROM typed_receipts WHERE request_id = ? AND confirmed_by IS NULL",
            id
        )
        .execute(&mut *conn)
        .await?;
        sqlx::query!(
            "UPDATE statement_lines SET request_id = NULL WHERE request_id = ?",
            id
        )
        .execute(&mut *conn)
        .await?;
        sqlx::query!("DELETE FROM request_events WHERE request_id = ?", id)
            .execute(&mut *conn)
            .await?;
        sqlx::query!("DELETE FROM investment_requests WHERE id = ?", id)
            .execute(&mut *conn)
            .await?;
    }
    Ok(())
}

/// Erases what is held about the member beyond what the law requires: requests through which
/// no money moved (with their payments and events), the MKK profile (its identity is archived
/// when needed, before), qualified declarations, application drafts (sent applications are
/// the startup's and lose their link to the account), contact and fund and academy messages,
/// outbox mails, favourites, group memberships and the newsletter record. `keep` lists the
/// requests that moved money. The account row itself is blanked by `profile::erase_member`.
pub async fn erase(
    conn: &mut SqliteConnection,
    user: i64,
    email: &str,
    keep: &[i64],
) -> sqlx::Result<ErasedFiles> {
    erase_requests(conn, user, keep).await?;
    let evidence = sqlx::query_scalar!(
        "DELETE FROM qualified_declarations WHERE user_id = ? RETURNING evidence_file",
        user
    )
    .fetch_all(&mut *conn)
    .await?;
    let presentations = sqlx::query_scalar!(
        "DELETE FROM startup_applications WHERE user_id = ? AND status = 'draft'
         RETURNING presentation_file",
        user
    )
    .fetch_all(&mut *conn)
    .await?
    .into_iter()
    .flatten()
    .collect();
    sqlx::query!(
        "UPDATE startup_applications SET user_id = NULL WHERE user_id = ?",
        user
    )
    .execute(&mut *conn)
    .await?;
    sqlx::query!("DELETE FROM mkk_profiles WHERE user_id = ?", user)
        .execute(&mut *conn)
        .await?;
    sqlx::query!("DELETE FROM identity_history WHERE user_id = ?", user)
        .execute(&mut *conn)
        .await?;
    sqlx::query!(
        "DELETE FROM contact_messages WHERE user_id = ? OR email = ?",
        user,
        email
    )
    .execute(&mut *conn)
    .await?;
    sqlx::query!(
        "DELETE FROM gsyf_applications WHERE user_id = ? OR email = ?",
        user,
        email
    )
    .execute(&mut *conn)
    .await?;
    sqlx::query!("DELETE FROM academy_applications WHERE email = ?", email)
        .execute(&mut *conn)
        .await?;
    sqlx::query!("DELETE FROM outbox WHERE to_email = ?", email)
        .execute(&mut *conn)
        .await?;
    sqlx::query!("DELETE FROM favorites WHERE user_id = ?", user)
        .execute(&mut *conn)
        .await?;
    sqlx::query!("DELETE FROM vip_group_members WHERE user_id = ?", user)
        .execute(&mut *conn)
        .await?;
    sqlx::query!("DELETE FROM fund_members WHERE user_id = ?", user)
        .execute(&mut *conn)
        .await?;
    sqlx::query!(
        "UPDATE users SET last_sign_in_at = NULL, email_verified_at = NULL WHERE id = ?",
        user
    )
    .execute(&mut *conn)
    .await?;
    Ok(ErasedFiles {
        evidence,
        presentations,
    })
}

/// Keeps `identity` (JSON) of a deleted member, readable by superadmins, until `retain_until`.
pub async fn archive(
    conn: &mut SqliteConnection,
    user: i64,
    identity: &str,
    now: OffsetDateTime,
    retain_until: OffsetDateTime,
) -> sqlx::Result<()> {
    sqlx::query!(
        "INSERT INTO kvkk_archive (user_id, identity, deleted_at, retain_until) VALUES (?, ?, ?, ?)",
        user,
        identity,
        now,
        retain_until
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// Erases the archive entries whose retention ended before `now`, with the payer details of
/// those members' transfers and the card details of their payments; returns how many.
pub async fn expire_archive(db: &SqlitePool, now: OffsetDateTime) -> sqlx::Result<u64> {
    let mut tx = crate::db::write(db).await?;
    sqlx::query!(
        "UPDATE bank_transfers SET payer_name = '', address = '', country = '', city = '',
             post_code = '', phone = ''
         WHERE request_id IN (SELECT r.id FROM investment_requests r
             JOIN kvkk_archive a ON a.user_id = r.user_id WHERE a.retain_until < ?)",
        now
    )
    .execute(&mut *tx)
    .await?;
    sqlx::query!(
        "UPDATE payments SET card_brand = '', card_last4 = ''
         WHERE request_id IN (SELECT r.id FROM investment_requests r
             JOIN kvkk_archive a ON a.user_id = r.user_id WHERE a.retain_until < ?)",
        now
    )
    .execute(&mut *tx)
    .await?;
    // The identity each kept request was counted under, and the payer the bank reported.
    sqlx::query!(
        "UPDATE investment_requests SET identity_key = NULL
         WHERE user_id IN (SELECT user_id FROM kvkk_archive WHERE retain_until < ?)",
        now
    )
    .execute(&mut *tx)
    .await?;
    sqlx::query!(
        "UPDATE statement_lines SET payer_name = '', payer_iban = ''
         WHERE request_id IN (SELECT r.id FROM investment_requests r
             JOIN kvkk_archive a ON a.user_id = r.user_id WHERE a.retain_until < ?)",
        now
    )
    .execute(&mut *tx)
    .await?;
    let done = sqlx::query!("DELETE FROM kvkk_archive WHERE retain_until < ?", now)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(done.rows_affected())
}
