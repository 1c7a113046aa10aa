//! The service fee through iyzico, against the stand-in (end2end/standins/iyzico.mjs, which
//! checks every call's IYZWSv2 signature and answers with iyzico's shapes): success with the
//! bank's page under its own policy, declines and 3-D Secure failures, replayed, forged and
//! foreign callbacks, a charge whose answer times out or is cut by a crash (both resolved by
//! retrieval), and refunds by the job and by staff, including one whose answer was lost.

use crate::common;
use crate::payments_support;

use common::journeys::post_form;
use common::{Server, csrf_of};
use payments_support::{
    Iyzico, approved_request, eventually, fee_mails, fee_paid, field, location, move_request, pay,
    payments, post_callback, staff, start, tckn, with_field,
};
use tempfile::TempDir;

const GOOD_CARD: &str = "5528 7900 0000 0008";

/// A server paying through `iyzico`, with `extra` settings.
fn server_for(iyzico: &Iyzico, extra: &[(&str, &str)]) -> Server {
    let env = iyzico.env();
    let mut all: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    all.push(("RUST_LOG", "info,sqlx=warn,tower_sessions=warn"));
    all.extend_from_slice(extra);
    start(&all)
}

/// Posts the card: the browser goes to our page showing the bank's; returns (public id,
/// iyzico's payment id).
async fn open_challenge(
    server: &Server,
    browser: &reqwest::Client,
    id: i64,
    number: &str,
) -> (String, String) {
    let answer = pay(server, browser, id, number).await;
    assert_eq!(answer.status(), 303);
    let to = location(&answer);
    let public_id = to.strip_prefix("/invFlow/3ds/").expect(&to).to_owned();
    let row = payments(server, id).await;
    let row = row.iter().find(|p| p.public_id == public_id).unwrap();
    (public_id, row.provider_payment_id.clone().unwrap())
}

