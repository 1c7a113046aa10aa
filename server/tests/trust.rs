//! Trust (issue 28): the operator is named on every page and as the KVKK notices' data
//! controller, and anyone can reach it; staff's irreversible actions are confirmed with their
//! effect in figures; a closed round tells its outcome; the money an investor sends to escrow
//! meets the minimum; the portfolio shows money in escrow.

use crate::common;

use common::{Server, client};
use tempfile::TempDir;

#[tokio::test]
async fn every_page_names_the_operator_and_the_kvkk_notice_its_data_controller() {
    let server = Server::start_in(
        TempDir::new().unwrap(),
        &[
            ("ORTAK_DEMO", "1"),
            ("ORTAK_OPERATOR_NAME", "Deneme Fonlama Platformu A.Ş."),
            ("ORTAK_OPERATOR_MERSIS", "0987654321000017"),
            ("ORTAK_OPERATOR_SPK_DECISION_DATE", "2025-07-04"),
            ("ORTAK_OPERATOR_SPK_DECISION_NUMBER", "38/1102"),
            ("ORTAK_OPERATOR_KEP", "deneme@hs02.kep.tr"),
        ],
    );
    let visitor = client();
    for path in ["/", "/faq", "/signin", "/startups"] {
        let page = common::text(&visitor, server.url(path)).await;
        assert!(
            page.contains("Deneme Fonlama Platformu A.Ş.")
                && page.contains("MERSİS 0987654321000017")
                && page.contains("04.07.2025 tarih ve 38/1102 sayılı kararıyla")
                && page.contains("href=\"/about\""),
            "the footer of {path} names the operator"
        );
    }
    let about = common::text(&visitor, server.url("/about")).await;
    for fact in [
        "Hakkımızda ve iletişim",
        "Deneme Fonlama Platformu A.Ş.",
        "0987654321000017",
        "deneme@hs02.kep.tr",
        "href=\"tel:+902125550100\"",
        "href=\"/contactUs\"",
    ] {
        assert!(about.contains(fact), "/about shows {fact}");
    }
    let kvkk = common::text(
        &visitor,
        server.url("/politikalar/kvkk-genel-aydinlatma-metni"),
    )
    .await;
    let controller = &kvkk[kvkk
        .find("Veri sorumlusunun kimliği")
        .expect("a data controller box")..];
    assert!(
        controller.contains("Deneme Fonlama Platformu A.Ş.")
            && controller.contains("deneme@hs02.kep.tr")
    );
    // In English too (the visitor's language sticks from here).
    let en = common::text(&visitor, server.url("/?lang=en")).await;
    assert!(en.contains("by its decision 38/1102 of 04/07/2025"));
}

