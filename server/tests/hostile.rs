//! Hostile input. Every form the site renders, found by reading the pages a visitor, an
//! investor, a superadmin and a fund-team member open, is posted with generated bad values:
//! empty, too long, control characters, HTML and script, SQL fragments, values of the wrong
//! type, the wrong content type and a huge body; the JSON API gets malformed and ill-typed
//! bodies. Nothing may answer a server error; what is refused answers 4xx with a page (or JSON)
//! in the user's language and leaves every table as it was; nothing echoes markup unescaped,
//! and what was stored is shown escaped on every staff page afterwards.

mod common;

use std::collections::BTreeSet;

use common::journeys::{ADMIN_PASSWORD, create_admin, csrf, post_form, sign_in, sign_up};
use common::{Server, client, csrf_of};
use sqlx::SqlitePool;
use tempfile::TempDir;

/// Markup that must never come back unescaped.
const SCRIPT: &str = "\"></textarea><script>alert('ortak')</script><img src=x onerror=alert(1)>";
const SQL: &str = "' OR '1'='1'; DROP TABLE users; --";
const CONTROL: &str = "Ayşe\u{0}\u{1b}[31m\u{7}\u{8}";

/// Name and value pairs, as posted.
type Fields = Vec<(String, String)>;

/// A form as the page renders it.
#[derive(Clone, Debug)]
struct FormSpec {
    page: String,
    action: String,
    multipart: bool,
    fields: Vec<Field>,
}

#[derive(Clone, Debug)]
struct Field {
    name: String,
    kind: Kind,
    /// The value the page set (hidden fields, buttons, the first option).
    value: String,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    /// Kept as the page set it (CSRF token, ids, idempotency keys, the submit button).
    Kept,
    Text,
    Number,
    Date,
    Email,
    /// A select, radio button or checkbox.
    Choice,
    File,
}

impl FormSpec {
    fn editable(&self) -> bool {
        self.fields
            .iter()
            .any(|f| matches!(f.kind, Kind::Text | Kind::Number | Kind::Date | Kind::Email))
    }

    /// The fields with each editable one's value from `value` (kept ones as they are).
    fn filled(&self, value: impl Fn(&Field) -> Option<String>) -> Fields {
        let mut seen = BTreeSet::new();
        self.fields
            .iter()
            .filter(|f| f.kind != Kind::File)
            .filter_map(|f| {
                // The honeypot: a bot that fills it gets a fake success, by design.
                if f.name == "fax" {
                    return Some((f.name.clone(), String::new()));
                }
                let v = if f.kind == Kind::Kept {
                    Some(f.value.clone())
                } else {
                    value(f)
                }?;
                // Radio groups: one value per name.
                (f.kind != Kind::Choice || seen.insert(f.name.clone())).then(|| (f.name.clone(), v))
            })
            .collect()
    }
}

/// The value of attribute `name` in a tag's source, unescaped.
fn attr(tag: &str, name: &str) -> Option<String> {
    let needle = format!(" {name}=\"");
    let start = tag.find(&needle)? + needle.len();
    let end = start + tag[start..].find('"')?;
    Some(
        tag[start..end]
            .replace("&quot;", "\"")
            .replace("&#x27;", "'")
            .replace("&#39;", "'")
            .replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&amp;", "&"),
    )
}

/// Every `<form method="post">` of a page, with its fields.
fn forms_of(page: &str, html: &str) -> Vec<FormSpec> {
    let mut forms = Vec::new();
    let mut rest = html;
    while let Some(open) = rest.find("<form") {
        rest = &rest[open..];
        let tag_end = rest.find('>').unwrap();
        let tag = &rest[..tag_end];
        let body_end = rest.find("</form>").unwrap_or(rest.len());
        let body = &rest[tag_end..body_end];
        rest = &rest[body_end..];
        if attr(tag, "method").as_deref() != Some("post") {
            continue;
        }
        let action = attr(tag, "action")
            .filter(|a| !a.is_empty())
            .unwrap_or_else(|| page.to_owned());
        let multipart = attr(tag, "enctype").as_deref() == Some("multipart/form-data");
        forms.push(FormSpec {
            page: page.to_owned(),
            action,
            multipart,
            fields: fields_of(body),
        });
    }
    forms
}