#[tokio::test]
async fn a_fee_is_paid_through_iyzicos_3d_secure_once_with_every_call_signed_and_logged() {
    let iyzico = Iyzico::start(30_000);
    let server = server_for(&iyzico, &[("ORTAK_JOBS_INTERVAL_SECONDS", "3600")]);
    let (browser, id) = approved_request(&server, "iyzico@example.com", 21).await;
    let card_step = common::text(&browser, server.url(&format!("/invFlow?request={id}"))).await;
    assert!(
        !card_step.contains("sandbox-banner"),
        "real payments carry no test banner"
    );

    let answer = pay(&server, &browser, id, GOOD_CARD).await;
    let request_id = answer.headers()["x-request-id"]
        .to_str()
        .unwrap()
        .to_owned();
    let to = location(&answer);
    assert!(to.starts_with("/invFlow/3ds/"), "{to}");
    // The bank's page, under a policy of its own: its form posts to the bank (here the
    // stand-in's origin), its inline script may run; never cached.
    let page = browser.get(server.url(&to)).send().await.unwrap();
    assert_eq!(page.status(), 200);
    let policy = page.headers()["content-security-policy"]
        .to_str()
        .unwrap()
        .to_owned();
    assert!(
        policy.contains(&format!("form-action https: {}", iyzico.url))
            && policy.contains("script-src 'unsafe-inline'")
            && policy.contains("frame-ancestors 'none'"),
        "{policy}"
    );
    assert_eq!(page.headers()["cache-control"], "no-store");
    let html = page.text().await.unwrap();
    assert!(
        html.contains("iyzico-3ds-form") && html.contains(&format!("{}/stand-in/3ds/", iyzico.url))
    );
    let stranger = payments_support::staff(&server).await;
    assert_eq!(
        stranger.get(server.url(&to)).send().await.unwrap().status(),
        404
    );

    // Posting the card again while 3-D Secure is open goes back to the same payment.
    assert_eq!(location(&pay(&server, &browser, id, GOOD_CARD).await), to);
    let rows = payments(&server, id).await;
    assert_eq!(rows.len(), 1);
    let (public_id, payment_id) = (
        &rows[0].public_id,
        rows[0].provider_payment_id.clone().unwrap(),
    );

    // The bank step, then iyzico's callback: a cross-site POST without cookie or CSRF token.
    let (callback_url, fields) = iyzico.bank_step(&payment_id, "123456").await;
    assert_eq!(callback_url, server.url("/payments/iyzico/callback"));
    let back = post_callback(&callback_url, &fields).await;
    assert_eq!(back.status(), 303);
    assert_eq!(location(&back), format!("/invFlow?request={id}"));
    assert!(
        back.headers().get("set-cookie").is_none(),
        "the callback sets no cookie"
    );
    let next = common::text(&browser, server.url(&location(&back))).await;
    assert!(next.contains("Yatırım tutarını emanet hesabına aktarın"));

    // A replayed callback changes nothing: the money is taken once, the mail sent once.
    for _ in 0..2 {
        let again = post_callback(&callback_url, &fields).await;
        assert_eq!(location(&again), format!("/invFlow?request={id}"));
    }
    let at_iyzico = iyzico.payment(&payment_id).await;
    assert_eq!(at_iyzico["status"], "SUCCESS");
    assert_eq!(at_iyzico["authCalls"], 1, "one charge");
    assert_eq!(at_iyzico["paidPrice"], "10000");
    let rows = payments(&server, id).await;
    assert_eq!(
        (rows[0].status.as_str(), rows[0].charged),
        ("succeeded", true)
    );
    assert!(fee_paid(&server, id).await);
    assert_eq!(fee_mails(&server).await, 1);

    // Every call was signed (the stand-in verified each) and names our payment and request.
    let log = iyzico.log().await;
    let api: Vec<_> = log.iter().filter(|e| e["kind"] == "api").collect();
    assert!(api.len() >= 2, "{log:#?}");
    assert!(api.iter().all(|e| e["signature"] == "verified"), "{api:#?}");
    let init = api
        .iter()
        .find(|e| e["path"] == "/payment/3dsecure/initialize")
        .unwrap();
    let sent = &init["request"];
    assert_eq!(sent["conversationId"], public_id.as_str());
    assert_eq!(sent["basketId"], format!("ortak-request-{id}"));
    assert_eq!(
        (&sent["price"], &sent["paidPrice"]),
        (&"10000.0".into(), &"10000.0".into())
    );
    assert_eq!(
        sent["buyer"]["identityNumber"],
        tckn(21),
        "buyer data from the MKK form"
    );
    assert_eq!(sent["buyer"]["ip"], "127.0.0.1", "the investor's address");
    assert_eq!(sent["buyer"]["gsmNumber"], "+905321234567");
    let auth = api
        .iter()
        .find(|e| e["path"] == "/payment/v2/3dsecure/auth")
        .unwrap();
    assert_eq!(auth["request"]["paymentId"], payment_id.as_str());
    assert_eq!(auth["request"]["basketId"], format!("ortak-request-{id}"));

    // Our log: each call and answer with the request id; never the card, CVV or TCKN.
    let out = server.output.lock().unwrap().join("\n");
    assert!(
        out.lines().any(|l| l.contains(&request_id)
            && l.contains("payment provider call")
            && l.contains("/payment/3dsecure/initialize")),
        "{out}"
    );
    assert!(out.contains("payment provider answer") && out.contains("****0008"));
    for secret in [
        "5528790000000008",
        "5528 7900",
        "\"cvc\":\"123\"",
        &tckn(21),
    ] {
        assert!(!out.contains(secret), "{secret} is in the log");
    }
    let stored: String = sqlx::query_scalar(
        "SELECT group_concat(public_id || card_brand || card_last4 || COALESCE(provider_state, '')
             || COALESCE(failure_reason, '') || COALESCE(three_ds_page, '')) FROM payments",
    )
    .fetch_one(&server.db().await)
    .await
    .unwrap();
    assert!(!stored.contains("5528790000000008") && stored.contains("0008"));

    // Staff see iyzico's payment id and its state on the request.
    let staff = staff(&server).await;
    let request_page =
        common::text(&staff, server.url(&format!("/dashboard/investments/{id}"))).await;
    assert!(
        request_page.contains(&format!("iyzico {payment_id}")),
        "{request_page}"
    );
    // Our words in the staff member's language; the provider's own state verbatim.
    assert!(
        request_page.contains("Başarılı · ")
            && request_page.contains("sağlayıcının durumu: SUCCESS"),
        "{request_page}"
    );
}

