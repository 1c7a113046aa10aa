//! The startups catalogue: filters, Turkish collation, pagination, detail, favourites.

use crate::common;

use common::journeys::{csrf, post_form, sign_up};
use common::{Server, client, h1_of};

/// Startup names shown on a list page, in order (cards in a `hidden` wrapper left out).
fn names(html: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut hidden = false;
    for (i, part) in html.split("<article ").enumerate() {
        let tag = part.split('>').next().unwrap_or("");
        if i > 0 && !hidden && tag.contains("startup-card") {
            let rest = tag.split("data-name=\"").nth(1).unwrap();
            names.push(rest[..rest.find('"').unwrap()].replace("&amp;", "&"));
        }
        // The wrapper right before the next card decides whether that card shows.
        let wrapper = part
            .rsplit("<div ")
            .next()
            .unwrap_or("")
            .split('>')
            .next()
            .unwrap_or("");
        hidden = wrapper.contains("favorite-item")
            && wrapper
                .split_whitespace()
                .any(|w| w == "hidden" || w.starts_with("hidden="));
    }
    names
}

fn position(names: &[String], name: &str) -> usize {
    names
        .iter()
        .position(|n| n == name)
        .unwrap_or_else(|| panic!("{name} not in {names:?}"))
}

async fn all_names(server: &Server, query: &str) -> Vec<String> {
    let mut all = Vec::new();
    for page in 1..=5 {
        let (_, html) = server.get(&format!("/startups?{query}&page={page}")).await;
        let found = names(&html);
        if found.is_empty() {
            break;
        }
        all.extend(found);
    }
    all
}

#[tokio::test]
async fn visitors_browse_filter_and_sort_but_must_sign_in_for_details() {
    let server = Server::start();
    let (status, html) = server.get("/startups").await;
    assert_eq!(status, 200);
    assert!(html.contains("26 girişim"));
    assert_eq!(names(&html).len(), 12, "a page holds twelve");
    assert!(
        !html.contains("favorite-toggle"),
        "visitors keep no favourites"
    );
    assert!(html.contains("Girişimlerin ayrıntılarını görmek için üye olun"));

    let detail = client()
        .get(server.url("/startups/cemre-enerji"))
        .send()
        .await
        .unwrap();
    assert_eq!(detail.status(), 303);
    assert_eq!(
        detail.headers()["location"],
        "/signin?next=/startups/cemre-enerji"
    );

    // Turkish alphabetical order: C < Ç, I < İ; English folds them to their base letters.
    let tr = all_names(&server, "sort=a-z").await;
    assert_eq!(tr.len(), 26);
    assert!(position(&tr, "Cemre Enerji") < position(&tr, "Çiçek Tarım"));
    assert!(position(&tr, "Çiçek Tarım") < position(&tr, "Dalga İletişim"));
    assert!(position(&tr, "Irmak Su Teknolojileri") < position(&tr, "İnci Sağlık"));
    assert!(position(&tr, "Ödeme Köprüsü") > position(&tr, "Otopark Akıl"));
    let za = all_names(&server, "sort=z-a").await;
    assert_eq!(za.iter().rev().cloned().collect::<Vec<_>>(), tr);
    let en = all_names(&server, "sort=a-z&lang=en").await;
    assert!(
        position(&en, "İnci Sağlık") < position(&en, "Irmak Su Teknolojileri"),
        "English: inci < irmak"
    );

    // Filters, alone and together; the count follows.
    let (_, fintech) = server.get("/startups?sector=fintech").await;
    assert!(fintech.contains("3 girişim"), "three fintech startups");
    let (_, big) = server.get("/startups?goal=gte-6m").await;
    assert_eq!(names(&big).len(), 3, "{:?}", names(&big));
    let (_, nearly) = server
        .get("/startups?completion=gte-75&sector=agriculture")
        .await;
    assert_eq!(names(&nearly), ["Toprak Analitik", "Çiçek Tarım"]);
    // Investor counts come from the ledger (money in escrow, at least 100.000 TL each): only
    // the 6.000.000 TL round has fifty or more investors.
    let (_, crowd) = server.get("/startups?investors=gte-50").await;
    assert_eq!(names(&crowd), ["Rüzgar Gülü"]);
    let (_, izmir) = server.get("/startups?city=%C4%B0zmir").await;
    assert_eq!(names(&izmir).len(), 3);
    let (_, fund) = server.get("/startups?fund=marmara-capital&sort=a-z").await;
    assert_eq!(
        names(&fund),
        [
            "Ağ Kurdu",
            "Dalga İletişim",
            "Güvenli Kimlik",
            "Kalkan Siber",
            "Uydu Bağ",
            "Veri Kalesi"
        ]
    );
    let (_, none) = server.get("/startups?sector=fintech&city=Bursa").await;
    assert!(none.contains("Bu filtrelere uyan girişim yok."));
    let (_, junk) = server
        .get("/startups?sector=%3Cscript%3E&goal=nope&page=999")
        .await;
    assert!(!junk.contains("<script>"));

    // Pagination keeps the filters in its links; the third page holds the rest.
    let (_, page3) = server.get("/startups?sort=a-z&page=3").await;
    assert_eq!(names(&page3).len(), 2);
    let (_, page1) = server.get("/startups?sector=energy&sort=z-a").await;
    assert!(
        page1.contains("<option value=\"energy\" selected"),
        "the form shows the applied filters"
    );
    assert!(
        page1.contains("href=\"/startups?sort=z-a\""),
        "clean keeps the sort"
    );
}

