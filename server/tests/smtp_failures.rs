//! Mail servers that misbehave (issue 30): one that accepts the connection and then says
//! nothing no longer stops all mail for good (each send has a deadline, and the failure is
//! counted), a mail the server is slow with does not hold the others back, and a permanent
//! refusal (5xx) is not retried for hours.

use crate::common;

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::time::Duration;

use common::Server;
use common::journeys::sign_up;
use tempfile::TempDir;

/// A mail server that accepts connections and never answers.
fn silent_server() -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        let mut held = Vec::new();
        for stream in listener.incoming().flatten() {
            held.push(stream);
        }
    });
    port
}

/// What a scripted mail server does with a recipient (`RCPT TO`).
#[derive(Clone, Copy)]
enum Recipient {
    Take,
    /// Refuses for good (550: no such mailbox).
    Refuse,
    /// Goes silent, as a server stuck on one mail would.
    Stall,
}

/// A mail server that speaks SMTP and answers each recipient as `rule` says.
fn mail_server(rule: fn(&str) -> Recipient) -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            std::thread::spawn(move || converse(stream, rule));
        }
    });
    port
}

fn converse(mut stream: TcpStream, rule: fn(&str) -> Recipient) {
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let _ = stream.write_all(b"220 scripted.test ESMTP\r\n");
    let (mut line, mut in_data) = (String::new(), false);
    while reader.read_line(&mut line).is_ok_and(|n| n > 0) {
        let command = line.to_ascii_uppercase();
        let answer: &[u8] = if in_data {
            in_data = line != ".\r\n";
            if in_data { b"" } else { b"250 OK queued\r\n" }
        } else if command.starts_with("RCPT") {
            match rule(&line) {
                Recipient::Take => b"250 OK\r\n",
                Recipient::Refuse => b"550 5.1.1 No such mailbox\r\n",
                Recipient::Stall => {
                    std::thread::sleep(Duration::from_secs(3600));
                    return;
                }
            }
        } else if command.starts_with("EHLO") || command.starts_with("HELO") {
            b"250 scripted.test\r\n"
        } else if command.starts_with("DATA") {
            in_data = true;
            b"354 go ahead\r\n"
        } else if command.starts_with("QUIT") {
            let _ = stream.write_all(b"221 Bye\r\n");
            return;
        } else {
            b"250 OK\r\n"
        };
        if stream.write_all(answer).is_err() {
            return;
        }
        line.clear();
    }
}

/// The outbox row of the mail to `email`: (status, attempts, last error).
async fn outbox(server: &Server, email: &str) -> Option<(String, i64, Option<String>)> {
    sqlx::query_as(
        "SELECT status, attempts, last_error FROM outbox WHERE to_email = ? ORDER BY id DESC",
    )
    .bind(email)
    .fetch_optional(&server.db().await)
    .await
    .unwrap()
}

/// Waits up to 20 s for the mail to `email` to have been tried once.
async fn tried(server: &Server, email: &str) -> (String, i64, Option<String>) {
    for _ in 0..200 {
        if let Some(row) = outbox(server, email).await.filter(|r| r.1 > 0) {
            return row;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("the mail to {email} was never tried");
}

#[tokio::test]
async fn a_silent_mail_server_costs_each_mail_its_deadline_not_all_mail_for_ever() {
    let url = format!("smtp://127.0.0.1:{}", silent_server());
    let env = [
        ("ORTAK_SMTP_URL", url.as_str()),
        ("ORTAK_SMTP_TIMEOUT_SECONDS", "2"),
    ];
    let server = Server::start_in(TempDir::new().unwrap(), &env);
    sign_up(&server, "sessiz@example.com").await;
    let (status, attempts, error) = tried(&server, "sessiz@example.com").await;
    // Before the fix the send waited for ever: never tried, nothing counted.
    assert_eq!(
        (status.as_str(), attempts),
        ("pending", 1),
        "tried again later"
    );
    assert!(error.unwrap().contains("did not answer within 2 s"));
    let failures = server.metric("ortak_mail_send_failures_total").await;
    assert!(failures.expect("the failure is counted") > 0);
}

#[tokio::test]
async fn a_permanent_refusal_is_not_retried() {
    let url = format!("smtp://127.0.0.1:{}", mail_server(|_| Recipient::Refuse));
    let env = [
        ("ORTAK_SMTP_URL", url.as_str()),
        ("ORTAK_SMTP_TIMEOUT_SECONDS", "5"),
    ];
    let server = Server::start_in(TempDir::new().unwrap(), &env);
    sign_up(&server, "yok@example.com").await;
    let (status, attempts, error) = tried(&server, "yok@example.com").await;
    // Before: pending, tried eight times over hours.
    assert_eq!((status.as_str(), attempts), ("failed", 1));
    assert!(
        error.unwrap().contains("550"),
        "the server's answer is kept"
    );
}

#[tokio::test]
async fn a_mail_the_server_is_slow_with_does_not_hold_the_others_back() {
    let slow = |rcpt: &str| {
        if rcpt.contains("yavas@") {
            Recipient::Stall
        } else {
            Recipient::Take
        }
    };
    let url = format!("smtp://127.0.0.1:{}", mail_server(slow));
    let env = [
        ("ORTAK_SMTP_URL", url.as_str()),
        ("ORTAK_SMTP_TIMEOUT_SECONDS", "20"),
    ];
    let server = Server::start_in(TempDir::new().unwrap(), &env);
    // The slow mail is queued first; before the fix the other waited its whole deadline.
    sign_up(&server, "yavas@example.com").await;
    sign_up(&server, "hizli@example.com").await;
    let (status, attempts, _) = tried(&server, "hizli@example.com").await;
    assert_eq!((status.as_str(), attempts), ("sent", 1));
    let slow = outbox(&server, "yavas@example.com").await.unwrap();
    assert_eq!(
        (slow.0.as_str(), slow.1),
        ("pending", 0),
        "the slow mail is still being sent"
    );
}
