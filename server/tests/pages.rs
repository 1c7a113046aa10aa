//! Public pages in both languages, the locale rules, layout landmarks, SEO tags and errors.

use crate::common;

use std::collections::BTreeSet;

use common::{Server, client, h1_of};

const POLICIES: [&str; 9] = [
    "degerlendirme-politikasi",
    "genel-risk-bildirimi",
    "cikar-catismasi",
    "bilgi-guvenligi",
    "kvkk-genel-aydinlatma-metni",
    "cerez-politikasi",
    "uyelik-sozlesmesi",
    "kitle-fonlamasi",
    "uye-elektronik-ticaret",
];

#[tokio::test]
async fn home_is_turkish_by_default_and_english_on_request() {
    let server = Server::start();
    let (status, html) = server.get("/").await;
    assert_eq!(status, 200);
    assert!(html.starts_with("<!DOCTYPE html><html lang=\"tr\">"));
    assert_eq!(
        h1_of(&html),
        "Fonların onayladığı girişimlere birlikte yatırım yapın"
    );
    for fact in [
        "150-200",
        "20-30",
        "2-3",
        "1-6 milyon TL",
        "45-60 gün",
        "100.000 TL",
        "href=\"/gsyf\"",
    ] {
        assert!(html.contains(fact), "home lacks {fact}");
    }
    assert!(!html.contains("<!>"), "no hydration markers");

    let response = client()
        .get(server.url("/"))
        .header("accept-language", "en-US,en;q=0.9,tr;q=0.5")
        .send()
        .await
        .unwrap();
    let html = response.text().await.unwrap();
    assert!(html.contains("<html lang=\"en\">"));
    assert_eq!(
        h1_of(&html),
        "Co-invest in startups that venture funds have approved"
    );
    assert!(html.contains("100,000 TL"));
}

#[tokio::test]
async fn language_toggle_sets_a_year_long_cookie_that_later_pages_follow() {
    let server = Server::start();
    let browser = client();
    let html = common::text(&browser, server.url("/faq")).await;
    assert!(
        html.contains("href=\"/faq?lang=en\""),
        "toggle links to the same page in English"
    );

    let response = browser
        .get(server.url("/faq?lang=en"))
        .send()
        .await
        .unwrap();
    let cookie = response
        .headers()
        .get_all("set-cookie")
        .iter()
        .map(|v| v.to_str().unwrap().to_owned())
        .find(|c| c.starts_with("locale="))
        .expect("locale cookie set");
    assert!(cookie.starts_with("locale=en;"), "{cookie}");
    assert!(cookie.contains("Max-Age=31536000"), "{cookie}");
    assert!(cookie.contains("Path=/"), "{cookie}");
    let html = response.text().await.unwrap();
    assert!(html.contains("<html lang=\"en\">"));
    assert!(html.contains("class=\"lang-toggle\">TR</a>") || html.contains(">TR</a>"));

    // Without the query parameter the cookie decides, even against Accept-Language.
    let html = browser
        .get(server.url("/blog"))
        .header("accept-language", "tr")
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(html.contains("<html lang=\"en\">"));

    browser.get(server.url("/?lang=tr")).send().await.unwrap();
    let html = common::text(&browser, server.url("/blog")).await;
    assert!(html.contains("<html lang=\"tr\">"));
}