#[tokio::test]
async fn declines_and_failed_3d_secure_end_on_the_fail_page_with_their_reason() {
    let iyzico = Iyzico::start(30_000);
    let server = server_for(&iyzico, &[]);
    let (browser, id) = approved_request(&server, "red@example.com", 22).await;

    // 3-D Secure passes; the bank refuses the charge for lack of funds.
    let (_, payment_id) = open_challenge(&server, &browser, id, "4111 1111 1111 1129").await;
    let (url, fields) = iyzico.bank_step(&payment_id, "123456").await;
    let back = location(&post_callback(&url, &fields).await);
    assert_eq!(
        back,
        format!("/paymentFail?request={id}&reason=insufficient_funds")
    );
    let page = common::text(&browser, server.url(&back)).await;
    assert!(
        page.contains("limiti veya bakiyesi bu ödeme için yetersiz"),
        "{page}"
    );
    assert!(
        page.contains(&format!("href=\"/invFlow?request={id}\"")),
        "another try"
    );

    // 3-D Secure fails: the charge is never asked for.
    let (_, payment_id) = open_challenge(&server, &browser, id, "4131 1111 1111 1117").await;
    let (url, fields) = iyzico.bank_step(&payment_id, "123456").await;
    assert_eq!(field(&fields, "mdStatus"), "0");
    let back = location(&post_callback(&url, &fields).await);
    assert_eq!(back, format!("/paymentFail?request={id}&reason=three_ds"));
    assert_eq!(iyzico.payment(&payment_id).await["authCalls"], 0);
    // The wrong code on the bank's page is a failed 3-D Secure too.
    let (_, payment_id) = open_challenge(&server, &browser, id, GOOD_CARD).await;
    let (url, fields) = iyzico.bank_step(&payment_id, "000000").await;
    let back = location(&post_callback(&url, &fields).await);
    assert_eq!(back, format!("/paymentFail?request={id}&reason=three_ds"));

    // No 3-D Secure page from the bank: the payment fails at once.
    let answer = pay(&server, &browser, id, "4151 1111 1111 1112").await;
    assert_eq!(
        location(&answer),
        format!("/paymentFail?request={id}&reason=declined")
    );
    let statuses: Vec<String> = payments(&server, id)
        .await
        .into_iter()
        .map(|p| p.status)
        .collect();
    assert_eq!(statuses, ["failed"; 4]);
    assert!(payments(&server, id).await.iter().all(|p| !p.charged));
    assert!(!fee_paid(&server, id).await);

    // English, for an English-speaking investor's browser.
    let english = browser
        .get(server.url(&format!(
            "/paymentFail?request={id}&reason=three_ds&lang=en"
        )))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(english.contains("3-D Secure check did not pass"));

    // Keys iyzico does not know: its error code ends on the fail page too.
    let mut wrong = iyzico.env();
    wrong[1].1 = "not-our-api-key".into();
    let env: Vec<(&str, &str)> = wrong.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let other = start(&env);
    let (browser, id) = approved_request(&other, "anahtar@example.com", 23).await;
    let answer = pay(&other, &browser, id, GOOD_CARD).await;
    assert_eq!(
        location(&answer),
        format!("/paymentFail?request={id}&reason=provider")
    );
    let page = common::text(&browser, other.url(&location(&answer))).await;
    assert!(page.contains("ödemeyi şu anda işleyemedi"));
    assert_eq!(
        payments(&other, id).await[0].failure_reason.as_deref(),
        Some("iyzico 1001")
    );
}

