//! Steps the money-path tests share: an investor ready to invest (verified e-mail, MKK data
//! with a unique identity number), a request sent, approved, its fee paid by card through the
//! sandbox's 3-D Secure pages, the transfer details given and the receipt recorded by staff,
//! and moving the injectable clock.

use std::path::Path;

use super::journeys::{csrf, post_form, sign_up};
use super::{Server, csrf_of};

/// A valid TCKN made from `n` (distinct `n`, distinct numbers).
pub fn tckn(n: u32) -> String {
    let base = format!("{}", 100_000_000 + n % 800_000_000);
    let d: Vec<i64> = base.bytes().map(|b| i64::from(b - b'0')).collect();
    let odd = d[0] + d[2] + d[4] + d[6] + d[8];
    let even = d[1] + d[3] + d[5] + d[7];
    let d10 = (odd * 7 - even).rem_euclid(10);
    let d11 = (d.iter().sum::<i64>() + d10) % 10;
    format!("{base}{d10}{d11}")
}

/// The MKK form of an individual citizen with `tckn` and a declared annual `income`.
pub fn mkk(email: &str, tckn: &str, income: &str) -> Vec<(&'static str, String)> {
    [
        ("investor_type", "individual"),
        ("citizen", "yes"),
        ("id_type", "tckn"),
        ("first_name", "Ayşe"),
        ("last_name", "Yılmaz"),
        ("email", email),
        ("phone", "0532 123 45 67"),
        ("annual_income", income),
        ("identity_number", tckn),
        ("organisation", ""),
        ("birth_date", "1984-02-29"),
    ]
    .into_iter()
    .map(|(k, v)| (k, v.to_owned()))
    .collect()
}

/// Marks `email` verified, as following the verification mail does.
pub async fn verify_email(server: &Server, email: &str) {
    sqlx::query("UPDATE users SET email_verified_at = '2026-01-01T00:00:00Z' WHERE email = ?")
        .bind(email)
        .execute(&server.db().await)
        .await
        .unwrap();
}

/// Marks `email`'s MKK data verified, as staff's review does (the database's trigger keeps
/// the verified snapshot the yearly limit follows).
pub async fn verify_mkk(server: &Server, email: &str) {
    sqlx::query(
        "UPDATE mkk_profiles SET status = 'verified', verified_by = 'staff',
             reviewed_at = '2026-01-01T00:00:00Z'
         WHERE user_id = (SELECT id FROM users WHERE email = ?)",
    )
    .bind(email)
    .execute(&server.db().await)
    .await
    .unwrap();
}

/// Records a verified qualified-investor declaration for `email` (as staff verify one).
pub async fn make_qualified(server: &Server, email: &str) {
    sqlx::query(
        "INSERT INTO qualified_declarations (user_id, basis, evidence_file, evidence_type, status)
         SELECT id, 'assets', 'test.pdf', 'pdf', 'verified' FROM users WHERE email = ?",
    )
    .bind(email)
    .execute(&server.db().await)
    .await
    .unwrap();
}

/// An investor ready to invest: joined, e-mail verified, MKK data sent (identity `n`, the
/// declared `income`) and verified by staff. Returns the browser and its CSRF token.
pub async fn investor(
    server: &Server,
    email: &str,
    n: u32,
    income: &str,
) -> (reqwest::Client, String) {
    let browser = sign_up(server, email).await;
    verify_email(server, email).await;
    let token = csrf(&browser, server, "/mkk").await;
    let sent = post_form(
        &browser,
        server.url("/mkk"),
        &token,
        &mkk(email, &tckn(n), income),
    )
    .await;
    assert_eq!(sent.status(), 303, "{email}'s MKK data");
    verify_mkk(server, email).await;
    (browser, token)
}

/// A qualified investor ready to invest (no annual limit).
pub async fn qualified_investor(server: &Server, email: &str, n: u32) -> (reqwest::Client, String) {
    let ready = investor(server, email, n, "750.000").await;
    make_qualified(server, email).await;
    ready
}