#[tokio::test]
async fn members_open_startups_and_keep_favourites() {
    let server = Server::start();
    let browser = sign_up(&server, "yatirimci@example.com").await;

    let page = common::text(&browser, server.url("/startups/cemre-enerji")).await;
    assert_eq!(h1_of(&page), "Cemre Enerji");
    for section in [
        "Yönetici özeti",
        "Hızlı bakış",
        "Yatırım koşulları",
        "Riskler",
        "Yasal uyarı",
        "Kurucular",
    ] {
        assert!(page.contains(section), "{section}");
    }
    assert!(
        page.contains("href=\"/investmentFlow?startup=cemre-enerji\"")
            && page.contains(">Yatırım yap</a>")
    );
    let pre = common::text(&browser, server.url("/startups/rota-mobilite")).await;
    assert!(pre.contains("Ön yatırım talebi gönder"));
    let funded = common::text(&browser, server.url("/startups/zeytin-finans")).await;
    assert!(
        funded.contains("Bu girişim şu anda yatırıma açık değil.") && funded.contains("Fonlandı")
    );
    let english = common::text(&browser, server.url("/startups/cemre-enerji?lang=en")).await;
    assert!(
        english.contains("Executive summary") && english.contains("AI-driven yield management")
    );
    assert_eq!(
        browser
            .get(server.url("/startups/yok-boyle"))
            .send()
            .await
            .unwrap()
            .status(),
        404
    );

    let empty = common::text(&browser, server.url("/favorites?lang=tr")).await;
    assert!(empty.contains("Favori listeniz boş"));

    let token = csrf(&browser, &server, "/startups").await;
    for slug in ["cicek-tarim", "zeytin-finans", "inci-saglik"] {
        let saved = post_form(
            &browser,
            server.url(&format!("/favorites/{slug}")),
            &token,
            &[
                ("favorite", "1".into()),
                ("return", "/startups?sort=a-z".into()),
            ],
        )
        .await;
        assert_eq!(saved.status(), 303);
        assert_eq!(saved.headers()["location"], "/startups?sort=a-z");
    }
    // Saving twice keeps one.
    post_form(
        &browser,
        server.url("/favorites/cicek-tarim"),
        &token,
        &[("favorite", "1".into()), ("return", "/".into())],
    )
    .await;
    let list = common::text(&browser, server.url("/favorites")).await;
    assert_eq!(names(&list).len(), 3);

    // Search follows Turkish case rules; the status filter works, also from the query.
    let search = common::text(&browser, server.url("/favorites?q=%C3%87%C4%B0%C3%87EK")).await;
    assert_eq!(names(&search), ["Çiçek Tarım"]);
    let funded = common::text(&browser, server.url("/favorites?status=funded")).await;
    assert_eq!(names(&funded), ["Zeytin Finans"]);
    let nothing = common::text(&browser, server.url("/favorites?q=yok")).await;
    assert!(nothing.contains("Bu aramaya uyan kayıtlı girişim yok."));

    let removed = post_form(
        &browser,
        server.url("/favorites/zeytin-finans"),
        &token,
        &[("favorite", "0".into()), ("return", "/favorites".into())],
    )
    .await;
    assert_eq!(removed.status(), 303);
    let list = common::text(&browser, server.url("/favorites")).await;
    assert!(list.contains("Girişim kaydedilenlerden çıkarıldı."));
    assert_eq!(names(&list).len(), 2);

    // Visitors cannot keep favourites.
    assert_eq!(
        client()
            .get(server.url("/favorites"))
            .send()
            .await
            .unwrap()
            .status(),
        303
    );
}