#[tokio::test]
async fn forged_and_foreign_callbacks_and_other_amounts_change_nothing() {
    let iyzico = Iyzico::start(30_000);
    let server = server_for(&iyzico, &[]);
    let (a_browser, a) = approved_request(&server, "a@example.com", 24).await;
    let (b_browser, b) = approved_request(&server, "b@example.com", 25).await;
    let (_, a_payment) = open_challenge(&server, &a_browser, a, GOOD_CARD).await;
    let (b_public, b_payment) = open_challenge(&server, &b_browser, b, "4131 1111 1111 1117").await;
    let (url, a_fields) = iyzico.bank_step(&a_payment, "123456").await;
    let (_, b_fields) = iyzico.bank_step(&b_payment, "123456").await;

    let refused = |fields: Vec<(String, String)>| {
        let url = url.clone();
        async move { post_callback(&url, &fields).await.status().as_u16() }
    };
    // A signature made without iyzico's secret.
    assert_eq!(
        refused(with_field(&a_fields, "signature", &"0".repeat(64))).await,
        400
    );
    assert_eq!(refused(with_field(&a_fields, "signature", "")).await, 400);
    // B's failed 3-D Secure dressed up as passed, with its real signature.
    let dressed = with_field(&with_field(&b_fields, "mdStatus", "1"), "status", "success");
    assert_eq!(refused(dressed).await, 400);
    // A's genuine iyzico payment presented as B's (signed with the secret, so only our own
    // check between the payment and its conversation stops it).
    let foreign = with_field(&a_fields, "conversationId", &b_public);
    let signed = iyzico.sign(&foreign);
    assert_eq!(
        refused(with_field(&foreign, "signature", &signed)).await,
        400
    );
    // A payment iyzico knows but we never started.
    let unknown = with_field(&a_fields, "paymentId", "99999999");
    let signed = iyzico.sign(&unknown);
    assert_eq!(
        refused(with_field(&unknown, "signature", &signed)).await,
        400
    );
    assert_eq!(
        iyzico.payment(&a_payment).await["authCalls"],
        0,
        "nothing was charged"
    );
    let open: Vec<String> = payments(&server, a)
        .await
        .into_iter()
        .map(|p| p.status)
        .collect();
    assert_eq!(open, ["challenge"]);

    // The amount on our side differs from the one iyzico holds: iyzico's v2 auth refuses the
    // charge, and nothing counts.
    sqlx::query("UPDATE payments SET amount_kurus = amount_kurus - 100 WHERE request_id = ?")
        .bind(a)
        .execute(&server.db().await)
        .await
        .unwrap();
    let back = location(&post_callback(&url, &a_fields).await);
    assert_eq!(back, format!("/paymentFail?request={a}&reason=provider"));
    assert_eq!(
        iyzico.payment(&a_payment).await["status"],
        "CALLBACK_THREEDS",
        "not charged"
    );
    let b_back = location(&post_callback(&url, &b_fields).await);
    assert_eq!(b_back, format!("/paymentFail?request={b}&reason=three_ds"));
    assert!(!fee_paid(&server, a).await && !fee_paid(&server, b).await);
    assert_eq!(fee_mails(&server).await, 0);
    let out = server.output.lock().unwrap().join("\n");
    assert!(out.contains("payment callback refused: not signed by the provider"));
    assert!(out.contains("payment callback refused: not for a payment of ours"));
}

#[tokio::test]
async fn a_charge_whose_answer_times_out_is_resolved_by_retrieval() {
    let iyzico = Iyzico::start(4_000);
    let server = server_for(&iyzico, &[("ORTAK_IYZICO_TIMEOUT_SECONDS", "1")]);
    let (browser, id) = approved_request(&server, "zaman@example.com", 26).await;
    let (_, payment_id) = open_challenge(&server, &browser, id, "4111 1111 1111 9981").await;
    let (url, fields) = iyzico.bank_step(&payment_id, "123456").await;
    let back = location(&post_callback(&url, &fields).await);
    assert_eq!(
        back,
        format!("/invFlow?request={id}"),
        "paid, as retrieval showed"
    );
    assert!(fee_paid(&server, id).await);
    let out = server.output.lock().unwrap().join("\n");
    assert!(out.contains("payment provider gave no answer") && out.contains("retrieving it"));
    let log = iyzico.log().await;
    let paths: Vec<&str> = log
        .iter()
        .filter(|e| e["kind"] == "api")
        .map(|e| e["path"].as_str().unwrap())
        .collect();
    assert_eq!(
        paths,
        [
            "/payment/3dsecure/initialize",
            "/payment/v2/3dsecure/auth",
            "/payment/detail"
        ],
        "one charge, then a retrieval, never a second charge"
    );
}

#[tokio::test]
async fn a_charge_cut_off_by_a_crash_is_resolved_by_the_job_after_a_restart() {
    let iyzico = Iyzico::start(6_000);
    let clock = TempDir::new().unwrap();
    let clock_file = clock.path().join("offset");
    std::fs::write(&clock_file, "0").unwrap();
    let clock_env = clock_file.to_str().unwrap().to_owned();
    let server = server_for(&iyzico, &[("ORTAK_CLOCK_FILE", &clock_env)]);
    let (browser, id) = approved_request(&server, "cokme@example.com", 27).await;
    let (_, payment_id) = open_challenge(&server, &browser, id, "4111 1111 1111 9981").await;
    let (url, fields) = iyzico.bank_step(&payment_id, "123456").await;
    // The browser's callback asks for the charge; the server dies before the answer.
    let in_flight = tokio::spawn(async move {
        let _ = common::client().post(url).form(&fields).send().await;
    });
    eventually("iyzico took the money", || async {
        iyzico.payment(&payment_id).await["status"] == "SUCCESS"
    })
    .await;
    let data = server.kill();
    in_flight.abort();

    // Restarted later: the job finds the unanswered charge and asks iyzico what became of it.
    std::fs::write(&clock_file, "600").unwrap();
    let env = iyzico.env();
    let mut all: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    all.extend([
        ("ORTAK_CLOCK_FILE", clock_env.as_str()),
        ("ORTAK_JOBS_INTERVAL_SECONDS", "1"),
    ]);
    let server = Server::start_in(data, &all);
    eventually("the fee is recorded", || async {
        fee_paid(&server, id).await
    })
    .await;
    let rows = payments(&server, id).await;
    assert_eq!(
        (rows[0].status.as_str(), rows[0].charged),
        ("succeeded", true)
    );
    assert_eq!(
        iyzico.payment(&payment_id).await["authCalls"],
        1,
        "charged once"
    );
    assert_eq!(fee_mails(&server).await, 1);
}

