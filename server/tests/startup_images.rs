//! Startup logos, covers and founders' photos (issue 14): staff upload an image, which is checked by decoding
//! it, cropped and stored as WebP variants; cards and pages show them to everyone; what is not
//! an image, or too small, is refused under its form with nothing changed; only staff upload.

use crate::common;

use std::io::Cursor;

use common::journeys::{ADMIN_PASSWORD, create_admin, sign_in, sign_up};
use common::{Server, client, csrf_of, scalar};
use tempfile::TempDir;

const SLUG: &str = "zeytin-finans";

fn png(width: u32, height: u32) -> Vec<u8> {
    let image = image::RgbImage::from_fn(width, height, |x, y| {
        image::Rgb([(x % 251) as u8, (y % 241) as u8, 120])
    });
    let mut out = Cursor::new(Vec::new());
    image.write_to(&mut out, image::ImageFormat::Png).unwrap();
    out.into_inner()
}

async fn upload(
    server: &Server,
    browser: &reqwest::Client,
    id: i64,
    kind: &str,
    bytes: Vec<u8>,
) -> reqwest::Response {
    let token = csrf_of(&common::text(browser, server.url("/startups")).await);
    let form = reqwest::multipart::Form::new().text("csrf", token).part(
        "picture",
        reqwest::multipart::Part::bytes(bytes).file_name("logo.png"),
    );
    browser
        .post(server.url(&format!("/dashboard/startups/{id}/images/{kind}")))
        .multipart(form)
        .send()
        .await
        .unwrap()
}

async fn stored(server: &Server, column: &str) -> String {
    let db = server.db().await;
    sqlx::query_scalar(&format!("SELECT {column} FROM startups WHERE slug = ?"))
        .bind(SLUG)
        .fetch_one(&db)
        .await
        .unwrap()
}

/// The variant at `url`: its size once decoded, after checking how it is served.
async fn variant(browser: &reqwest::Client, url: String) -> (u32, u32) {
    let response = browser.get(url).send().await.unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["content-type"], "image/webp");
    assert_eq!(
        response.headers()["cache-control"],
        "public, max-age=31536000, immutable"
    );
    let bytes = response.bytes().await.unwrap();
    let image = image::load_from_memory_with_format(&bytes, image::ImageFormat::WebP).unwrap();
    (image.width(), image.height())
}

