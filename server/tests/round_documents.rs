//! Round documents (issue 17): staff attach the information form, the shareholder agreement
//! and side letters to a round; an investor must open the current information form before a
//! request is accepted, and the request records which version; members open the documents
//! from the startup's page, and holders find the agreement in their documents.

use crate::common;

use common::journeys::{ADMIN_PASSWORD, create_admin, csrf, sign_in};
use common::money::{qualified_investor, send_request};
use common::{Server, csrf_of, scalar};
use tempfile::TempDir;

const SLUG: &str = "odeme-koprusu";

async fn upload(
    server: &Server,
    staff: &reqwest::Client,
    id: i64,
    kind: &str,
    bytes: &'static [u8],
) -> reqwest::Response {
    let token =
        csrf_of(&common::text(staff, server.url(&format!("/dashboard/startups/{id}"))).await);
    let form = reqwest::multipart::Form::new().text("csrf", token).part(
        "document",
        reqwest::multipart::Part::bytes(bytes).file_name("belge.pdf"),
    );
    staff
        .post(server.url(&format!("/dashboard/startups/{id}/documents/{kind}")))
        .multipart(form)
        .send()
        .await
        .unwrap()
}

/// A request sent without opening the round's current information form first.
async fn unread_request(
    server: &Server,
    investor: &reqwest::Client,
    token: &str,
    amount: &str,
    key: &str,
) -> reqwest::Response {
    let fields = [
        ("startup", SLUG.to_owned()),
        ("amount", amount.to_owned()),
        ("fee_added", "on".into()),
        ("risk", "on".into()),
        ("idempotency_key", key.to_owned()),
    ];
    common::journeys::post_form(investor, server.url("/investmentFlow"), token, &fields).await
}

#[tokio::test]
async fn a_request_needs_the_current_information_form_opened_and_records_it() {
    let data = TempDir::new().unwrap();
    create_admin(&data, "super@example.com", true);
    let server = Server::start_in(data, &[("ORTAK_DEMO", "1")]);
    let id = scalar(
        &server,
        &format!("SELECT id FROM startups WHERE slug = '{SLUG}'"),
    )
    .await;
    let staff = sign_in(&server, "super@example.com", ADMIN_PASSWORD).await;
    // The demo round has its generated information form and the committee's minutes.
    let documents = scalar(&server, "SELECT COUNT(*) FROM round_documents").await;

    // Only a PDF: anything else is refused under its form, with nothing stored.
    let refused = upload(&server, &staff, id, "information-form", b"<html>").await;
    assert_eq!(refused.status(), 422);
    assert!(
        refused
            .text()
            .await
            .unwrap()
            .contains("Belge PDF dosyası olmalıdır.")
    );
    assert_eq!(
        scalar(&server, "SELECT COUNT(*) FROM round_documents").await,
        documents
    );
    assert_eq!(
        upload(&server, &staff, id, "nothing", b"%PDF-1.7")
            .await
            .status(),
        404
    );
    let v1 = upload(
        &server,
        &staff,
        id,
        "information-form",
        b"%PDF-1.7 bilgi formu 1",
    )
    .await;
    assert_eq!(v1.status(), 303);
    let agreement = upload(
        &server,
        &staff,
        id,
        "shareholder-agreement",
        b"%PDF-1.7 sozlesme",
    )
    .await;
    assert_eq!(agreement.status(), 303);
    assert_eq!(
        scalar(
            &server,
            "SELECT COUNT(*) FROM audit_log WHERE action = 'round.document.add'"
        )
        .await,
        2
    );
    let form_v1 = scalar(
        &server,
        &format!("SELECT MAX(id) FROM round_documents WHERE startup_id = {id} AND kind = 'information-form'"),
    )
    .await;

    // Until the investor opens the form, a request is refused with its message, stored nowhere;
    // the amount page links the form.
    let (investor, token) = qualified_investor(&server, "yatirimci@example.com", 71).await;
    let page = common::text(
        &investor,
        server.url(&format!("/investmentFlow?startup={SLUG}")),
    )
    .await;
    let link = format!("/startups/{SLUG}/documents/{form_v1}");
    assert!(
        page.contains(&format!("href=\"{link}\"")),
        "the amount page links the form"
    );
    let early = unread_request(&server, &investor, &token, "150.000", "k-1").await;
    assert_eq!(early.status(), 422);
    assert!(
        early
            .text()
            .await
            .unwrap()
            .contains("Talep göndermeden önce bu turun bilgi formunu açın.")
    );
    let api = investor
        .post(server.url("/api/investmentRequests"))
        .header("x-csrf-token", token.as_str())
        .json(&serde_json::json!({"startup": SLUG, "amount": "150.000", "feeAdded": true, "risk": true, "idempotencyKey": "k-api"}))
        .send()
        .await
        .unwrap();
    assert_eq!(api.status(), 422);
    let body: serde_json::Value = api.json().await.unwrap();
    assert_eq!(
        body["errors"]["risk"],
        "Talep göndermeden önce bu turun bilgi formunu açın."
    );
    assert_eq!(scalar(&server, "SELECT COUNT(*) FROM investment_requests WHERE user_id = (SELECT id FROM users WHERE email = 'yatirimci@example.com')").await, 0);

    // Opening it (from the startup's page) is recorded; then the request goes, with the version.
    let startup_page = common::text(&investor, server.url(&format!("/startups/{SLUG}"))).await;
    assert!(
        startup_page.contains("Bilgi formu") && startup_page.contains("Pay sahipliği sözleşmesi")
    );
    let opened = investor.get(server.url(&link)).send().await.unwrap();
    assert_eq!(opened.status(), 200);
    assert_eq!(opened.headers()["content-type"], "application/pdf");
    assert_eq!(
        &opened.bytes().await.unwrap()[..],
        b"%PDF-1.7 bilgi formu 1"
    );
    let sent = send_request(&server, &investor, &token, SLUG, "150.000", "k-2").await;
    assert_eq!(sent.status(), 303);
    assert_eq!(
        scalar(
            &server,
            "SELECT information_form_id FROM investment_requests WHERE idempotency_key = 'k-2'"
        )
        .await,
        form_v1
    );

    // A new version of the form must be opened again before the next request.
    assert_eq!(
        upload(
            &server,
            &staff,
            id,
            "information-form",
            b"%PDF-1.7 bilgi formu 2"
        )
        .await
        .status(),
        303
    );
    let token = csrf(
        &investor,
        &server,
        &format!("/investmentFlow?startup={SLUG}"),
    )
    .await;
    let again = unread_request(&server, &investor, &token, "100.000", "k-3").await;
    assert_eq!(again.status(), 422);

    // The member's documents list the form accepted with the request, with its version.
    let vault = common::text(&investor, server.url("/documents")).await;
    assert!(vault.contains("Bilgi formu, "), "{vault}");

    // Another startup's document is not reachable through this startup's address.
    let other = investor
        .get(server.url(&format!("/startups/cemre-enerji/documents/{form_v1}")))
        .send()
        .await
        .unwrap();
    assert_eq!(other.status(), 404);
}