#[tokio::test]
async fn what_goes_to_escrow_meets_the_minimum_and_the_fee_step_says_it_comes_back() {
    use common::journeys::{ADMIN_PASSWORD, create_admin, post_form, sign_in};
    use common::money::{
        open_information_form, qualified_investor, request_of, send_request, staff_move,
    };
    let data = TempDir::new().unwrap();
    create_admin(&data, "super@example.com", true);
    let server = Server::start_in(data, &[("ORTAK_DEMO", "1")]);
    let (browser, token) = qualified_investor(&server, "emanet@example.com", 401).await;
    open_information_form(&server, &browser, "cemre-enerji").await;
    let fields = |amount: &str, key: &str| {
        vec![
            ("startup", "cemre-enerji".to_owned()),
            ("amount", amount.to_owned()),
            ("risk", "on".into()),
            ("idempotency_key", key.to_owned()),
        ]
    };
    // 100.000 TL with the fee taken out would send 97.500 TL to escrow: refused, as typed.
    let short = post_form(
        &browser,
        server.url("/investmentFlow"),
        &token,
        &fields("100.000", "e-1"),
    )
    .await;
    assert_eq!(short.status(), 422);
    let html = short.text().await.unwrap();
    assert!(
        html.contains("Emanete giden tutar en az 100.000 TL olmalı")
            && html.contains("value=\"100.000\"")
    );
    let api = browser
        .post(server.url("/api/investmentRequests"))
        .header("x-csrf-token", token.as_str())
        .json(&serde_json::json!({"startup": "cemre-enerji", "amount": "100.000", "feeAdded": false, "risk": true, "idempotencyKey": "e-2"}))
        .send()
        .await
        .unwrap();
    assert_eq!(api.status(), 422);
    let stored = "SELECT COUNT(*) FROM investment_requests r JOIN users u ON u.id = r.user_id WHERE u.email = 'emanet@example.com'";
    assert_eq!(common::scalar(&server, stored).await, 0);
    // Nor can anything write one below the minimum into the database.
    let forced = sqlx::query(
        "INSERT INTO investment_requests (user_id, startup_id, kind, amount_kurus, fee_kurus,
             fee_added, investment_kurus, total_kurus, risk_accepted_at, idempotency_key,
             cancel_until, information_form_id)
         SELECT u.id, s.id, 'investment', 10000000, 250000, 0, 9750000, 10000000,
             '2026-11-01T00:00:00Z', 'zorla', '2026-11-03T00:00:00Z',
             (SELECT MAX(d.id) FROM round_documents d WHERE d.startup_id = s.id AND d.kind = 'information-form')
         FROM users u, startups s WHERE u.email = 'emanet@example.com' AND s.slug = 'cemre-enerji'",
    )
    .execute(&server.db().await)
    .await;
    assert!(
        forced
            .unwrap_err()
            .to_string()
            .contains("below the minimum")
    );
    // 102.565 TL with the fee taken out leaves the minimum in escrow: accepted, and the pending
    // card shows the escrow amount and the fee apart.
    let enough = post_form(
        &browser,
        server.url("/investmentFlow"),
        &token,
        &fields("102.565", "e-3"),
    )
    .await;
    assert_eq!(enough.status(), 303);
    let card = common::text(&browser, server.url("/pendingInvestments")).await;
    assert!(
        card.contains("data-field=\"investment\">100.000,88 TL")
            || card.contains("data-field=\"investment\">100.000,87 TL"),
        "{card}"
    );
    assert!(card.contains("data-field=\"fee\">2.564,1"));

    // The fee step says when the fee comes back, and the button says what is paid.
    let staff = sign_in(&server, "super@example.com", ADMIN_PASSWORD).await;
    send_request(&server, &browser, &token, "cemre-enerji", "200.000", "e-4").await;
    let id = request_of(&server, "emanet@example.com").await;
    assert_eq!(staff_move(&server, &staff, id, "approved", "").await, 303);
    let step = common::text(&browser, server.url(&format!("/invFlow?request={id}"))).await;
    assert!(step.contains("hizmet bedeli kartınıza eksiksiz iade edilir"));
    assert!(step.contains("5.000 TL öde"));
}

#[tokio::test]
async fn a_closed_round_shows_its_outcome_and_the_money_it_held() {
    use common::journeys::{ADMIN_PASSWORD, create_admin, sign_in};
    use common::money::{end_round_early, fund, qualified_investor, request_of, send_request};
    let data = TempDir::new().unwrap();
    create_admin(&data, "super@example.com", true);
    let server = Server::start_in(data, &[("ORTAK_DEMO", "1")]);
    let staff = sign_in(&server, "super@example.com", ADMIN_PASSWORD).await;
    let id = common::scalar(
        &server,
        "SELECT id FROM startups WHERE slug = 'kalkan-siber'",
    )
    .await;
    let (a, ta) = qualified_investor(&server, "kapanis@example.com", 402).await;
    send_request(&server, &a, &ta, "kalkan-siber", "400.000", "k-1").await;
    let ra = request_of(&server, "kapanis@example.com").await;
    fund(&server, &a, &staff, ra, "400.000").await;
    let held = common::scalar(
        &server,
        &format!("SELECT raised_kurus FROM startups WHERE id = {id}"),
    )
    .await;
    let investors = common::scalar(
        &server,
        &format!("SELECT investor_count FROM startups WHERE id = {id}"),
    )
    .await;
    assert_eq!(
        end_round_early(&server, &staff, id, "terminate")
            .await
            .status(),
        303
    );
    let failed = common::money::wait_for_count(
        &server,
        &format!("SELECT COUNT(*) FROM startups WHERE id = {id} AND round_status = 'failed' AND closed_at IS NOT NULL"),
        1,
    )
    .await;
    assert_eq!(failed, 1);
    // The ledger is empty again, but the page says what escrow held and when it went back, and
    // counts no days down.
    let held_text =
        ortak_app::domain::money::Money::from_kurus(held).format(ortak_app::i18n::Locale::Tr);
    let page = common::text(&a, server.url("/startups/kalkan-siber")).await;
    assert!(
        page.contains(&held_text) && page.contains("tamamı iade edildi"),
        "{page}"
    );
    assert!(page.contains("emanetteki tutarlar iade edildi") && !page.contains("gün kaldı"));
    let round = common::text(&staff, server.url(&format!("/dashboard/rounds/{id}"))).await;
    assert!(
        round.contains(&format!(
            "{investors} yatırımcının emanetteki {held_text} tutarı iade edildi"
        )),
        "{round}"
    );
    assert!(round.contains("Bu tur başarısız kapandı"));
    // The track record counts it, with the money it held.
    let record = common::text(&client(), server.url("/track-record")).await;
    assert!(record.contains("Kalkan Siber") && record.contains(&held_text));
    // The investor's pending page moves the refunded request to its history.
    let pending = common::text(&a, server.url("/pendingInvestments")).await;
    let history = &pending[pending.find("Sona eren talepler").expect("a history")..];
    assert!(history.contains("Kalkan Siber"));
}