/// Opens `startup`'s current information form as `browser`'s investor, as a request requires
/// (nothing happens when the round has none).
pub async fn open_information_form(server: &Server, browser: &reqwest::Client, startup: &str) {
    let form: Option<i64> = sqlx::query_scalar(
        "SELECT MAX(d.id) FROM round_documents d JOIN startups s ON s.id = d.startup_id
         WHERE s.slug = ? AND d.kind = 'information-form'",
    )
    .bind(startup)
    .fetch_one(&server.db().await)
    .await
    .unwrap();
    if let Some(form) = form {
        let link = server.url(&format!("/startups/{startup}/documents/{form}"));
        let opened = browser.get(link).send().await.unwrap();
        assert_eq!(opened.status(), 200, "{startup}'s information form opens");
    }
}

/// Sends a request for `amount` (lira, as typed) in `startup` with the fee added, after opening
/// its information form; returns the response.
pub async fn send_request(
    server: &Server,
    browser: &reqwest::Client,
    token: &str,
    startup: &str,
    amount: &str,
    key: &str,
) -> reqwest::Response {
    let fields = [
        ("startup", startup.to_owned()),
        ("amount", amount.to_owned()),
        ("fee_added", "on".into()),
        ("risk", "on".into()),
        ("idempotency_key", key.to_owned()),
    ];
    open_information_form(server, browser, startup).await;
    post_form(browser, server.url("/investmentFlow"), token, &fields).await
}

/// The newest request of `email`.
pub async fn request_of(server: &Server, email: &str) -> i64 {
    sqlx::query_scalar(
        "SELECT r.id FROM investment_requests r JOIN users u ON u.id = r.user_id
         WHERE u.email = ? ORDER BY r.id DESC LIMIT 1",
    )
    .bind(email)
    .fetch_one(&server.db().await)
    .await
    .unwrap()
}

pub async fn status_of(server: &Server, request: i64) -> String {
    sqlx::query_scalar("SELECT status FROM investment_requests WHERE id = ?")
        .bind(request)
        .fetch_one(&server.db().await)
        .await
        .unwrap()
}

/// Staff move request `id` to `to` (with `note`); the answer's status.
pub async fn staff_move(
    server: &Server,
    staff: &reqwest::Client,
    id: i64,
    to: &str,
    note: &str,
) -> u16 {
    let token = csrf(staff, server, "/dashboard/investments").await;
    post_form(
        staff,
        server.url(&format!("/dashboard/investments/{id}/status")),
        &token,
        &[("to", to.into()), ("note", note.into())],
    )
    .await
    .status()
    .as_u16()
}

/// Pays request `id`'s service fee with the sandbox's test card and 3-D Secure code.
pub async fn pay_fee(server: &Server, browser: &reqwest::Client, id: i64) {
    let challenge = start_card_payment(server, browser, id).await;
    let back = answer_card_challenge(server, browser, &challenge).await;
    assert_eq!(back.status(), 303, "request {id}: callback");
}

/// Sends the sandbox's test card for request `id`'s fee; returns the 3-D Secure challenge's
/// address (nothing is charged until it is answered).
pub async fn start_card_payment(server: &Server, browser: &reqwest::Client, id: i64) -> String {
    let page = super::text(browser, server.url(&format!("/invFlow?request={id}"))).await;
    let token = csrf_of(&page);
    let card = [
        ("request", id.to_string()),
        ("holder", "Ayşe Yılmaz".into()),
        ("number", "4242 4242 4242 4242".into()),
        ("month", "12".into()),
        ("year", "2030".into()),
        ("cvv", "123".into()),
    ];
    let started = post_form(browser, server.url("/invFlow/card"), &token, &card).await;
    assert_eq!(started.status(), 303, "request {id}: card step");
    started.headers()["location"].to_str().unwrap().to_owned()
}

