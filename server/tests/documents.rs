//! The document vault (issue 17): what a member accepted, a confirmation of each holding and a
//! yearly statement, as PDFs in the member's language with exact Turkish letters, made for the
//! member alone.

use crate::common;

use common::journeys::{ADMIN_PASSWORD, create_admin, sign_in, sign_up};
use common::{Server, client, exec};
use tempfile::TempDir;

/// A demo investor with an allocated holding, given a password and the current terms.
async fn holder(server: &Server, skip: i64) -> (String, i64) {
    let (email, request): (String, i64) = sqlx::query_as(
        "SELECT u.email, r.id FROM investment_requests r JOIN users u ON u.id = r.user_id
         WHERE r.status = 'allocated' AND r.share_ppm IS NOT NULL
         GROUP BY u.id ORDER BY u.id LIMIT 1 OFFSET ?",
    )
    .bind(skip)
    .fetch_one(&server.db().await)
    .await
    .unwrap();
    exec(server, &format!("UPDATE users SET password_hash = (SELECT password_hash FROM users WHERE email = 'super@example.com') WHERE email = '{email}'")).await;
    exec(server, &format!("INSERT INTO acceptances (user_id, document, version, accepted_at) SELECT id, d, '2026-11-21', '2026-11-21T08:00:00Z' FROM users, (SELECT 'membership-agreement' AS d UNION ALL SELECT 'kvkk-notice') WHERE email = '{email}'")).await;
    (email, request)
}

async fn pdf_text(browser: &reqwest::Client, url: String) -> String {
    let response = browser.get(url).send().await.unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["content-type"], "application/pdf");
    assert_eq!(response.headers()["cache-control"], "no-store");
    let bytes = response.bytes().await.unwrap();
    assert!(bytes.starts_with(b"%PDF-"));
    pdf_extract::extract_text_from_mem(&bytes).unwrap()
}

#[tokio::test]
async fn the_vault_lists_what_was_accepted_and_makes_each_members_own_pdfs() {
    let data = TempDir::new().unwrap();
    create_admin(&data, "super@example.com", true);
    let server = Server::start_in(data, &[("ORTAK_DEMO", "1")]);
    let (email, request) = holder(&server, 0).await;
    let (other_email, other_request) = holder(&server, 1).await;
    let startup: String = sqlx::query_scalar("SELECT s.name FROM investment_requests r JOIN startups s ON s.id = r.startup_id WHERE r.id = ?")
        .bind(request)
        .fetch_one(&server.db().await)
        .await
        .unwrap();
    let year: i64 = sqlx::query_scalar("SELECT CAST(strftime('%Y', created_at) AS INTEGER) FROM money_events WHERE request_id = ? AND kind = 'allocated'")
        .bind(request)
        .fetch_one(&server.db().await)
        .await
        .unwrap();

    // Visitors sign in first.
    let visitor = client().get(server.url("/documents")).send().await.unwrap();
    assert_eq!(visitor.status(), 303);

    let member = sign_in(&server, &email, ADMIN_PASSWORD).await;
    let page = common::text(&member, server.url("/documents")).await;
    for text in [
        "Belgelerim",
        "Üyelik sözleşmesi",
        "KVKK aydınlatma metni",
        "2026-11-21",
        &format!("Genel risk bildirimi, {request} numaralı talep ({startup})"),
        &format!("href=\"/documents/confirmation/{request}\""),
        &format!("href=\"/documents/statement/{year}\""),
    ] {
        assert!(page.contains(text), "the vault lists {text}");
    }
    assert!(!page.contains(&format!("/documents/confirmation/{other_request}\"")));

    // The round's shareholder agreement is linked beside the holding.
    exec(&server, &format!("INSERT INTO round_documents (startup_id, kind, file_name, uploaded_at) SELECT startup_id, 'shareholder-agreement', 'x.pdf', '2026-11-01T09:00:00Z' FROM investment_requests WHERE id = {request}")).await;
    let page = common::text(&member, server.url("/documents")).await;
    assert!(page.contains(">Pay sahipliği sözleşmesi</a>"), "{page}");

    // The confirmation: the member's own holding, in Turkish with exact letters.
    let text = pdf_text(
        &member,
        server.url(&format!("/documents/confirmation/{request}")),
    )
    .await;
    for expected in [
        "Yatırım onayı",
        "Yatırımcı",
        "Girişim",
        "Turdaki pay oranı",
        "Merkezi Kayıt Kuruluşu'nda",
    ] {
        assert!(text.contains(expected), "{expected} in {text}");
    }
    assert!(text.contains(&startup), "{text}");
    // Another investor's holding does not exist for this member.
    let foreign = member
        .get(server.url(&format!("/documents/confirmation/{other_request}")))
        .send()
        .await
        .unwrap();
    assert_eq!(foreign.status(), 404);
    assert!(!other_email.is_empty());

    // The yearly statement lists the allocation and the totals.
    let statement = pdf_text(&member, server.url(&format!("/documents/statement/{year}"))).await;
    assert!(
        statement.contains(&format!("{year} yılı dökümü")),
        "{statement}"
    );
    assert!(statement.contains("Yatırım tahsis edildi") && statement.contains("Toplam yatırım"));
    let empty = pdf_text(&member, server.url("/documents/statement/2001")).await;
    assert!(empty.contains("Bu yıl kayıtlı bir ödeme veya yatırım yok."));

    // In the member's language.
    exec(
        &server,
        &format!("UPDATE users SET language = 'en' WHERE email = '{email}'"),
    )
    .await;
    let member = sign_in(&server, &email, ADMIN_PASSWORD).await;
    let text = pdf_text(
        &member,
        server.url(&format!("/documents/confirmation/{request}")),
    )
    .await;
    assert!(
        text.contains("Investment confirmation") && text.contains("Share of the round"),
        "{text}"
    );

    // A member with nothing invested has an empty vault but their accepted texts.
    let newcomer = sign_up(&server, "yeni@example.com").await;
    let page = common::text(&newcomer, server.url("/documents")).await;
    assert!(
        page.contains("Üyelik sözleşmesi")
            && page.contains("Size henüz tahsis edilmiş bir yatırım yok.")
    );
}
