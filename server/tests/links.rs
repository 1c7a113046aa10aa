//! A link checker: a visitor crawls the site from the home page in both languages. Every
//! internal link answers (a page, or the way to sign in), never 404 or a server error, and
//! every indexable page is listed in `sitemap.xml` with both languages.

use crate::common;

use std::collections::{BTreeSet, VecDeque};

use common::Server;

/// Internal `href`s of a page, without fragments.
fn links(html: &str) -> Vec<String> {
    html.split("href=\"")
        .skip(1)
        .filter_map(|rest| rest.split('"').next())
        .filter(|href| href.starts_with('/') && !href.starts_with("//"))
        .map(|href| href.split('#').next().unwrap().replace("&amp;", "&"))
        .collect()
}

#[tokio::test]
async fn no_internal_link_is_broken_and_the_sitemap_lists_every_public_page() {
    let server = Server::start_in(tempfile::TempDir::new().unwrap(), &[("ORTAK_DEMO", "1")]);
    let (_, sitemap) = server.get("/sitemap.xml").await;
    let visitor = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();

    let mut queue: VecDeque<String> = VecDeque::from(["/".to_owned(), "/?lang=en".to_owned()]);
    let mut seen: BTreeSet<String> = queue.iter().cloned().collect();
    let mut indexable: BTreeSet<String> = BTreeSet::new();
    let mut crawled = 0;
    while let Some(url) = queue.pop_front() {
        crawled += 1;
        assert!(crawled < 600, "the crawl should end");
        let response = visitor.get(server.url(&url)).send().await.unwrap();
        let status = response.status().as_u16();
        let location = response
            .headers()
            .get("location")
            .map(|l| l.to_str().unwrap().to_owned());
        let kind = response
            .headers()
            .get("content-type")
            .map(|c| c.to_str().unwrap().to_owned())
            .unwrap_or_default();
        match status {
            200 => {}
            303 | 302 | 307 | 308 => {
                let to = location.unwrap_or_default();
                assert!(to.starts_with('/'), "{url} redirects off-site: {to}");
                if seen.insert(to.clone()) {
                    queue.push_back(to);
                }
                continue;
            }
            _ => panic!("{url}: {status}"),
        }
        if !kind.starts_with("text/html") {
            continue;
        }
        let html = response.text().await.unwrap();
        let path = url.split('?').next().unwrap().to_owned();
        if !html.contains("<meta name=\"robots\" content=\"noindex\"") {
            indexable.insert(path);
        }
        for link in links(&html) {
            // Assets are checked by the asset tests; page-number and filter variants of the
            // catalogue are the same page.
            let skip = link.starts_with("/assets/")
                || (link.starts_with("/startups?") && link != "/startups?lang=en");
            if !skip && seen.insert(link.clone()) {
                queue.push_back(link);
            }
        }
    }
    assert!(crawled > 20, "crawled {crawled} pages");
    let missing: Vec<&String> = indexable
        .iter()
        .filter(|path| {
            let loc = format!("<loc>{}</loc>", server.url(path));
            let en = format!("hreflang=\"en\" href=\"{}?lang=en\"", server.url(path));
            !(sitemap.contains(&loc) && sitemap.contains(&en))
        })
        .collect();
    assert!(
        missing.is_empty(),
        "public, indexable pages the sitemap should list in both languages: {missing:?}"
    );
}