#[tokio::test]
async fn every_public_page_opens_in_both_languages_with_seo_tags() {
    let server = Server::start();
    let (_, blog) = server.get("/blog").await;
    let first_post = blog
        .split("href=\"/blog/")
        .nth(1)
        .map(|rest| format!("/blog/{}", &rest[..rest.find('"').unwrap()]))
        .expect("the demo has blog posts");
    let mut paths: Vec<String> = POLICIES
        .iter()
        .map(|p| format!("/politikalar/{p}"))
        .collect();
    paths.extend(["/faq", "/blog", "/techinvestor", "/newsletter", "/"].map(String::from));
    paths.push(first_post);

    for path in &paths {
        let mut titles = Vec::new();
        for lang in ["tr", "en"] {
            let (status, html) = server.get(&format!("{path}?lang={lang}")).await;
            assert_eq!(status, 200, "{path} {lang}");
            assert!(
                html.contains(&format!("<html lang=\"{lang}\">")),
                "{path} {lang}"
            );
            let h1 = h1_of(&html);
            assert!(!h1.trim().is_empty(), "{path} {lang} has an empty h1");
            titles.push(h1);
            assert!(
                html.contains("<meta name=\"description\" content=\""),
                "{path}"
            );
            assert!(
                html.contains(&format!(
                    "<link rel=\"canonical\" href=\"{}{path}",
                    server.base
                )),
                "{path}"
            );
            assert!(html.contains("hreflang=\"tr\""), "{path}");
            assert!(html.contains("hreflang=\"en\""), "{path}");
            assert!(html.contains("<meta property=\"og:title\""), "{path}");
            assert!(!html.contains("<script>"), "{path} has an inline script");
        }
        if path != "/blog" {
            // "Blog" is the same word in both languages.
            assert_ne!(titles[0], titles[1], "{path} is not translated");
        }
    }

    let (_, policy) = server.get("/politikalar/cerez-politikasi").await;
    assert!(policy.contains("<h2>"), "policy body is rendered Markdown");
    assert!(
        policy.contains("aria-current=\"page\""),
        "policy sidebar marks the current page"
    );
    let (_, faq) = server.get("/faq").await;
    for topic in ["MKK", "nitelikli", "yabancı", "100.000"] {
        assert!(
            faq.to_lowercase().contains(&topic.to_lowercase()),
            "FAQ lacks {topic}"
        );
    }
}

#[tokio::test]
async fn header_and_footer_follow_the_layout_rules() {
    let server = Server::start();
    let (_, home) = server.get("/").await;
    assert!(home.contains("<header class=\"site-header\">"));
    assert!(home.contains("<footer class=\"site-footer\">"));
    assert!(
        home.contains("href=\"/startups\" class=\"button button--primary\""),
        "footer CTA"
    );
    let (_, tech) = server.get("/techinvestor").await;
    assert!(
        !tech.contains("<header class=\"site-header\">"),
        "/techinvestor has no header"
    );
    assert!(tech.contains("<footer class=\"site-footer\">"));
    for policy in POLICIES {
        assert!(
            home.contains(&format!("href=\"/politikalar/{policy}\"")),
            "footer links {policy}"
        );
    }
    assert!(
        home.contains("href=\"/academy\""),
        "the academy is reachable"
    );
    assert!(home.contains("class=\"nav-menu\""), "phones get the menu");
}

#[tokio::test]
async fn a_visitor_opening_a_startup_is_told_why_to_join() {
    let server = Server::start();
    let (_, signin) = server.get("/signin?next=/startups/cemre-enerji").await;
    assert!(signin.contains("Girişim ayrıntılarını yalnızca üyeler görebilir"));
    // Joining from there comes back to the startup once the address is verified.
    assert!(signin.contains("href=\"/signup?next=/startups/cemre-enerji\">Ücretsiz üye olun"));
    let (_, plain) = server.get("/signin").await;
    assert!(!plain.contains("Girişim ayrıntılarını yalnızca üyeler görebilir"));
}

#[tokio::test]
async fn unknown_paths_get_the_localized_not_found_page() {
    let server = Server::start();
    for path in [
        "/no-such-page",
        "/politikalar/yok",
        "/blog/yok",
        "/assets/missing.js",
    ] {
        let (status, html) = server.get(path).await;
        assert_eq!(status, 404, "{path}");
        assert_eq!(h1_of(&html), "Sayfa Bulunamadı", "{path}");
        assert!(html.contains("<a href=\"/\" class=\"button button--primary\">"));
        assert!(html.contains("name=\"robots\" content=\"noindex\""));
    }
    let (status, html) = server.get("/no-such-page?lang=en").await;
    assert_eq!(status, 404);
    assert_eq!(h1_of(&html), "Page Not Found");
}

#[tokio::test]
async fn sitemap_robots_health_and_security_headers() {
    let server = Server::start();
    let (status, sitemap) = server.get("/sitemap.xml").await;
    assert_eq!(status, 200);
    for policy in POLICIES {
        assert!(sitemap.contains(&format!("{}/politikalar/{policy}?lang=en", server.base)));
    }
    assert!(sitemap.contains("hreflang=\"tr\""));
    assert!(sitemap.contains("/blog/"));
    let (_, robots) = server.get("/robots.txt").await;
    assert!(robots.contains(&format!("Sitemap: {}/sitemap.xml", server.base)));
    assert_eq!(server.get("/healthz").await.0, 200);

    let response = client().get(server.url("/")).send().await.unwrap();
    let h = response.headers();
    let csp = h.get("content-security-policy").unwrap().to_str().unwrap();
    assert!(csp.contains("script-src 'self'") && csp.contains("frame-ancestors 'none'"));
    assert_eq!(h.get("x-content-type-options").unwrap(), "nosniff");
    assert!(h.get("referrer-policy").is_some());
    assert!(h.get("x-request-id").is_some());
    assert!(
        h.get("strict-transport-security").is_none(),
        "no HSTS over plain HTTP"
    );
}