#[tokio::test]
async fn the_job_refunds_fees_owed_back_once_and_leaves_refused_refunds_to_staff() {
    let iyzico = Iyzico::start(30_000);
    let server = server_for(&iyzico, &[("ORTAK_JOBS_INTERVAL_SECONDS", "1")]);
    let staff = staff(&server).await;

    // Paid, then cancelled by the investor: the job refunds the fee to the card, once.
    let (browser, id) = approved_request(&server, "iade@example.com", 28).await;
    let (_, payment_id) = open_challenge(&server, &browser, id, GOOD_CARD).await;
    let (url, fields) = iyzico.bank_step(&payment_id, "123456").await;
    post_callback(&url, &fields).await;
    assert!(fee_paid(&server, id).await);
    let token = common::journeys::csrf(&browser, &server, "/pendingInvestments").await;
    let cancel = server.url(&format!("/pendingInvestments/{id}/cancel"));
    assert_eq!(post_form(&browser, cancel, &token, &[]).await.status(), 303);
    eventually("the fee is refunded", || async {
        payments(&server, id).await[0].refund_status.as_deref() == Some("refunded")
    })
    .await;
    server.run_jobs().await;
    server.run_jobs().await;
    let refunds = iyzico.payment(&payment_id).await["refunds"].clone();
    assert_eq!(refunds.as_array().unwrap().len(), 1, "{refunds}");
    assert_eq!(refunds[0]["price"], "10000");
    let log = iyzico.log().await;
    let refund = log
        .iter()
        .find(|e| e["path"] == "/v2/payment/refund")
        .unwrap();
    assert_eq!(refund["signature"], "verified");
    assert_eq!(refund["request"]["paymentId"], payment_id.as_str());

    // A card iyzico will not refund: staff see the refusal and may try again.
    let (browser, id) = approved_request(&server, "inat@example.com", 29).await;
    let (_, payment_id) = open_challenge(&server, &browser, id, "5406 6700 0000 0009").await;
    let (url, fields) = iyzico.bank_step(&payment_id, "123456").await;
    post_callback(&url, &fields).await;
    assert_eq!(move_request(&server, &staff, id, "rejected").await, 303);
    eventually("the refund is refused", || async {
        payments(&server, id).await[0].refund_status.as_deref() == Some("failed")
    })
    .await;
    let page = common::text(&staff, server.url(&format!("/dashboard/investments/{id}"))).await;
    assert!(
        page.contains("iade: reddedildi") && page.contains("10012"),
        "{page}"
    );
    let form = format!("action=\"/dashboard/investments/{id}/refund\"");
    assert!(page.contains(&form), "a refund button");
    let retried = post_form(
        &staff,
        server.url(&format!("/dashboard/investments/{id}/refund")),
        &csrf_of(&page),
        &[("payment", payments(&server, id).await[0].public_id.clone())],
    )
    .await;
    assert_eq!(retried.status(), 303);
    let page = common::text(&staff, server.url(&location(&retried))).await;
    assert!(page.contains("iadeyi reddetti"), "{page}");
}