fn fields_of(body: &str) -> Vec<Field> {
    let mut fields = Vec::new();
    let mut button = false;
    let mut rest = body;
    while let Some(open) = rest.find('<') {
        rest = &rest[open + 1..];
        let name_end = rest
            .find(|c: char| c.is_whitespace() || c == '>' || c == '/')
            .unwrap_or(rest.len());
        let element = &rest[..name_end];
        let tag = &rest[..rest.find('>').unwrap_or(rest.len())];
        let tag = format!(" {tag}");
        let Some(name) = attr(&tag, "name") else {
            continue;
        };
        let value = attr(&tag, "value").unwrap_or_default();
        let kind = match element {
            "textarea" => Kind::Text,
            "select" => {
                let options = &rest[..rest.find("</select>").unwrap_or(rest.len())];
                let first = options
                    .split("<option")
                    .skip(1)
                    .filter_map(|o| attr(&format!(" {o}"), "value"))
                    .find(|v| !v.is_empty())
                    .unwrap_or_default();
                fields.push(Field {
                    name,
                    kind: Kind::Choice,
                    value: first,
                });
                continue;
            }
            "button" => {
                // The first named submit button, as a click on it sends.
                if button {
                    continue;
                }
                button = true;
                Kind::Kept
            }
            "input" => match attr(&tag, "type").as_deref().unwrap_or("text") {
                "hidden" => Kind::Kept,
                "submit" if button => continue,
                "submit" => {
                    button = true;
                    Kind::Kept
                }
                "radio" | "checkbox" => Kind::Choice,
                "file" => Kind::File,
                "number" => Kind::Number,
                "date" => Kind::Date,
                "email" => Kind::Email,
                _ => Kind::Text,
            },
            _ => continue,
        };
        fields.push(Field { name, kind, value });
    }
    fields
}

/// Every table's rows but the session store's and the rate limits' (which a refused request
/// may touch), as one comparable text per table.
async fn snapshot(db: &SqlitePool) -> Vec<(String, String)> {
    let tables: Vec<String> = sqlx::query_scalar(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
         AND name NOT IN ('sessions', 'rate_limits', '_sqlx_migrations') ORDER BY name",
    )
    .fetch_all(db)
    .await
    .unwrap();
    let mut out = Vec::new();
    for table in tables {
        let columns: Vec<String> =
            sqlx::query_scalar("SELECT 'quote(\"' || name || '\")' FROM pragma_table_info(?)")
                .bind(&table)
                .fetch_all(db)
                .await
                .unwrap();
        let rows: Option<String> = sqlx::query_scalar(&format!(
            "SELECT json_group_array(json_array({})) FROM \"{table}\"",
            columns.join(", ")
        ))
        .fetch_one(db)
        .await
        .unwrap();
        out.push((table, rows.unwrap_or_default()));
    }
    out
}

/// The tables that differ between two snapshots.
fn changed(before: &[(String, String)], after: &[(String, String)]) -> Vec<String> {
    after
        .iter()
        .filter(|row| !before.contains(row))
        .map(|(table, _)| table.clone())
        .collect()
}

/// What a refusal must look like: a 4xx page in the user's language (Turkish here), or JSON
/// with a message under `/api/`.
fn is_localized_refusal(path: &str, status: u16, body: &str) -> bool {
    if path.starts_with("/api/") {
        let v: serde_json::Value = serde_json::from_str(body).unwrap_or_default();
        return v.get("message").or_else(|| v.get("errors")).is_some();
    }
    // Rate limits and expired forms send visitors elsewhere; a page says why.
    (400..500).contains(&status) && body.contains("<html lang=\"tr\"")
}

/// Markup from the payload, live: outside quoted attribute values (where `<` is inert and `"`
/// is escaped), unescaped.
fn echoes_markup(body: &str) -> Option<String> {
    let mut live = String::with_capacity(body.len());
    let (mut in_tag, mut quote) = (false, None);
    for c in body.chars() {
        match (in_tag, quote) {
            (true, Some(q)) if c == q => quote = None,
            (true, Some(_)) => continue,
            (true, None) if c == '"' || c == '\'' => quote = Some(c),
            (true, None) if c == '>' => in_tag = false,
            (false, _) if c == '<' => in_tag = true,
            _ => {}
        }
        live.push(c);
    }
    ["<script>alert(", "<img src=x onerror"]
        .iter()
        .find_map(|m| live.find(m))
        .map(|at| {
            let start = live.floor_char_boundary(at.saturating_sub(150));
            live[start..live.ceil_char_boundary(at + 60)].to_owned()
        })
}

struct Role {
    name: &'static str,
    browser: reqwest::Client,
    pages: Vec<String>,
}