#[tokio::test]
async fn built_assets_are_hashed_compressed_and_cached() {
    let server = Server::start();
    let (_, html) = server.get("/newsletter").await;
    let css = html.split("rel=\"stylesheet\" href=\"").nth(1).unwrap();
    let css = &css[..css.find('"').unwrap()];
    let js = html.split("<script type=\"module\" src=\"").nth(1).unwrap();
    let js = &js[..js.find('"').unwrap()];
    assert!(
        css.starts_with("/assets/main-") && css.ends_with(".css"),
        "{css}"
    );
    assert!(
        js.starts_with("/assets/islands/newsletter-") && js.ends_with(".js"),
        "{js}"
    );
    for (path, encoding) in [(css, "br"), (js, "br"), (js, "gzip")] {
        let response = client()
            .get(server.url(path))
            .header("accept-encoding", encoding)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 200);
        assert_eq!(response.headers()["content-encoding"], encoding);
        assert!(
            response.headers()["cache-control"]
                .to_str()
                .unwrap()
                .contains("immutable")
        );
    }
    let plain = client().get(server.url(css)).send().await.unwrap();
    assert!(plain.headers().get("content-encoding").is_none());
    assert!(plain.text().await.unwrap().contains(".site-header"));
}

/// The JSON-LD data block of a page.
fn json_ld(html: &str) -> serde_json::Value {
    let start = html
        .find("<script type=\"application/ld+json\">")
        .expect("a JSON-LD block")
        + "<script type=\"application/ld+json\">".len();
    let end = start + html[start..].find("</script>").unwrap();
    serde_json::from_str(&html[start..end]).expect("valid JSON")
}

#[tokio::test]
async fn search_engines_get_structured_data() {
    let server = Server::start();
    let (_, home) = server.get("/").await;
    let org = json_ld(&home);
    assert_eq!(org["@type"], "Organization");
    assert_eq!(org["name"], "Ortak");

    let (_, faq) = server.get("/faq?lang=en").await;
    let faq = json_ld(&faq);
    assert_eq!(faq["@type"], "FAQPage");
    assert_eq!(faq["inLanguage"], "en");
    let questions = faq["mainEntity"].as_array().unwrap();
    assert!(!questions.is_empty());
    assert!(questions.iter().all(|q| {
        q["@type"] == "Question"
            && q["acceptedAnswer"]["text"]
                .as_str()
                .is_some_and(|t| !t.is_empty())
    }));

    let (_, blog) = server.get("/blog").await;
    let post = blog
        .split("href=\"/blog/")
        .nth(1)
        .map(|rest| format!("/blog/{}", &rest[..rest.find('"').unwrap()]))
        .unwrap();
    let (_, html) = server.get(&post).await;
    let data = json_ld(&html);
    assert_eq!(data["@type"], "BlogPosting");
    assert!(data["headline"].as_str().is_some_and(|h| html.contains(h)));
    assert!(data["url"].as_str().unwrap().ends_with(&post));
    // No page carries an executable inline script: the data block is the only inline one.
    assert!(!html.contains("<script>"));
}

/// Bytes on the wire for `path` with Brotli, as a browser fetches it.
async fn transferred(browser: &reqwest::Client, server: &Server, path: &str) -> usize {
    let response = browser
        .get(server.url(path))
        .header("accept-encoding", "br")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200, "{path}");
    response.bytes().await.unwrap().len()
}

fn attribute_values<'a>(html: &'a str, marker: &str) -> Vec<&'a str> {
    html.split(marker)
        .skip(1)
        .map(|rest| &rest[..rest.find('"').unwrap()])
        .collect()
}

