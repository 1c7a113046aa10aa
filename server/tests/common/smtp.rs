//! A local SMTP sink: accepts every message on 127.0.0.1 and keeps it for the test to read.

use std::sync::{Arc, Mutex};

use base64::Engine;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpListener;

#[derive(Clone, Debug)]
pub struct ReceivedMail {
    pub to: String,
    pub subject: String,
    /// The decoded text/plain part.
    pub text: String,
    /// Every header as sent, unfolded: `(name, value)`.
    pub headers: Vec<(String, String)>,
}

impl ReceivedMail {
    /// The value of the header `name` (any case), if the mail has it.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

#[derive(Clone, Default)]
pub struct SmtpSink {
    pub port: u16,
    mails: Arc<Mutex<Vec<ReceivedMail>>>,
}

impl SmtpSink {
    pub async fn start() -> SmtpSink {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let sink = SmtpSink {
            port: listener.local_addr().unwrap().port(),
            ..SmtpSink::default()
        };
        let mails = sink.mails.clone();
        tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                let mails = mails.clone();
                tokio::spawn(async move {
                    let (read, mut write) = stream.into_split();
                    let mut lines = BufReader::new(read).lines();
                    let _ = write.write_all(b"220 sink ESMTP\r\n").await;
                    let (mut to, mut data, mut in_data) = (String::new(), String::new(), false);
                    while let Ok(Some(line)) = lines.next_line().await {
                        if in_data {
                            if line == "." {
                                in_data = false;
                                mails.lock().unwrap().push(parse(&to, &data));
                                data.clear();
                                let _ = write.write_all(b"250 queued\r\n").await;
                            } else {
                                data.push_str(line.strip_prefix('.').unwrap_or(&line));
                                data.push('\n');
                            }
                            continue;
                        }
                        let upper = line.to_ascii_uppercase();
                        let reply: &[u8] = if upper.starts_with("EHLO") {
                            b"250-sink\r\n250 8BITMIME\r\n"
                        } else if upper.starts_with("RCPT TO:") {
                            to = line[8..].trim().trim_matches(['<', '>']).to_owned();
                            b"250 ok\r\n"
                        } else if upper == "DATA" {
                            in_data = true;
                            b"354 go ahead\r\n"
                        } else if upper == "QUIT" {
                            let _ = write.write_all(b"221 bye\r\n").await;
                            break;
                        } else {
                            b"250 ok\r\n"
                        };
                        let _ = write.write_all(reply).await;
                    }
                });
            }
        });
        sink
    }

    pub fn url(&self) -> String {
        format!("smtp://127.0.0.1:{}", self.port)
    }

    /// Waits up to 10 s for the newest mail to `to` that `wanted` accepts.
    async fn wait_until(
        &self,
        to: &str,
        what: &str,
        wanted: impl Fn(&ReceivedMail) -> bool,
    ) -> ReceivedMail {
        for _ in 0..200 {
            if let Some(mail) = self
                .mails
                .lock()
                .unwrap()
                .iter()
                .rev()
                .find(|m| m.to == to && wanted(m))
            {
                return mail.clone();
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        panic!(
            "no mail to {to} {what}; got {:?}",
            self.mails.lock().unwrap()
        );
    }

    /// Waits up to 10 s for a mail to `to` whose subject contains `subject`.
    pub async fn wait_for(&self, to: &str, subject: &str) -> ReceivedMail {
        let what = format!("about {subject:?}");
        self.wait_until(to, &what, |m| m.subject.contains(subject))
            .await
    }

    /// Waits up to 10 s for a mail to `to` whose text contains `needle`; the newest one.
    pub async fn wait_for_text(&self, to: &str, needle: &str) -> ReceivedMail {
        let what = format!("containing {needle:?}");
        self.wait_until(to, &what, |m| m.text.contains(needle))
            .await
    }

    /// Every mail received so far.
    pub fn all(&self) -> Vec<ReceivedMail> {
        self.mails.lock().unwrap().clone()
    }

    pub fn count_to(&self, to: &str) -> usize {
        self.mails
            .lock()
            .unwrap()
            .iter()
            .filter(|m| m.to == to)
            .count()
    }
}

fn decode_header(value: &str) -> String {
    // RFC 2047 encoded words as lettre writes them (=?utf-8?b?...?=); whitespace between two
    // encoded words is not part of the text, whitespace next to a plain word is.
    let mut out = String::new();
    let mut previous_encoded = None;
    for word in value.split_whitespace() {
        let inner = word
            .strip_prefix("=?utf-8?b?")
            .or_else(|| word.strip_prefix("=?UTF-8?B?"));
        let (text, encoded) = match inner.and_then(|w| w.strip_suffix("?=")) {
            Some(b64) => (
                String::from_utf8(
                    base64::engine::general_purpose::STANDARD
                        .decode(b64)
                        .unwrap(),
                )
                .unwrap(),
                true,
            ),
            None => (word.to_owned(), false),
        };
        if previous_encoded.is_some() && !(encoded && previous_encoded == Some(true)) {
            out.push(' ');
        }
        out.push_str(&text);
        previous_encoded = Some(encoded);
    }
    out
}

fn parse(to: &str, data: &str) -> ReceivedMail {
    let (headers, _) = data.split_once("\n\n").unwrap_or((data, ""));
    // Unfolded header lines: a line starting with white space continues the one before.
    let mut lines: Vec<String> = Vec::new();
    for line in headers.lines() {
        match lines.last_mut() {
            Some(last) if line.starts_with([' ', '\t']) => last.push_str(line),
            _ => lines.push(line.to_owned()),
        }
    }
    let headers: Vec<(String, String)> = lines
        .iter()
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_owned(), v.trim().to_owned()))
        .collect();
    let subject = headers
        .iter()
        .find(|(n, _)| n == "Subject")
        .map(|(_, v)| decode_header(v))
        .unwrap_or_default();
    // The text/plain part, base64 encoded.
    let text = data
        .split("Content-Type: text/plain")
        .nth(1)
        .and_then(|part| part.split_once("\n\n"))
        .map(|(_, body)| {
            let b64: String = body.lines().take_while(|l| !l.starts_with("--")).collect();
            String::from_utf8(
                base64::engine::general_purpose::STANDARD
                    .decode(b64.trim())
                    .unwrap_or_default(),
            )
            .unwrap_or_default()
        })
        .unwrap_or_default();
    ReceivedMail {
        to: to.to_owned(),
        subject,
        text,
        headers,
    }
}

/// The first link in `text` starting with `prefix`.
pub fn link_in(text: &str, prefix: &str) -> String {
    let start = text
        .find(prefix)
        .unwrap_or_else(|| panic!("no {prefix} link in {text}"));
    text[start..].split_whitespace().next().unwrap().to_owned()
}