#[tokio::test]
async fn staff_upload_logos_and_covers_that_every_page_shows() {
    let data = TempDir::new().unwrap();
    create_admin(&data, "admin@example.com", false);
    let server = Server::start_in(data, &[("ORTAK_DEMO", "1")]);
    let id = scalar(
        &server,
        &format!("SELECT id FROM startups WHERE slug = '{SLUG}'"),
    )
    .await;
    let visitor = client();

    // The demo ships a logo and a cover for every startup; a visitor's catalogue shows them.
    assert_eq!(
        scalar(
            &server,
            "SELECT COUNT(*) FROM startups WHERE logo IS NULL OR cover IS NULL"
        )
        .await,
        0
    );
    let demo_logo = stored(&server, "logo").await;
    let (_, catalogue) = server.get("/startups?sector=fintech").await;
    assert!(catalogue.contains(&format!("src=\"/media/startups/{demo_logo}-96.webp\"")));
    assert_eq!(
        variant(
            &visitor,
            server.url(&format!("/media/startups/{demo_logo}-192.webp"))
        )
        .await,
        (192, 192)
    );

    // Only staff upload: a visitor is sent to sign in, an investor refused; nothing changes.
    let investor = sign_up(&server, "gorsel@example.com").await;
    let as_visitor = upload(&server, &visitor, id, "logo", png(300, 300)).await;
    assert_eq!(as_visitor.status(), 303);
    let as_investor = upload(&server, &investor, id, "logo", png(300, 300)).await;
    assert_eq!(as_investor.status(), 403);
    assert_eq!(stored(&server, "logo").await, demo_logo);

    // Not an image (whatever its name says), a cut-off image, too small: refused under the
    // form with the message, nothing stored.
    let staff = sign_in(&server, "admin@example.com", ADMIN_PASSWORD).await;
    let mut cut = png(300, 300);
    cut.truncate(80);
    for (bytes, message) in [
        (
            b"<svg onload=alert(1)>".to_vec(),
            "Dosya bir PNG, JPEG ya da WebP görseli değil.",
        ),
        (cut, "Dosya bir PNG, JPEG ya da WebP görseli değil."),
        (png(60, 60), "Görsel çok küçük."),
    ] {
        let refused = upload(&server, &staff, id, "logo", bytes).await;
        assert_eq!(refused.status(), 422);
        assert!(refused.text().await.unwrap().contains(message), "{message}");
    }
    let cover_too_small = upload(&server, &staff, id, "cover", png(1200, 300)).await;
    assert_eq!(cover_too_small.status(), 422);
    assert_eq!(stored(&server, "logo").await, demo_logo);
    assert_eq!(
        upload(&server, &staff, id, "banner", png(300, 300))
            .await
            .status(),
        404
    );
    assert_eq!(
        upload(&server, &staff, 99_999, "logo", png(300, 300))
            .await
            .status(),
        404
    );

    // A wide logo is cropped square; a cover 16:9; both are served at each width.
    let saved = upload(&server, &staff, id, "logo", png(500, 300)).await;
    assert_eq!(saved.status(), 303);
    let logo = stored(&server, "logo").await;
    assert_ne!(logo, demo_logo);
    assert_eq!(
        variant(
            &visitor,
            server.url(&format!("/media/startups/{logo}-96.webp"))
        )
        .await,
        (96, 96)
    );
    assert_eq!(
        variant(
            &visitor,
            server.url(&format!("/media/startups/{logo}-192.webp"))
        )
        .await,
        (192, 192)
    );
    assert_eq!(
        upload(&server, &staff, id, "cover", png(1600, 1000))
            .await
            .status(),
        303
    );
    let cover = stored(&server, "cover").await;
    assert_eq!(
        variant(
            &visitor,
            server.url(&format!("/media/startups/{cover}-1280.webp"))
        )
        .await,
        (1280, 720)
    );
    // The replaced logo's files are gone; the change is audited.
    let old = visitor
        .get(server.url(&format!("/media/startups/{demo_logo}-96.webp")))
        .send()
        .await
        .unwrap();
    assert_eq!(old.status(), 404);
    assert_eq!(
        scalar(
            &server,
            "SELECT COUNT(*) FROM audit_log WHERE action = 'startup.logo.set'"
        )
        .await,
        1
    );

    // The card and the startup's page show the new pictures.
    let (_, catalogue) = server.get("/startups?sector=fintech").await;
    assert!(catalogue.contains(&format!("/media/startups/{logo}-192.webp 2x")));
    let page = common::text(&investor, server.url(&format!("/startups/{SLUG}"))).await;
    assert!(page.contains(&format!("/media/startups/{cover}-1280.webp 1280w")));

    // A founder's photo, by the founder's name as the editor lists them; an unknown name 404.
    let founder: String = {
        let db = server.db().await;
        sqlx::query_scalar("SELECT name FROM founders WHERE startup_id = ? ORDER BY position_order")
            .bind(id)
            .fetch_one(&db)
            .await
            .unwrap()
    };
    let photo = |name: String, bytes: Vec<u8>| {
        let (server, staff) = (&server, &staff);
        async move {
            let token = csrf_of(&common::text(staff, server.url("/startups")).await);
            let form = reqwest::multipart::Form::new()
                .text("csrf", token)
                .text("founder", name)
                .part(
                    "picture",
                    reqwest::multipart::Part::bytes(bytes).file_name("a.png"),
                );
            staff
                .post(server.url(&format!("/dashboard/startups/{id}/founders/photo")))
                .multipart(form)
                .send()
                .await
                .unwrap()
        }
    };
    let photo_of = |startup: i64| {
        let (server, founder) = (&server, founder.clone());
        async move {
            let db = server.db().await;
            sqlx::query_scalar::<_, String>(
                "SELECT photo FROM founder_photos WHERE startup_id = ? AND name = ?",
            )
            .bind(startup)
            .bind(founder)
            .fetch_one(&db)
            .await
            .unwrap()
        }
    };
    // The demo ships a portrait of every founder, each startup's in files of its own.
    assert_eq!(
        scalar(
            &server,
            "SELECT COUNT(*) FROM founders f WHERE NOT EXISTS (SELECT 1 FROM founder_photos p
               WHERE p.startup_id = f.startup_id AND p.name = f.name)"
        )
        .await,
        0
    );
    let demo_photo = photo_of(id).await;
    let page = common::text(&investor, server.url(&format!("/startups/{SLUG}"))).await;
    assert!(page.contains(&format!("/media/startups/{demo_photo}-96.webp")));
    let elsewhere: i64 = {
        let db = server.db().await;
        sqlx::query_scalar("SELECT startup_id FROM founders WHERE name = ? AND startup_id <> ?")
            .bind(&founder)
            .bind(id)
            .fetch_one(&db)
            .await
            .unwrap()
    };
    let elsewhere_photo = photo_of(elsewhere).await;
    assert_ne!(elsewhere_photo, demo_photo);

    assert_eq!(photo("Kimse Yok".into(), png(200, 200)).await.status(), 404);
    let small = photo(founder.clone(), png(50, 50)).await;
    assert_eq!(small.status(), 422);
    assert!(small.text().await.unwrap().contains("Görsel çok küçük."));
    assert_eq!(photo_of(id).await, demo_photo);
    assert_eq!(photo(founder.clone(), png(300, 400)).await.status(), 303);
    let stored_photo = photo_of(id).await;
    assert_ne!(stored_photo, demo_photo);
    // The replaced portrait's files are gone; the same person's on another startup stays.
    let gone = visitor
        .get(server.url(&format!("/media/startups/{demo_photo}-96.webp")))
        .send()
        .await
        .unwrap();
    assert_eq!(gone.status(), 404);
    assert_eq!(
        variant(
            &visitor,
            server.url(&format!("/media/startups/{elsewhere_photo}-96.webp"))
        )
        .await,
        (96, 96)
    );
    assert_eq!(
        variant(
            &visitor,
            server.url(&format!("/media/startups/{stored_photo}-192.webp"))
        )
        .await,
        (192, 192)
    );
    let page = common::text(&investor, server.url(&format!("/startups/{SLUG}"))).await;
    assert!(page.contains(&format!("/media/startups/{stored_photo}-96.webp")));

    // Only variant names are served.
    for path in [
        "/media/startups/..%2Fortak.db",
        "/media/startups/0123456789abcdef0123456789abcdef-97.webp",
    ] {
        let response = visitor.get(server.url(path)).send().await.unwrap();
        assert_eq!(response.status(), 404, "{path}");
    }
}