/// Bytes on the wire for a first visit of `path`: the page with its style sheet and icons;
/// the typeface files it preloads and the images it shows; its JavaScript.
async fn weight(browser: &reqwest::Client, server: &Server, path: &str) -> (usize, usize, usize) {
    let html = common::text(browser, server.url(path)).await;
    let mut page = transferred(browser, server, path).await;
    let mut assets = BTreeSet::new();
    for marker in ["rel=\"stylesheet\" href=\"", "rel=\"icon\" href=\""] {
        assets.extend(
            attribute_values(&html, marker)
                .into_iter()
                .filter(|src| src.starts_with('/')),
        );
    }
    for src in assets {
        page += transferred(browser, server, src).await;
    }
    let mut media = 0;
    let images = html
        .split("<img ")
        .skip(1)
        .filter_map(|tag| attribute_values(&tag[..tag.find('>').unwrap()], " src=\"").pop())
        .filter(|src| src.starts_with('/'))
        .collect::<BTreeSet<_>>();
    for src in attribute_values(&html, "rel=\"preload\" href=\"")
        .into_iter()
        .chain(images)
    {
        media += transferred(browser, server, src).await;
    }
    let mut js = 0;
    for src in attribute_values(&html, "<script type=\"module\" src=\"")
        .into_iter()
        .chain(attribute_values(&html, "rel=\"modulepreload\" href=\""))
    {
        js += transferred(browser, server, src).await;
    }
    // A page loads scripts exactly when its content has islands (the footer's newsletter box
    // stays its plain form on every page but /newsletter).
    let content = html.split("<footer").next().unwrap_or_default();
    assert_eq!(
        js > 0,
        content.contains("data-island="),
        "{path}: scripts iff islands"
    );
    (page, media, js)
}

#[tokio::test]
async fn pages_are_light_and_ship_javascript_only_with_islands() {
    let server = Server::start();
    // Every public page the sitemap lists, in both languages: at most 30 KB on the wire, and
    // 150 KB with the typeface.
    let (_, sitemap) = server.get("/sitemap.xml").await;
    let pages: Vec<String> = attribute_values(&sitemap, "href=\"")
        .into_iter()
        .chain(
            sitemap
                .split("<loc>")
                .skip(1)
                .map(|l| &l[..l.find("</loc>").unwrap()]),
        )
        .map(|url| {
            url.strip_prefix(server.base.as_str())
                .unwrap()
                .replace("&amp;", "&")
        })
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    assert!(pages.len() > 40, "{pages:?}");
    let visitor = client();
    for path in &pages {
        let (page, fonts, js) = weight(&visitor, &server, path).await;
        assert!(page <= 30 * 1024, "{path}: {page} bytes transferred");
        assert!(fonts > 0, "{path}: the typeface is preloaded");
        // The issue's budget for a first visit with the typeface and images: 150 KB.
        assert!(
            page + fonts <= 150 * 1024,
            "{path}: {} bytes with fonts",
            page + fonts
        );
        assert!(js <= 70 * 1024, "{path}: {js} bytes of JavaScript");
    }
    // Every island's page, as the one who sees it: at most 70 KB of compressed JavaScript.
    let member = common::journeys::sign_up(&server, "agirlik@example.com").await;
    let checks: [(&reqwest::Client, &str); 5] = [
        (&visitor, "/newsletter"),
        (&visitor, "/projectFlow/1"),
        (&member, "/favorites"),
        (&member, "/investmentFlow?startup=cemre-enerji"),
        (&member, "/startups?sector=fintech"),
    ];
    for (browser, path) in checks {
        let (_, _, js) = weight(browser, &server, path).await;
        assert!(js <= 70 * 1024, "{path}: {js} bytes of JavaScript");
    }
}

/// The security headers on one response.
fn assert_secure_headers(what: &str, h: &reqwest::header::HeaderMap) {
    let csp = h
        .get("content-security-policy")
        .unwrap_or_else(|| panic!("{what}: no CSP"))
        .to_str()
        .unwrap();
    assert!(
        !csp.contains("unsafe-inline") && csp.contains("frame-ancestors 'none'"),
        "{what}: {csp}"
    );
    assert_eq!(h["x-content-type-options"], "nosniff", "{what}");
    assert_eq!(
        h["referrer-policy"], "strict-origin-when-cross-origin",
        "{what}"
    );
    assert_eq!(h["x-frame-options"], "DENY", "{what}");
}