/// Approves the 3-D Secure `challenge` with the sandbox's code and follows the callback; its
/// answer.
pub async fn answer_card_challenge(
    server: &Server,
    browser: &reqwest::Client,
    challenge: &str,
) -> reqwest::Response {
    let token = csrf_of(&super::text(browser, server.url(challenge)).await);
    let answer = [("code", "123456".into()), ("action", "approve".into())];
    let answered = post_form(browser, server.url(challenge), &token, &answer).await;
    let callback = answered.headers()["location"].to_str().unwrap().to_owned();
    browser.get(&callback).send().await.unwrap()
}

/// Gives request `id`'s transfer details (with the payer's IBAN); returns the reference.
pub async fn give_transfer(
    server: &Server,
    browser: &reqwest::Client,
    id: i64,
    iban: &str,
) -> String {
    let token = csrf(browser, server, &format!("/invFlow?request={id}")).await;
    let details = [
        ("request", id.to_string()),
        ("payer_name", "Ayşe Yılmaz".into()),
        ("address", "Bağdat Cad. 1".into()),
        ("country", "Türkiye".into()),
        ("city", "İstanbul".into()),
        ("post_code", "34728".into()),
        ("phone", "0532 123 45 67".into()),
        ("iban", iban.into()),
        ("iban_own", "on".into()),
    ];
    let sent = post_form(browser, server.url("/invFlow/bank"), &token, &details).await;
    assert_eq!(sent.status(), 303, "request {id}: transfer details");
    sqlx::query_scalar("SELECT reference FROM bank_transfers WHERE request_id = ?")
        .bind(id)
        .fetch_one(&server.db().await)
        .await
        .unwrap()
}

/// A camt.053 statement of the escrow account (the default `ORTAK_ESCROW_IBAN`), one credit per
/// `(reference, amount in lira as typed, payer's name, payer's IBAN)`. Each call's bank
/// references are new, so each statement is a new file.
pub fn camt053(credits: &[(&str, &str, &str, &str)]) -> String {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    let entries: String = credits
        .iter()
        .map(|(reference, lira, name, iban)| {
            let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let amount = format!("{}.00", lira.replace('.', ""));
            format!(
                "<Ntry><Amt Ccy=\"TRY\">{amount}</Amt><CdtDbtInd>CRDT</CdtDbtInd>\
                 <BookgDt><Dt>2026-11-20</Dt></BookgDt><AcctSvcrRef>TEST-{}-{n}</AcctSvcrRef>\
                 <NtryDtls><TxDtls><RltdPties><Dbtr><Nm>{name}</Nm></Dbtr>\
                 <DbtrAcct><Id><IBAN>{iban}</IBAN></Id></DbtrAcct></RltdPties>\
                 <RmtInf><Ustrd>{reference}</Ustrd></RmtInf></TxDtls></NtryDtls></Ntry>",
                std::process::id()
            )
        })
        .collect();
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\
         <Document xmlns=\"urn:iso:std:iso:20022:tech:xsd:camt.053.001.02\"><BkToCstmrStmt>\
         <Stmt><Id>TEST</Id><Acct><Id><IBAN>TR470000100100000350930001</IBAN></Id></Acct>\
         {entries}</Stmt></BkToCstmrStmt></Document>"
    )
}

/// `staff` imports the bank statement `file` at `/dashboard/takasbank/statements`; the answer.
pub async fn import_statement(
    server: &Server,
    staff: &reqwest::Client,
    file: String,
) -> reqwest::Response {
    let token = csrf(staff, server, "/newsletter").await;
    let form = reqwest::multipart::Form::new().text("csrf", token).part(
        "statement",
        reqwest::multipart::Part::text(file).file_name("ekstre.xml"),
    );
    staff
        .post(server.url("/dashboard/takasbank/statements"))
        .multipart(form)
        .send()
        .await
        .unwrap()
}