async fn post(
    server: &Server,
    browser: &reqwest::Client,
    form: &FormSpec,
    fields: &[(String, String)],
) -> (u16, String) {
    let request = browser
        .post(server.url(&form.action))
        .header("origin", server.base.as_str());
    let request = if form.multipart {
        let mut multipart = reqwest::multipart::Form::new();
        for (k, v) in fields {
            multipart = multipart.text(k.clone(), v.clone());
        }
        request.multipart(multipart)
    } else {
        request.form(fields)
    };
    let response = request.send().await.unwrap();
    let status = response.status().as_u16();
    (status, response.text().await.unwrap_or_default())
}

#[tokio::test]
async fn every_form_refuses_bad_input_without_storing_or_echoing_it() {
    let data = TempDir::new().unwrap();
    create_admin(&data, "super@example.com", true);
    let server = Server::start_in(data, &[("ORTAK_DEMO", "1")]);
    let db = server.db().await;

    let investor = sign_up(&server, "yatirimci@example.com").await;
    let superadmin = sign_in(&server, "super@example.com", ADMIN_PASSWORD).await;
    let fund_member = sign_up(&server, "fon@example.com").await;
    let token = csrf(&superadmin, &server, "/dashboard/vcGroups").await;
    let added = post_form(
        &superadmin,
        server.url("/dashboard/vcGroups/1/members"),
        &token,
        &[("op", "add".into()), ("email", "fon@example.com".into())],
    )
    .await;
    assert_eq!(added.status(), 303);
    let fund_startup: i64 = sqlx::query_scalar("SELECT id FROM startups WHERE fund_id = 1")
        .fetch_one(&db)
        .await
        .unwrap();

    let staff_pages = {
        let home = common::text(&superadmin, server.url("/dashboard")).await;
        let mut pages: Vec<String> = home
            .split("<a href=\"/dashboard")
            .skip(1)
            .map(|s| format!("/dashboard{}", &s[..s.find('"').unwrap()]))
            .filter(|p| !p.contains('.') && !p.contains('?'))
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        pages.extend(
            [
                "/dashboard/startups/new",
                "/dashboard/startups/1",
                "/dashboard/users/1",
                "/dashboard/autoMail/welcome",
                "/dashboard/academy/events",
                "/dashboard/faq/new",
                "/dashboard/faq/1",
                "/dashboard/blogs/new",
                "/dashboard/blogs/1",
                "/dashboard/vipgroups/new",
            ]
            .map(String::from),
        );
        pages
    };
    let roles = [
        Role {
            name: "visitor",
            browser: client(),
            pages: [
                "/",
                "/signup",
                "/signin",
                "/forgotpassword",
                "/verification",
                "/newsletter",
                "/gsyf",
                "/academy",
                "/projectFlow/1",
            ]
            .map(String::from)
            .to_vec(),
        },
        Role {
            name: "investor",
            browser: investor,
            pages: [
                "/boardingFlow/1",
                "/mkk",
                "/investmentFlow?startup=cemre-enerji",
                "/startups/cemre-enerji",
                "/profile",
                "/profile?tab=security",
                "/profile?tab=preferences",
                "/profile?tab=investor",
                "/profile?tab=delete",
                "/contactUs",
                "/qualifiedInvestor",
            ]
            .map(String::from)
            .to_vec(),
        },
        Role {
            name: "superadmin",
            browser: superadmin.clone(),
            pages: staff_pages.clone(),
        },
        Role {
            name: "fund member",
            browser: fund_member,
            pages: vec![format!("/vc-dashboard/startups/{fund_startup}")],
        },
    ];

    let mut problems = Vec::new();
    let mut tried = 0;
    let mut accepted_markup = Vec::new();
    for role in &roles {
        // Each form once: by action and field names.
        let mut forms: Vec<FormSpec> = Vec::new();
        for page in &role.pages {
            let response = role.browser.get(server.url(page)).send().await.unwrap();
            assert_eq!(response.status(), 200, "{page} as {}", role.name);
            for form in forms_of(page, &response.text().await.unwrap()) {
                let key = |f: &FormSpec| {
                    let names: BTreeSet<&str> = f.fields.iter().map(|x| x.name.as_str()).collect();
                    (
                        f.action.clone(),
                        names.into_iter().collect::<Vec<_>>().join(","),
                    )
                };
                if form.action != "/logout" && !forms.iter().any(|f| key(f) == key(&form)) {
                    forms.push(form);
                }
            }
        }
        assert!(
            forms.iter().filter(|f| f.editable()).count() >= 3,
            "{} has forms: {forms:#?}",
            role.name
        );

        for form in &forms {
            // Every kind of bad value, each in every field it fits.
            let huge = "a".repeat(100_001);
            let kinds: Vec<(&str, Fields, bool)> = vec![
                ("empty", form.filled(|_| Some(String::new())), false),
                (
                    "too long",
                    form.filled(|f| (f.kind != Kind::Choice).then(|| huge.clone())),
                    true,
                ),
                (
                    "control characters",
                    form.filled(|f| (f.kind != Kind::Choice).then(|| CONTROL.to_owned())),
                    true,
                ),
                (
                    "wrong types",
                    form.filled(|f| {
                        Some(
                            match f.kind {
                                Kind::Number => "on iki",
                                Kind::Date => "31.02.2025",
                                Kind::Email => "@@",
                                Kind::Choice => "no-such-option",
                                _ => "",
                            }
                            .to_owned(),
                        )
                    }),
                    false,
                ),
                ("script", form.filled(|_| Some(SCRIPT.to_owned())), false),
                ("sql", form.filled(|_| Some(SQL.to_owned())), false),
            ];
            for (kind, fields, must_refuse) in kinds {
                if !form.editable() && kind != "empty" {
                    continue;
                }
                tried += 1;
                let before = snapshot(&db).await;
                let (status, body) = post(&server, &role.browser, form, &fields).await;
                let after = snapshot(&db).await;
                let what = format!(
                    "POST {} (from {}) as {}, {kind}",
                    form.action, form.page, role.name
                );
                if status >= 500 {
                    problems.push(format!("{what}: {status}"));
                    continue;
                }
                if let Some(at) = echoes_markup(&body) {
                    problems.push(format!("{what}: echoes the markup unescaped: {at}"));
                }
                let refused = (400..500).contains(&status);
                if must_refuse && !refused {
                    problems.push(format!("{what}: {status}, expected a refusal"));
                }
                if refused {
                    if !is_localized_refusal(&form.action, status, &body) {
                        problems.push(format!("{what}: {status} without a localized page"));
                    }
                    let tables = changed(&before, &after);
                    if !tables.is_empty() {
                        problems.push(format!("{what}: refused ({status}) but wrote {tables:?}"));
                    }
                } else if kind == "script" && before != after {
                    accepted_markup.push(what);
                }
            }

            // The wrong content type, and a body far over any limit.
            let before = snapshot(&db).await;
            let token = form
                .fields
                .iter()
                .find(|f| f.name == "csrf")
                .map(|f| f.value.clone())
                .unwrap_or_default();
            let json = role
                .browser
                .post(server.url(&form.action))
                .header("origin", server.base.as_str())
                .header("x-csrf-token", token.as_str())
                .json(&serde_json::json!({ "csrf": token }))
                .send()
                .await
                .unwrap();
            let plain = role
                .browser
                .post(server.url(&form.action))
                .header("origin", server.base.as_str())
                .header("content-type", "text/plain")
                .body(format!("csrf={token}"))
                .send()
                .await
                .unwrap();
            // The server may stop reading a body over its limit and close the connection
            // once it has answered: a client still writing then sees the write fail.
            let big = role
                .browser
                .post(server.url(&form.action))
                .header("origin", server.base.as_str())
                .header("content-type", "application/x-www-form-urlencoded")
                .body(format!("csrf={token}&x={}", "a".repeat(3 * 1024 * 1024)))
                .send()
                .await;
            let big = match big {
                Ok(response) => Some(response),
                Err(e) if e.is_request() => None,
                Err(e) => panic!("POST {} as {}, 3 MB: {e}", form.action, role.name),
            };
            for (kind, response) in [
                ("JSON", Some(json)),
                ("text/plain", Some(plain)),
                ("3 MB", big),
            ] {
                tried += 1;
                let Some(response) = response else { continue };
                let status = response.status().as_u16();
                let body = response.text().await.unwrap_or_default();
                if !(400..500).contains(&status)
                    || !is_localized_refusal(&form.action, status, &body)
                {
                    problems.push(format!(
                        "POST {} as {}, {kind} body: {status}",
                        form.action, role.name
                    ));
                }
            }
            let tables = changed(&before, &snapshot(&db).await);
            if !tables.is_empty() {
                problems.push(format!(
                    "POST {} as {}: a refused body wrote {tables:?}",
                    form.action, role.name
                ));
            }
        }
    }

    // What was accepted with markup in it is shown escaped wherever staff, members and
    // visitors read it (the FAQ, the fund's update on the startup's page, mails' previews).
    let slug: String = sqlx::query_scalar("SELECT slug FROM startups WHERE id = ?")
        .bind(fund_startup)
        .fetch_one(&db)
        .await
        .unwrap();
    let public = [
        "/faq".to_owned(),
        "/blog".to_owned(),
        format!("/startups/{slug}"),
    ];
    for page in staff_pages.iter().chain(&public) {
        let html = common::text(&superadmin, server.url(page)).await;
        if let Some(at) = echoes_markup(&html) {
            problems.push(format!("{page} shows stored markup unescaped: {at}"));
        }
        if !page.starts_with("/dashboard") {
            continue;
        }
        // The islands' data is JSON (sent as such, never sniffed as HTML); React escapes it.
        let json = superadmin
            .get(server.url(&format!("{page}.json")))
            .send()
            .await
            .unwrap();
        if json.status() == 200 {
            assert_eq!(
                json.headers()["content-type"],
                "application/json",
                "{page}.json"
            );
            assert_eq!(json.headers()["x-content-type-options"], "nosniff");
        }
    }
    // The SQL fragments were only text.
    let users: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM users")
        .fetch_one(&db)
        .await
        .unwrap();
    assert!(users >= 3);
    let integrity: String = sqlx::query_scalar("PRAGMA integrity_check")
        .fetch_one(&db)
        .await
        .unwrap();
    assert_eq!(integrity, "ok");

    println!(
        "{tried} hostile submissions; accepted with markup (shown escaped): {accepted_markup:#?}"
    );
    assert!(tried > 200, "only {tried} submissions");
    assert!(
        problems.is_empty(),
        "{} problems:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

#[tokio::test]
async fn the_json_api_refuses_malformed_and_ill_typed_bodies() {
    let data = TempDir::new().unwrap();
    let server = Server::start_in(data, &[("ORTAK_DEMO", "1")]);
    let db = server.db().await;
    let investor = sign_up(&server, "json@example.com").await;
    let page = common::text(&investor, server.url("/newsletter")).await;
    let token = csrf_of(&page);

    let deep = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
    let long = "a".repeat(100_000);
    let bodies: Vec<(&str, String)> = vec![
        ("empty", String::new()),
        ("not JSON", "email=a@b.co".into()),
        ("truncated", "{\"email\": \"a@".into()),
        ("null", "null".into()),
        ("an array", "[1, 2, 3]".into()),
        ("a string", "\"a@b.co\"".into()),
        ("deeply nested", deep),
        ("a number email", r#"{"email": 5}"#.into()),
        ("a list email", r#"{"email": ["a@b.co"]}"#.into()),
        (
            "a long email",
            format!(r#"{{"email": "{long}@example.com"}}"#),
        ),
        (
            "markup",
            format!(r#"{{"email": {}}}"#, serde_json::json!(SCRIPT)),
        ),
        ("a control character", r#"{"email": "a\u0000@b.co"}"#.into()),
        (
            "a text amount",
            r#"{"startup": "cemre-enerji", "amount": "yüz bin", "risk": true}"#.into(),
        ),
        (
            "a negative amount",
            r#"{"startup": "cemre-enerji", "amount": -100000, "risk": true}"#.into(),
        ),
        (
            "a huge amount",
            r#"{"startup": "cemre-enerji", "amount": 1e309, "risk": true}"#.into(),
        ),
        (
            "an object amount",
            r#"{"startup": "cemre-enerji", "amount": {"$gt": 0}, "risk": true}"#.into(),
        ),
        (
            "an unknown startup",
            format!(
                r#"{{"startup": {}, "amount": 100000, "risk": true}}"#,
                serde_json::json!(SQL)
            ),
        ),
    ];
    let mut problems = Vec::new();
    for path in ["/api/newsletter", "/api/investmentRequests"] {
        for (kind, body) in &bodies {
            for content_type in ["application/json", "text/plain", "application/xml"] {
                let before = snapshot(&db).await;
                let response = investor
                    .post(server.url(path))
                    .header("origin", server.base.as_str())
                    .header("x-csrf-token", token.as_str())
                    .header("content-type", content_type)
                    .body(body.clone())
                    .send()
                    .await
                    .unwrap();
                let status = response.status().as_u16();
                let text = response.text().await.unwrap_or_default();
                let what = format!("POST {path}, {kind}, {content_type}");
                if !(400..500).contains(&status) {
                    problems.push(format!("{what}: {status}"));
                    continue;
                }
                if !is_localized_refusal(path, status, &text) {
                    problems.push(format!("{what}: {status} without a message: {text}"));
                }
                if echoes_markup(&text).is_some() {
                    problems.push(format!("{what}: echoes the markup"));
                }
                let tables = changed(&before, &snapshot(&db).await);
                if !tables.is_empty() {
                    problems.push(format!("{what}: wrote {tables:?}"));
                }
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