#[tokio::test]
async fn every_kind_of_response_carries_the_security_headers() {
    let server = Server::start();
    let home = client().get(server.url("/")).send().await.unwrap();
    let html = home.text().await.unwrap();
    let css = html.split("rel=\"stylesheet\" href=\"").nth(1).unwrap();
    let css = &css[..css.find('"').unwrap()];
    let token = common::csrf_of(&common::text(&client(), server.url("/newsletter")).await);
    let too_large = client()
        .post(server.url("/newsletter"))
        .header("content-type", "application/x-www-form-urlencoded")
        .body(format!("csrf={token}&email={}", "a".repeat(100_000)))
        .send()
        .await
        .unwrap();
    assert_eq!(too_large.status(), 413);
    assert_secure_headers("a 413", too_large.headers());
    // Its body was refused unread: the connection ends and says so, or a client that kept it
    // would lose its next request (the form crawl in `hostile` sends one right after).
    assert_eq!(too_large.headers()["connection"], "close");
    let wrong_type = client()
        .post(server.url("/newsletter"))
        .header("content-type", "text/plain")
        .body("email=a@b.co")
        .send()
        .await
        .unwrap();
    assert_eq!(wrong_type.status(), 415);
    assert_eq!(wrong_type.headers()["connection"], "close");
    assert_secure_headers("a 415", wrong_type.headers());
    for (path, status) in [
        ("/", 200),
        (css, 200),
        ("/favicon.svg", 200),
        ("/robots.txt", 200),
        ("/sitemap.xml", 200),
        ("/healthz", 200),
        ("/api/getProfile", 401),
        ("/dashboard/users.json", 401),
        ("/profile", 303),
        ("/no-such-page", 404),
        ("/assets/no-such.js", 404),
    ] {
        let response = client().get(server.url(path)).send().await.unwrap();
        assert_eq!(response.status(), status, "{path}");
        assert_secure_headers(path, response.headers());
        assert!(response.headers().get("x-request-id").is_some(), "{path}");
    }
}

