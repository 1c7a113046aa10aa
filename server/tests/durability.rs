//! Durability: the server is killed with SIGKILL in the middle of a write load (members
//! joining, each queueing a verification mail; their MKK details and investment requests,
//! each queueing a confirmation; newsletter sign-ups). After a restart every write that was
//! answered with success is there, every unsent mail is still in the outbox, and SQLite's
//! integrity check passes.

use crate::common;

use std::sync::{Arc, Mutex};

use common::Server;
use common::journeys::{csrf, post_form, signup_fields};

/// MKK data with its own identity number (one per account), and an income whose tenth allows
/// the 100.000 TL request under the annual limit.
fn mkk_fields(email: &str, n: u32) -> Vec<(&'static str, String)> {
    common::money::mkk(email, &common::money::tckn(n), "1.000.000")
}

#[tokio::test]
async fn a_killed_server_keeps_every_acknowledged_write() {
    let server = Server::start_in(tempfile::TempDir::new().unwrap(), &[("ORTAK_DEMO", "1")]);
    let base = Arc::new(server.base.clone());
    let joined: Arc<Mutex<Vec<String>>> = Arc::default();
    let requested: Arc<Mutex<Vec<String>>> = Arc::default();
    let subscribed: Arc<Mutex<Vec<String>>> = Arc::default();
    // Verifying an address is the verification mail's job; the writers do it directly.
    let db = server.db().await;
    let form = common::scalar(
        &server,
        "SELECT MAX(d.id) FROM round_documents d JOIN startups s ON s.id = d.startup_id
         WHERE s.slug = 'cemre-enerji' AND d.kind = 'information-form'",
    )
    .await;
    let information_form = Arc::new(format!("/startups/cemre-enerji/documents/{form}"));

    // Four writers that keep going until the server disappears under them.
    let mut writers = Vec::new();
    for w in 0..4 {
        let (joined, requested, subscribed, base, db, information_form) = (
            joined.clone(),
            requested.clone(),
            subscribed.clone(),
            base.clone(),
            db.clone(),
            information_form.clone(),
        );
        writers.push(tokio::spawn(async move {
            for i in 0.. {
                let browser = common::client();
                let email = format!("yuk-{w}-{i}@example.com");
                let page = match browser.get(format!("{base}/signup")).send().await {
                    Ok(r) => r.text().await.unwrap_or_default(),
                    Err(_) => return,
                };
                if !page.contains("name=\"csrf\"") {
                    return;
                }
                let token = common::csrf_of(&page);
                let mut form: Vec<(&str, String)> = vec![("csrf", token.clone())];
                form.extend(signup_fields(&email));
                match browser
                    .post(format!("{base}/signup"))
                    .form(&form)
                    .send()
                    .await
                {
                    Ok(r) if r.status() == 303 => joined.lock().unwrap().push(email.clone()),
                    Ok(_) => continue,
                    Err(_) => return,
                }
                // Joining signs nobody in: the new member signs in with the password.
                let signin = browser
                    .post(format!("{base}/signin"))
                    .form(&[
                        ("csrf", token.as_str()),
                        ("email", email.as_str()),
                        ("password", "gizli-sifre-123"),
                    ])
                    .send()
                    .await;
                match signin {
                    Ok(r) if r.status() == 303 => {}
                    Ok(r) => panic!("sign-in: {}", r.status()),
                    Err(_) => return,
                }
                // The new member's MKK details, then an investment request (every other one).
                if i % 2 == 0 {
                    let verified = sqlx::query("UPDATE users SET email_verified_at = '2026-01-01T00:00:00Z' WHERE email = ?")
                        .bind(&email)
                        .execute(&db)
                        .await;
                    if verified.is_err() {
                        return;
                    }
                    let mut mkk: Vec<(&str, String)> = vec![("csrf", token.clone())];
                    mkk.extend(mkk_fields(&email, (w * 100_000 + i) as u32));
                    match browser.post(format!("{base}/mkk")).form(&mkk).send().await {
                        Ok(r) if r.status() == 303 => {}
                        Ok(r) => panic!("MKK: {}", r.status()),
                        Err(_) => return,
                    }
                    // Staff's verification, which investing waits for.
                    let reviewed = sqlx::query(
                        "UPDATE mkk_profiles SET status = 'verified', verified_by = 'staff'
                         WHERE user_id = (SELECT id FROM users WHERE email = ?)",
                    )
                    .bind(&email)
                    .execute(&db)
                    .await;
                    if reviewed.is_err() {
                        return;
                    }
                    // The information form is opened before any request.
                    if browser.get(format!("{base}{information_form}")).send().await.is_err() {
                        return;
                    }
                    let request = browser
                        .post(format!("{base}/api/investmentRequests"))
                        .header("x-csrf-token", &token)
                        .header("origin", base.as_str())
                        .json(&serde_json::json!({
                            "startup": "cemre-enerji", "amount": "100.000", "feeAdded": true,
                            "risk": true, "idempotencyKey": format!("yuk-{w}-{i}"),
                        }))
                        .send()
                        .await;
                    match request {
                        Ok(r) if r.status() == 201 => requested.lock().unwrap().push(email.clone()),
                        Ok(r) => panic!("request: {}", r.status()),
                        Err(_) => return,
                    }
                }
                let news = format!("bulten-{w}-{i}@example.com");
                let sent = browser
                    .post(format!("{base}/api/newsletter"))
                    .header("x-csrf-token", &token)
                    .header("origin", base.as_str())
                    .json(&serde_json::json!({ "email": news, "consent": true }))
                    .send()
                    .await;
                match sent {
                    Ok(r) if r.status().is_success() => subscribed.lock().unwrap().push(news),
                    Ok(_) => {}
                    Err(_) => return,
                }
            }
        }));
    }
    // Let the load build up, then pull the plug mid-write.
    while joined.lock().unwrap().len() < 12 || requested.lock().unwrap().len() < 6 {
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    let data = server.kill();
    for writer in writers {
        writer.await.unwrap();
    }

    let server = Server::start_in(data, &[("ORTAK_DEMO", "1")]);
    let db = server.db().await;
    let integrity: String = sqlx::query_scalar("PRAGMA integrity_check")
        .fetch_one(&db)
        .await
        .unwrap();
    assert_eq!(integrity, "ok");
    let joined = joined.lock().unwrap().clone();
    assert!(joined.len() >= 12);
    for email in &joined {
        let user: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM users WHERE email = ?")
            .bind(email)
            .fetch_one(&db)
            .await
            .unwrap();
        assert_eq!(user, 1, "{email} was told they joined");
        // No SMTP is configured: every verification mail is still waiting in the outbox.
        let mails: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM outbox WHERE to_email = ? AND sent_at IS NULL",
        )
        .bind(email)
        .fetch_one(&db)
        .await
        .unwrap();
        assert!(mails >= 1, "{email}'s verification mail");
    }
    let requested = requested.lock().unwrap().clone();
    assert!(requested.len() >= 6);
    for email in &requested {
        let (requests, mails): (i64, i64) = sqlx::query_as(
            "SELECT (SELECT COUNT(*) FROM investment_requests r JOIN users u ON u.id = r.user_id
                     WHERE u.email = ?1 AND r.status = 'submitted'),
                    (SELECT COUNT(*) FROM outbox WHERE to_email = ?1 AND sent_at IS NULL)",
        )
        .bind(email)
        .fetch_one(&db)
        .await
        .unwrap();
        assert_eq!(requests, 1, "{email} was told the request was received");
        assert_eq!(mails, 2, "{email}'s verification and request mails");
    }
    let subscribed = subscribed.lock().unwrap().clone();
    assert!(
        subscribed.len() >= 8,
        "newsletter sign-ups went through the JSON endpoint"
    );
    for email in &subscribed {
        let row: i64 =
            sqlx::query_scalar("SELECT COUNT(*) FROM newsletter_subscribers WHERE email = ?")
                .bind(email)
                .fetch_one(&db)
                .await
                .unwrap();
        assert_eq!(row, 1, "{email} was told they subscribed");
    }
    // And the restarted server works.
    assert_eq!(server.get("/healthz").await.0, 200);
    let browser = common::client();
    let token = csrf(&browser, &server, "/signup").await;
    let after = post_form(
        &browser,
        server.url("/signup"),
        &token,
        &signup_fields("sonra@example.com"),
    )
    .await;
    assert_eq!(after.status(), 303);
}