/// The clearing bank's statement reports `amount` (lira, as typed) received under request
/// `id`'s reference from its investor (their verified name and declared IBAN), and `staff`
/// imports it; the answer's status.
pub async fn receive(server: &Server, staff: &reqwest::Client, id: i64, amount: &str) -> u16 {
    let (reference, iban, name): (String, String, String) = sqlx::query_as(
        "SELECT b.reference, b.payer_iban, COALESCE(m.verified_name, '')
         FROM bank_transfers b JOIN investment_requests r ON r.id = b.request_id
         LEFT JOIN mkk_profiles m ON m.user_id = r.user_id WHERE b.request_id = ?",
    )
    .bind(id)
    .fetch_one(&server.db().await)
    .await
    .unwrap();
    let file = camt053(&[(&reference, amount, &name, &iban)]);
    import_statement(server, staff, file)
        .await
        .status()
        .as_u16()
}

/// Superadmin `proposer` types a receipt of `amount` (lira) for request `id`, and superadmin
/// `confirmer` confirms it; the two answers' statuses.
pub async fn typed_receipt(
    server: &Server,
    (proposer, confirmer): (&reqwest::Client, &reqwest::Client),
    id: i64,
    amount: &str,
) -> (u16, u16) {
    let token = csrf(proposer, server, "/newsletter").await;
    let typed = post_form(
        proposer,
        server.url(&format!("/dashboard/takasbank/{id}/receipts")),
        &token,
        &[
            ("amount", amount.into()),
            ("date", "2026-11-20".into()),
            ("note", "Takasbank yazısı".into()),
        ],
    )
    .await
    .status()
    .as_u16();
    let receipt: i64 = sqlx::query_scalar(
        "SELECT id FROM typed_receipts WHERE request_id = ? ORDER BY id DESC LIMIT 1",
    )
    .bind(id)
    .fetch_one(&server.db().await)
    .await
    .unwrap();
    let token = csrf(confirmer, server, "/newsletter").await;
    let confirmed = post_form(
        confirmer,
        server.url(&format!("/dashboard/takasbank/receipts/{receipt}/confirm")),
        &token,
        &[],
    )
    .await
    .status()
    .as_u16();
    (typed, confirmed)
}

/// Request `id` of `browser`'s investor, from sent to funded: approved by `staff`, the fee
/// paid, the transfer of `amount` received.
pub async fn fund(
    server: &Server,
    browser: &reqwest::Client,
    staff: &reqwest::Client,
    id: i64,
    amount: &str,
) {
    assert_eq!(staff_move(server, staff, id, "approved", "").await, 303);
    pay_fee(server, browser, id).await;
    give_transfer(server, browser, id, "TR470000100100000350930001").await;
    assert_eq!(receive(server, staff, id, amount).await, 303);
    assert_eq!(status_of(server, id).await, "funded", "request {id}");
}

/// A superadmin ends round `id` early from its confirmation page: `schedule` (a success, once
/// every open window and deadline has passed) or `terminate` (with a reason), typing the
/// startup's name; the response.
pub async fn end_round_early(
    server: &Server,
    staff: &reqwest::Client,
    id: i64,
    intent: &str,
) -> reqwest::Response {
    let name: String = sqlx::query_scalar("SELECT name FROM startups WHERE id = ?")
        .bind(id)
        .fetch_one(&server.db().await)
        .await
        .unwrap();
    let page = format!("/dashboard/rounds/{id}/close");
    let token = csrf(staff, server, &page).await;
    let fields = [
        ("intent", intent.to_owned()),
        ("name", name),
        ("reason", "Girişim başvurusunu geri çekti.".into()),
    ];
    post_form(staff, server.url(&page), &token, &fields).await
}

/// Moves the server's clock `seconds` ahead of real time (its `ORTAK_CLOCK_FILE`).
pub fn set_clock(file: &Path, seconds: i64) {
    std::fs::write(file, seconds.to_string()).unwrap();
}

/// Waits until `sql` (a COUNT) answers `expected`, for at most 20 seconds; returns the last
/// answer.
pub async fn wait_for_count(server: &Server, sql: &str, expected: i64) -> i64 {
    let db = server.db().await;
    let mut last = -1;
    for _ in 0..200 {
        last = sqlx::query_scalar(sql).fetch_one(&db).await.unwrap();
        if last == expected {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    last
}