#[tokio::test]
async fn behind_https_hsts_and_a_host_prefixed_secure_session_cookie() {
    use common::journeys::{ADMIN_PASSWORD, create_admin};
    let data = tempfile::TempDir::new().unwrap();
    create_admin(&data, "https@example.com", false);
    // An https install takes real payments; this one only tests headers (sandbox allowed).
    let env = [
        ("ORTAK_PUBLIC_URL", "https://ortak.example"),
        ("ORTAK_ALLOW_SANDBOX_PAYMENTS", "1"),
    ];
    let server = Server::start_in(data, &env);
    let page = client().get(server.url("/signin")).send().await.unwrap();
    assert_eq!(
        page.headers()["strict-transport-security"],
        "max-age=63072000; includeSubDomains"
    );
    // The browser would only send these Secure cookies over HTTPS: carry them by hand.
    let cookie_pairs = |r: &reqwest::Response| -> Vec<String> {
        r.headers()
            .get_all("set-cookie")
            .iter()
            .map(|c| c.to_str().unwrap().to_owned())
            .collect()
    };
    let set = cookie_pairs(&page);
    let csrf_cookie = set
        .iter()
        .find(|c| c.starts_with("__Host-ortak_csrf="))
        .expect("the CSRF cookie is __Host- prefixed too");
    assert!(!set.iter().any(|c| c.starts_with("ortak_csrf=")));
    assert!(csrf_cookie.contains("Secure") && csrf_cookie.contains("HttpOnly"));
    let jar: Vec<&str> = set.iter().map(|c| c.split(';').next().unwrap()).collect();
    let token = common::csrf_of(&page.text().await.unwrap());
    let signed_in = client()
        .post(server.url("/signin"))
        .header("cookie", jar.join("; "))
        .header("origin", server.base.as_str())
        .form(&[
            ("csrf", token.as_str()),
            ("email", "https@example.com"),
            ("password", ADMIN_PASSWORD),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(signed_in.status(), 303);
    let session = cookie_pairs(&signed_in)
        .into_iter()
        .find(|c| c.starts_with("__Host-ortak_session="))
        .expect("the session cookie is __Host- prefixed");
    for attribute in ["Secure", "HttpOnly", "SameSite=Lax", "Path=/"] {
        assert!(session.contains(attribute), "{attribute}: {session}");
    }
    assert!(
        !session.contains("Domain="),
        "__Host- cookies have no Domain"
    );

    // The second factor (staff): enrol an authenticator by hand, carrying the cookies.
    let pending_pair = session.split(';').next().unwrap().to_owned();
    let cookies = format!("{}; {pending_pair}", jar.join("; "));
    let setup = client()
        .get(server.url("/signin/2fa/setup"))
        .header("cookie", &cookies)
        .send()
        .await
        .unwrap();
    assert_eq!(setup.status(), 200);
    let html = setup.text().await.unwrap();
    let secret = common::journeys::secret_on_page(&html);
    let step = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs()
        / 30;
    let enrolled = client()
        .post(server.url("/signin/2fa/setup"))
        .header("cookie", &cookies)
        .header("origin", server.base.as_str())
        .form(&[
            ("csrf", common::csrf_of(&html)),
            ("code", common::journeys::code_at(&secret, step)),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(enrolled.status(), 200);
    let session = cookie_pairs(&enrolled)
        .into_iter()
        .find(|c| c.starts_with("__Host-ortak_session="))
        .expect("a new session once both factors are given");

    // Signing out clears the browser's cache and storage for the site.
    let session_pair = session.split(';').next().unwrap().to_owned();
    let profile = client()
        .get(server.url("/profile"))
        .header("cookie", format!("{}; {session_pair}", jar.join("; ")))
        .send()
        .await
        .unwrap();
    assert_eq!(profile.status(), 200, "signed in");
    let token = common::csrf_of(&profile.text().await.unwrap());
    let out = client()
        .post(server.url("/logout"))
        .header("cookie", format!("{}; {session_pair}", jar.join("; ")))
        .header("origin", server.base.as_str())
        .form(&[("csrf", token.as_str())])
        .send()
        .await
        .unwrap();
    assert_eq!(out.status(), 303);
    assert_eq!(out.headers()["clear-site-data"], "\"cache\", \"storage\"");
}

#[tokio::test]
async fn shared_public_pages_keep_each_visitors_token_and_show_writes_at_once() {
    use common::journeys::{ADMIN_PASSWORD, create_admin, post_form, sign_in, sign_up};
    let data = tempfile::TempDir::new().unwrap();
    create_admin(&data, "sss@example.com", false);
    let server = Server::start_in(data, &[("ORTAK_DEMO", "1")]);
    // Two visitors read the FAQ one after the other: the second is served the page the first
    // caused, with their own token, and that token works.
    let (first, second) = (client(), client());
    let page_1 = common::text(&first, server.url("/faq")).await;
    let page_2 = common::text(&second, server.url("/faq")).await;
    let (token_1, token_2) = (common::csrf_of(&page_1), common::csrf_of(&page_2));
    assert_ne!(token_1, token_2);
    assert!(
        !page_2.contains(&token_1),
        "no visitor sees another's token"
    );
    let subscribed = post_form(
        &second,
        server.url("/newsletter"),
        &token_2,
        &[
            ("return", "/faq".into()),
            ("email", "ikinci@example.com".into()),
        ],
    )
    .await;
    assert_eq!(subscribed.status(), 303);

    // An edit is on the page at once.
    let admin = sign_in(&server, "sss@example.com", ADMIN_PASSWORD).await;
    let faq_id: i64 = sqlx::query_scalar("SELECT id FROM faqs ORDER BY position LIMIT 1")
        .fetch_one(&server.db().await)
        .await
        .unwrap();
    let edit = common::text(&admin, server.url(&format!("/dashboard/faq/{faq_id}"))).await;
    let changed = post_form(
        &admin,
        server.url(&format!("/dashboard/faq/{faq_id}")),
        &common::csrf_of(&edit),
        &[
            ("title_tr", "Önbellek sorusu?".into()),
            ("title_en", "A cache question?".into()),
            ("body_tr", "Yanıt.".into()),
            ("body_en", "Answer.".into()),
            ("published", "on".into()),
            ("intent", "save".into()),
        ],
    )
    .await;
    assert_eq!(changed.status(), 303);
    assert!(
        common::text(&client(), server.url("/faq"))
            .await
            .contains("Önbellek sorusu?")
    );

    // Signed-in members never get the visitors' page.
    let member = sign_up(&server, "uye-sss@example.com").await;
    let theirs = common::text(&member, server.url("/faq")).await;
    assert!(theirs.contains("avatar-menu"), "the member's own header");
    assert!(
        !common::text(&client(), server.url("/faq"))
            .await
            .contains("avatar-menu")
    );
}

#[tokio::test]
async fn the_canonical_address_is_the_urls_own_language_version() {
    let server = Server::start();
    let english_browser = client()
        .get(server.url("/faq"))
        .header("accept-language", "en-US,en;q=0.9")
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(english_browser.contains("<html lang=\"en\">"));
    assert!(
        english_browser.contains(&format!(
            "<link rel=\"canonical\" href=\"{}/faq\">",
            server.base
        )),
        "the address without ?lang= is the Turkish page's"
    );
    let (_, english) = server.get("/faq?lang=en").await;
    assert!(english.contains(&format!(
        "<link rel=\"canonical\" href=\"{}/faq?lang=en\">",
        server.base
    )));
}