#[tokio::test]
async fn staff_refund_a_fee_owed_back_once_and_nothing_else() {
    let iyzico = Iyzico::start(30_000);
    let server = server_for(&iyzico, &[("ORTAK_JOBS_INTERVAL_SECONDS", "3600")]);
    let staff = staff(&server).await;
    let (browser, id) = approved_request(&server, "personel@example.com", 30).await;
    let (public_id, payment_id) = open_challenge(&server, &browser, id, GOOD_CARD).await;
    let (url, fields) = iyzico.bank_step(&payment_id, "123456").await;
    post_callback(&url, &fields).await;
    let refund = |staff: reqwest::Client, public_id: String| {
        let server = &server;
        async move {
            let token = common::journeys::csrf(&staff, server, "/newsletter").await;
            post_form(
                &staff,
                server.url(&format!("/dashboard/investments/{id}/refund")),
                &token,
                &[("payment", public_id)],
            )
            .await
            .status()
            .as_u16()
        }
    };
    // A live request's fee is not refunded: it is still owed to the round.
    assert_eq!(refund(staff.clone(), public_id.clone()).await, 409);
    assert_eq!(move_request(&server, &staff, id, "rejected").await, 303);
    assert_eq!(refund(staff.clone(), public_id.clone()).await, 303);
    assert_eq!(
        refund(staff.clone(), public_id.clone()).await,
        409,
        "refunded once"
    );
    let at_iyzico = iyzico.payment(&payment_id).await;
    assert_eq!(at_iyzico["refunds"].as_array().unwrap().len(), 1);
    let audit: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM audit_log WHERE action = 'payment.refund'")
            .fetch_one(&server.db().await)
            .await
            .unwrap();
    assert_eq!(audit, 1);
    let page = common::text(&staff, server.url(&format!("/dashboard/investments/{id}"))).await;
    assert!(
        page.contains("iade: iade edildi")
            && !page.contains(&format!("/dashboard/investments/{id}/refund"))
    );
}

#[tokio::test]
async fn a_refund_whose_answer_was_lost_is_read_back_from_iyzico_and_recorded_once() {
    let iyzico = Iyzico::start(4_000);
    let clock = TempDir::new().unwrap();
    let clock_file = clock.path().join("offset");
    std::fs::write(&clock_file, "0").unwrap();
    let clock_env = clock_file.to_str().unwrap().to_owned();
    let server = server_for(
        &iyzico,
        &[
            ("ORTAK_CLOCK_FILE", &clock_env),
            ("ORTAK_JOBS_INTERVAL_SECONDS", "1"),
            ("ORTAK_IYZICO_TIMEOUT_SECONDS", "1"),
        ],
    );
    let (browser, id) = approved_request(&server, "kayip@example.com", 31).await;
    let (_, payment_id) = open_challenge(&server, &browser, id, GOOD_CARD).await;
    let (url, fields) = iyzico.bank_step(&payment_id, "123456").await;
    post_callback(&url, &fields).await;
    assert!(fee_paid(&server, id).await);

    // iyzico refunds the fee, but its answer never reaches us: the refund stays asked for.
    iyzico.lose_refund_answers(1).await;
    let token = common::journeys::csrf(&browser, &server, "/pendingInvestments").await;
    let cancel = server.url(&format!("/pendingInvestments/{id}/cancel"));
    assert_eq!(post_form(&browser, cancel, &token, &[]).await.status(), 303);
    eventually("iyzico refunded", || async {
        !iyzico.payment(&payment_id).await["refunds"]
            .as_array()
            .unwrap()
            .is_empty()
    })
    .await;
    server.run_jobs().await;
    server.run_jobs().await;
    assert_eq!(
        payments(&server, id).await[0].refund_status.as_deref(),
        Some("refunding"),
        "an unknown outcome is neither refunded nor failed"
    );

    // Ten minutes on, the job reads iyzico's report instead of refunding blind.
    std::fs::write(&clock_file, "700").unwrap();
    eventually("the refund is recorded", || async {
        payments(&server, id).await[0].refund_status.as_deref() == Some("refunded")
    })
    .await;
    let refunds = iyzico.payment(&payment_id).await["refunds"].clone();
    assert_eq!(
        refunds.as_array().unwrap().len(),
        1,
        "refunded once: {refunds}"
    );
    let log = iyzico.log().await;
    let report = log
        .iter()
        .find(|e| e["path"] == "/v2/reporting/payment/details")
        .expect("the job asked iyzico's reporting service");
    assert_eq!(report["signature"], "verified");
    assert_eq!(
        log.iter()
            .filter(|e| e["path"] == "/v2/payment/refund")
            .count(),
        1,
        "no second refund was asked for"
    );
    let db = server.db().await;
    let (kind_count, reference): (i64, String) = sqlx::query_as(
        "SELECT COUNT(*), MAX(reference) FROM money_events
         WHERE request_id = ? AND kind = 'fee_refunded'",
    )
    .bind(id)
    .fetch_one(&db)
    .await
    .unwrap();
    assert_eq!(kind_count, 1, "the ledger records the fee refunded once");
    assert_eq!(reference, refunds[0]["hostReference"].as_str().unwrap());
}