#[tokio::test]
async fn the_limit_is_explained_before_joining_and_money_in_escrow_is_in_the_portfolio() {
    use common::journeys::{ADMIN_PASSWORD, create_admin, sign_in};
    use common::money::{fund, investor, qualified_investor, request_of, send_request};
    let data = TempDir::new().unwrap();
    create_admin(&data, "super@example.com", true);
    let server = Server::start_in(data, &[("ORTAK_DEMO", "1")]);
    let visitor = client();
    let limits = common::text(&visitor, server.url("/limits")).await;
    assert!(limits.contains("en fazla 50.000 TL") && limits.contains("en az 1.000.000 TL"));
    let calc = common::text(&visitor, server.url("/limits?income=600.000")).await;
    assert!(calc.contains("yıllık sınırınız 60.000 TL") && calc.contains("value=\"600.000\""));
    let calc = common::text(&visitor, server.url("/limits?income=2.000.000")).await;
    assert!(calc.contains("yıllık sınırınız 200.000 TL: en düşük tutarla"));
    let bad = visitor
        .get(server.url("/limits?income=çok"))
        .send()
        .await
        .unwrap();
    assert_eq!(bad.status(), 422);
    let home = common::text(&visitor, server.url("/")).await;
    assert!(home.contains("href=\"/limits\""));

    // An individual whose limit is below the minimum is offered both ways on, and the way
    // back to the startup.
    let (capped, _) = investor(&server, "sinirli@example.com", 403, "600.000").await;
    let page = common::text(&capped, server.url("/investmentFlow?startup=cemre-enerji")).await;
    assert!(
        page.contains("href=\"/qualifiedInvestor\"")
            && page.contains("Beyan ettiğim geliri güncelle")
    );
    assert!(
        page.contains("en az 1.000.000 TL") && page.contains("href=\"/startups/cemre-enerji\"")
    );
    // A capped investor's quick picks stop at the limit.
    let (mid, _) = investor(&server, "orta@example.com", 404, "2.000.000").await;
    let page = common::text(&mid, server.url("/investmentFlow?startup=cemre-enerji")).await;
    assert!(page.contains("value=\"100000\"") && !page.contains("value=\"250000\""));

    // Money in escrow is in the portfolio, not "no investments".
    let staff = sign_in(&server, "super@example.com", ADMIN_PASSWORD).await;
    let (a, ta) = qualified_investor(&server, "portfoy@example.com", 405).await;
    send_request(&server, &a, &ta, "cemre-enerji", "300.000", "p-1").await;
    let id = request_of(&server, "portfoy@example.com").await;
    fund(&server, &a, &staff, id, "300.000").await;
    let mine = common::text(&a, server.url("/userInvestments")).await;
    assert!(
        mine.contains("Emanette: 300.000 TL") && !mine.contains("Henüz yatırımınız yok"),
        "{mine}"
    );
    let overview = common::text(&a, server.url("/overview")).await;
    assert!(overview.contains("data-field=\"escrow\""));
}
