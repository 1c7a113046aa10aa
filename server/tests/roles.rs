//! Who may see what: the profile API, sign-in gates and the staff mailbox.

use crate::common;

use common::journeys::create_admin;
use common::{Server, client, csrf_of};
use tempfile::TempDir;

/// Signs `email` in with its password in `browser` (a member without a second factor).
async fn password_sign_in(server: &Server, browser: &reqwest::Client, email: &str, password: &str) {
    let page = common::text(browser, server.url("/signin")).await;
    let response = browser
        .post(server.url("/signin"))
        .form(&[
            ("csrf", csrf_of(&page).as_str()),
            ("email", email),
            ("password", password),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 303, "{email} signs in");
    assert_eq!(response.headers()["location"], "/overview");
}

/// Signs staff member `email` in with a fresh browser, second factor included; returns it, the
/// session cookie's value and where it went next.
async fn sign_in(
    server: &Server,
    email: &str,
    password: &str,
    next: &str,
) -> (reqwest::Client, String, String) {
    let browser = client();
    let page = common::text(&browser, server.url("/signin")).await;
    let response = browser
        .post(server.url("/signin"))
        .form(&[
            ("csrf", csrf_of(&page).as_str()),
            ("email", email),
            ("password", password),
            ("next", next),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 303, "{email} signs in");
    // Staff give their second factor (enrolling an authenticator the first time).
    assert_eq!(response.headers()["location"], "/signin/2fa");
    let done = common::journeys::second_factor(server, &browser, email).await;
    (browser, done.session, done.next)
}

#[tokio::test]
async fn profile_api_needs_a_session_cookie_or_bearer_token() {
    let data = TempDir::new().unwrap();
    create_admin(&data, "staff@example.com", false);
    let server = Server::start_in(data, &[]);

    for path in ["/api/getProfile", "/api/getProfileImg"] {
        let response = client().get(server.url(path)).send().await.unwrap();
        assert_eq!(response.status(), 401, "{path}");
        let bad = client()
            .get(server.url(path))
            .bearer_auth("not-a-session")
            .send()
            .await
            .unwrap();
        assert_eq!(bad.status(), 401, "{path}");
    }

    let (browser, session, _) = sign_in(&server, "staff@example.com", "parola-1234", "/").await;
    let body: serde_json::Value = browser
        .get(server.url("/api/getProfile"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(body["profileData"]["name"], "Ortak");
    assert_eq!(body["profileData"]["surname"], "Admin");
    let bearer = client()
        .get(server.url("/api/getProfile"))
        .bearer_auth(&session)
        .send()
        .await
        .unwrap();
    assert_eq!(bearer.status(), 200);
    // No image yet: 404, and the header falls back to the default avatar.
    assert_eq!(
        browser
            .get(server.url("/api/getProfileImg"))
            .send()
            .await
            .unwrap()
            .status(),
        404
    );
    let home = common::text(&browser, server.url("/")).await;
    assert!(home.contains("src=\"/avatar.svg\""));
}

#[tokio::test]
async fn the_mailbox_is_for_superadmins_and_visitors_come_back_after_signing_in() {
    let data = TempDir::new().unwrap();
    create_admin(&data, "admin@example.com", false);
    create_admin(&data, "super@example.com", true);
    let server = Server::start_in(data, &[]);

    let visitor = client()
        .get(server.url("/dashboard/mailbox"))
        .send()
        .await
        .unwrap();
    assert_eq!(visitor.status(), 303);
    assert_eq!(
        visitor.headers()["location"],
        "/signin?next=/dashboard/mailbox"
    );

    // An investor joins; without SMTP the verification mail waits in the outbox.
    let investor = client();
    let page = common::text(&investor, server.url("/signup")).await;
    let fields = [
        ("csrf", csrf_of(&page)),
        ("email", "investor@example.com".into()),
        ("password", "parola-5678".into()),
        ("password_confirm", "parola-5678".into()),
        ("first_name", "Mehmet".into()),
        ("last_name", "Kaya".into()),
        ("phone", "+90 555 000 11 22".into()),
        ("country", "Türkiye".into()),
        ("city", "Ankara".into()),
        ("language", "en".into()),
        ("investor_type", "corporate".into()),
        ("terms", "on".into()),
    ];
    assert_eq!(
        investor
            .post(server.url("/signup"))
            .form(&fields)
            .send()
            .await
            .unwrap()
            .status(),
        303
    );
    password_sign_in(&server, &investor, "investor@example.com", "parola-5678").await;
    assert_eq!(
        investor
            .get(server.url("/dashboard/mailbox"))
            .send()
            .await
            .unwrap()
            .status(),
        403
    );

    // Ordinary admins do not read the outbox (issue 12): it is for superadmins.
    let (admin, _, next) = sign_in(
        &server,
        "admin@example.com",
        "parola-1234",
        "/dashboard/mailbox",
    )
    .await;
    assert_eq!(next, "/dashboard/mailbox");
    let refused = admin
        .get(server.url("/dashboard/mailbox"))
        .send()
        .await
        .unwrap();
    assert_eq!(refused.status(), 403);
    let (superadmin, _, _) = sign_in(&server, "super@example.com", "parola-1234", "/").await;
    let mailbox = common::text(&superadmin, server.url("/dashboard/mailbox")).await;
    assert!(mailbox.contains("investor@example.com"));
    assert!(
        mailbox.contains("Ortak: verify your e-mail address"),
        "in the recipient's language"
    );
    // No link, let alone a token: links are issued only as a mail is sent.
    assert!(!mailbox.contains("/verificationtoken?token="));
    assert!(mailbox.contains("[link sent only by e-mail]"));
    assert!(
        !mailbox.contains("<header class=\"site-header\">"),
        "dashboard pages have no header"
    );
}

/// What a role gets from a GET of a route.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Expect {
    Ok,
    SignIn,
    Forbidden,
    Redirect,
    NotFound,
    Unauthorized,
    Gone,
    BadRequest,
}

#[tokio::test]
async fn every_route_answers_each_role_as_the_spec_allows() {
    use Expect::*;
    let data = TempDir::new().unwrap();
    create_admin(&data, "admin@example.com", false);
    create_admin(&data, "super@example.com", true);
    let server = Server::start_in(data, &[("ORTAK_DEMO", "1")]);
    // The admin sits on the investment committee; the superadmin does not (committee pages
    // follow membership, not rank).
    common::exec(
        &server,
        "UPDATE users SET committee_member = (email = 'admin@example.com') WHERE role <> 'investor'",
    )
    .await;

    let investor = client();
    let page = common::text(&investor, server.url("/signup")).await;
    let fields = [
        ("csrf", csrf_of(&page)),
        ("email", "rol@example.com".into()),
        ("password", "parola-5678".into()),
        ("password_confirm", "parola-5678".into()),
        ("first_name", "Rol".into()),
        ("last_name", "Test".into()),
        ("phone", "05321112233".into()),
        ("country", "Türkiye".into()),
        ("city", "Ankara".into()),
        ("language", "tr".into()),
        ("investor_type", "individual".into()),
        ("terms", "on".into()),
    ];
    assert_eq!(
        investor
            .post(server.url("/signup"))
            .form(&fields)
            .send()
            .await
            .unwrap()
            .status(),
        303
    );
    // Joining signs nobody in (issue 12): the new investor signs in with the password.
    password_sign_in(&server, &investor, "rol@example.com", "parola-5678").await;
    let (admin, _, _) = sign_in(&server, "admin@example.com", "parola-1234", "/").await;
    let (superadmin, _, _) = sign_in(&server, "super@example.com", "parola-1234", "/").await;
    let visitor = client();
    // A corporate investor has exactly the individual investor's rights.
    let corporate = client();
    let page = common::text(&corporate, server.url("/signup")).await;
    let mut fields = fields.to_vec();
    fields[0].1 = csrf_of(&page);
    fields[1].1 = "kurum@example.com".into();
    fields[10].1 = "corporate".into();
    assert_eq!(
        corporate
            .post(server.url("/signup"))
            .form(&fields)
            .send()
            .await
            .unwrap()
            .status(),
        303
    );
    password_sign_in(&server, &corporate, "kurum@example.com", "parola-5678").await;
    // A fund-team member: an investor the superadmin adds to a fund's team.
    let fund_member = common::journeys::sign_up(&server, "fon@example.com").await;
    let fund: i64 = 1;
    let page = common::text(&superadmin, server.url("/dashboard/vcGroups")).await;
    let added = superadmin
        .post(server.url(&format!("/dashboard/vcGroups/{fund}/members")))
        .form(&[
            ("csrf", csrf_of(&page).as_str()),
            ("op", "add"),
            ("email", "fon@example.com"),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(added.status(), 303);

    // route: visitor, investor, admin, superadmin, fund-team member
    let mut table: Vec<(String, [Expect; 5])> = [
        ("/", [Ok, Ok, Ok, Ok, Ok]),
        ("/faq", [Ok, Ok, Ok, Ok, Ok]),
        ("/blog", [Ok, Ok, Ok, Ok, Ok]),
        ("/techinvestor", [Ok, Ok, Ok, Ok, Ok]),
        ("/politikalar/genel-risk-bildirimi", [Ok, Ok, Ok, Ok, Ok]),
        ("/newsletter", [Ok, Ok, Ok, Ok, Ok]),
        (
            "/newsletter/confirm?token=x",
            [Gone, Gone, Gone, Gone, Gone],
        ),
        ("/unsubscribe?token=1.digest.x", [BadRequest; 5]),
        ("/sitemap.xml", [Ok, Ok, Ok, Ok, Ok]),
        ("/robots.txt", [Ok, Ok, Ok, Ok, Ok]),
        ("/healthz", [Ok, Ok, Ok, Ok, Ok]),
        // Prometheus metrics: open to the local host (the tests' address) or a token.
        ("/metrics", [Ok, Ok, Ok, Ok, Ok]),
        ("/signin", [Ok, Redirect, Redirect, Redirect, Redirect]),
        ("/login", [Ok, Redirect, Redirect, Redirect, Redirect]),
        ("/signup", [Ok, Redirect, Redirect, Redirect, Redirect]),
        ("/register", [Ok, Redirect, Redirect, Redirect, Redirect]),
        ("/forgotpassword", [Ok, Ok, Ok, Ok, Ok]),
        ("/forgot-password", [Ok, Ok, Ok, Ok, Ok]),
        ("/verification", [Ok, Ok, Ok, Ok, Ok]),
        ("/resetpassword?token=unknown", [Gone; 5]),
        ("/profile", [SignIn, Ok, Ok, Ok, Ok]),
        ("/profile/export", [SignIn, Ok, Ok, Ok, Ok]),
        ("/documents", [SignIn, Ok, Ok, Ok, Ok]),
        ("/documents/statement/2026", [SignIn, Ok, Ok, Ok, Ok]),
        (
            "/documents/confirmation/999999",
            [SignIn, NotFound, NotFound, NotFound, NotFound],
        ),
        ("/boardingFlow/1", [SignIn, Ok, Ok, Ok, Ok]),
        (
            "/boardingFlow/success",
            [SignIn, Redirect, Redirect, Redirect, Redirect],
        ),
        (
            "/dashboard/mailbox",
            [SignIn, Forbidden, Forbidden, Ok, Forbidden],
        ),
        ("/signin/2fa", [Redirect; 5]),
        ("/signin/2fa/setup", [Redirect; 5]),
        // Staff enrolled at sign-in: their enrolment page sends them to the security tab.
        ("/profile/2fa", [SignIn, Ok, Redirect, Redirect, Ok]),
        ("/api/getProfile", [Unauthorized, Ok, Ok, Ok, Ok]),
        (
            "/api/getProfileImg",
            [Unauthorized, NotFound, NotFound, NotFound, NotFound],
        ),
        ("/startups", [Ok, Ok, Ok, Ok, Ok]),
        // A logo's variant (the demo's first startup's): public, like the cards that show it.
        (
            "/media/startups/00000000000000000000000000000001-96.webp",
            [Ok, Ok, Ok, Ok, Ok],
        ),
        ("/startups/cemre-enerji", [SignIn, Ok, Ok, Ok, Ok]),
        ("/favorites", [SignIn, Ok, Ok, Ok, Ok]),
        ("/mkk", [SignIn, Ok, Ok, Ok, Ok]),
        (
            "/investmentFlow?startup=cemre-enerji",
            [SignIn, Ok, Ok, Ok, Ok],
        ),
        ("/investmentFlow/created", [SignIn, Ok, Ok, Ok, Ok]),
        ("/pendingInvestments", [SignIn, Ok, Ok, Ok, Ok]),
        ("/userInvestments", [SignIn, Ok, Ok, Ok, Ok]),
        ("/overview", [SignIn, Ok, Ok, Ok, Ok]),
        ("/contactUs", [Ok, Ok, Ok, Ok, Ok]),
        ("/about", [Ok, Ok, Ok, Ok, Ok]),
        ("/limits", [Ok, Ok, Ok, Ok, Ok]),
        ("/track-record", [Ok, Ok, Ok, Ok, Ok]),
        ("/gsyf", [Ok, Ok, Ok, Ok, Ok]),
        ("/academy", [Ok, Ok, Ok, Ok, Ok]),
        ("/projectFlow/1", [Ok, Ok, Ok, Ok, Ok]),
        (
            "/projectFlow/2",
            [Redirect, Redirect, Redirect, Redirect, Redirect],
        ),
        // Thanks only the browser that just sent an application.
        (
            "/projectFlow/done",
            [Redirect, Redirect, Redirect, Redirect, Redirect],
        ),
        ("/reports", [SignIn, Ok, Ok, Ok, Ok]),
        // Reports are for the startup's investors, its fund team and staff (issue 12, item 14).
        ("/reports/1/file", [SignIn, NotFound, Ok, Ok, NotFound]),
        ("/startups/cemre-enerji/pages/1", [SignIn, Ok, Ok, Ok, Ok]),
        ("/startups/cemre-enerji/questions", [SignIn, Ok, Ok, Ok, Ok]),
        (
            "/startups/cemre-enerji/documents/999999",
            [SignIn, NotFound, NotFound, NotFound, NotFound],
        ),
        (
            "/invFlow?request=1",
            [SignIn, NotFound, NotFound, NotFound, NotFound],
        ),
        (
            "/paymentSuccess?request=1",
            [SignIn, NotFound, NotFound, NotFound, NotFound],
        ),
        (
            "/paymentFail?request=1",
            [SignIn, NotFound, NotFound, NotFound, NotFound],
        ),
        ("/dashboard", [SignIn, Forbidden, Ok, Ok, Forbidden]),
        ("/dashboard/users", [SignIn, Forbidden, Ok, Ok, Forbidden]),
        (
            "/dashboard/applications",
            [SignIn, Forbidden, Ok, Ok, Forbidden],
        ),
        (
            "/dashboard/contacts",
            [SignIn, Forbidden, Ok, Ok, Forbidden],
        ),
        ("/dashboard/gsyf", [SignIn, Forbidden, Ok, Ok, Forbidden]),
        ("/dashboard/academy", [SignIn, Forbidden, Ok, Ok, Forbidden]),
        (
            "/dashboard/newsletter",
            [SignIn, Forbidden, Ok, Ok, Forbidden],
        ),
        (
            "/dashboard/newsletter.csv",
            [SignIn, Forbidden, Ok, Ok, Forbidden],
        ),
        (
            "/dashboard/audit",
            [SignIn, Forbidden, Forbidden, Ok, Forbidden],
        ),
        ("/dashboard/blogs", [SignIn, Forbidden, Ok, Ok, Forbidden]),
        (
            "/dashboard/blogs/new",
            [SignIn, Forbidden, Ok, Ok, Forbidden],
        ),
        ("/dashboard/faq", [SignIn, Forbidden, Ok, Ok, Forbidden]),
        ("/dashboard/faq/new", [SignIn, Forbidden, Ok, Ok, Forbidden]),
        // Escrow transfers and receipts are superadmins' (issue 26, item 5).
        (
            "/dashboard/takasbank",
            [SignIn, Forbidden, Forbidden, Ok, Forbidden],
        ),
        (
            "/dashboard/takasbank/statements",
            [SignIn, Forbidden, Forbidden, Ok, Forbidden],
        ),
        (
            "/dashboard/investments",
            [SignIn, Forbidden, Forbidden, Ok, Forbidden],
        ),
        (
            "/dashboard/pre-investments",
            [SignIn, Forbidden, Forbidden, Ok, Forbidden],
        ),
        ("/no-such-page", [NotFound; 5]),
        ("/qualifiedInvestor", [SignIn, Ok, Ok, Ok, Ok]),
        (
            "/dashboard/startups",
            [SignIn, Forbidden, Ok, Ok, Forbidden],
        ),
        (
            "/dashboard/startups/new",
            [SignIn, Forbidden, Ok, Ok, Forbidden],
        ),
        (
            "/dashboard/startups/1",
            [SignIn, Forbidden, Ok, Ok, Forbidden],
        ),
        ("/dashboard/users/1", [SignIn, Forbidden, Ok, Ok, Forbidden]),
        (
            "/dashboard/autoMail",
            [SignIn, Forbidden, Ok, Ok, Forbidden],
        ),
        (
            "/dashboard/autoMail/welcome",
            [SignIn, Forbidden, Ok, Ok, Forbidden],
        ),
        (
            "/dashboard/autoMail/nothing",
            [SignIn, Forbidden, NotFound, NotFound, Forbidden],
        ),
        (
            "/dashboard/vipgroups",
            [SignIn, Forbidden, Forbidden, Ok, Forbidden],
        ),
        (
            "/dashboard/vipgroups/new",
            [SignIn, Forbidden, Forbidden, Ok, Forbidden],
        ),
        (
            "/dashboard/vcGroups",
            [SignIn, Forbidden, Forbidden, Ok, Forbidden],
        ),
        (
            "/dashboard/qualifiedUsers",
            [SignIn, Forbidden, Forbidden, Ok, Forbidden],
        ),
        (
            "/vc-dashboard",
            [SignIn, Forbidden, Forbidden, Forbidden, Ok],
        ),
    ]
    .into_iter()
    .map(|(path, expect)| (path.to_owned(), expect))
    .collect();
    for (path, expect) in [
        ("/signin/link", [Gone; 5]),
        ("/signin/oidc", [NotFound; 5]),
        ("/signin/oidc/callback", [NotFound; 5]),
        ("/signin/oidc/terms", [NotFound; 5]),
        // Only a member whose acceptance is outdated stays on it; the others go on.
        (
            "/signin/terms",
            [SignIn, Redirect, Redirect, Redirect, Redirect],
        ),
        ("/verificationtoken", [Gone; 5]),
        (
            "/api/file/nothing.png",
            [Unauthorized, NotFound, NotFound, NotFound, NotFound],
        ),
        (
            "/invFlow/callback",
            [SignIn, BadRequest, BadRequest, BadRequest, BadRequest],
        ),
        (
            "/sandbox/3ds/1",
            [SignIn, NotFound, NotFound, NotFound, NotFound],
        ),
        (
            "/invFlow/3ds/1",
            [SignIn, NotFound, NotFound, NotFound, NotFound],
        ),
        (
            "/dashboard/applications/1/presentation",
            [SignIn, Forbidden, NotFound, NotFound, Forbidden],
        ),
        (
            "/dashboard/contacts.csv",
            [SignIn, Forbidden, Ok, Ok, Forbidden],
        ),
        (
            "/dashboard/gsyf.csv",
            [SignIn, Forbidden, Ok, Ok, Forbidden],
        ),
        (
            "/dashboard/academy.csv",
            [SignIn, Forbidden, Ok, Ok, Forbidden],
        ),
        (
            "/dashboard/academy/events",
            [SignIn, Forbidden, Ok, Ok, Forbidden],
        ),
        (
            "/dashboard/investments/999",
            [SignIn, Forbidden, Forbidden, NotFound, Forbidden],
        ),
        (
            "/dashboard/qualifiedUsers/999/evidence",
            [SignIn, Forbidden, Forbidden, NotFound, Forbidden],
        ),
        (
            "/dashboard/vipgroups/999",
            [SignIn, Forbidden, Forbidden, NotFound, Forbidden],
        ),
        (
            "/dashboard/vcGroups/new",
            [SignIn, Forbidden, Forbidden, Ok, Forbidden],
        ),
        (
            "/dashboard/applications/999",
            [SignIn, Forbidden, NotFound, NotFound, Forbidden],
        ),
        ("/dashboard/faq/1", [SignIn, Forbidden, Ok, Ok, Forbidden]),
        ("/dashboard/blogs/1", [SignIn, Forbidden, Ok, Ok, Forbidden]),
        ("/dashboard/rounds", [SignIn, Forbidden, Ok, Ok, Forbidden]),
        (
            "/dashboard/rounds/1",
            [SignIn, Forbidden, Ok, Ok, Forbidden],
        ),
        (
            "/dashboard/rounds/999",
            [SignIn, Forbidden, NotFound, NotFound, Forbidden],
        ),
        (
            "/dashboard/rounds/1/refunds.csv",
            [SignIn, Forbidden, Forbidden, Ok, Forbidden],
        ),
        (
            "/dashboard/rounds/1/close",
            [SignIn, Forbidden, Forbidden, Ok, Forbidden],
        ),
        (
            "/dashboard/users/999/role?to=admin",
            [SignIn, Forbidden, NotFound, NotFound, Forbidden],
        ),
        (
            "/dashboard/users/999/active?to=0",
            [SignIn, Forbidden, NotFound, NotFound, Forbidden],
        ),
        (
            "/dashboard/users/999/2fa",
            [SignIn, Forbidden, Forbidden, NotFound, Forbidden],
        ),
        (
            "/dashboard/applications/999/decline",
            [SignIn, Forbidden, NotFound, NotFound, Forbidden],
        ),
        (
            "/dashboard/startups/1/campaign",
            [SignIn, Forbidden, Ok, Ok, Forbidden],
        ),
        (
            "/dashboard/startups/1/campaign/draft",
            [SignIn, Forbidden, Ok, Ok, Forbidden],
        ),
        (
            "/dashboard/disclosures",
            [SignIn, Forbidden, Ok, Ok, Forbidden],
        ),
        (
            "/dashboard/committee",
            [SignIn, Forbidden, Ok, Forbidden, Forbidden],
        ),
        (
            "/dashboard/committee/999",
            [SignIn, Forbidden, NotFound, Forbidden, Forbidden],
        ),
    ] {
        table.push((path.to_owned(), expect));
    }
    let post: String =
        sqlx::query_scalar("SELECT slug FROM blog_posts WHERE published_at IS NOT NULL LIMIT 1")
            .fetch_one(&server.db().await)
            .await
            .unwrap();
    table.push((format!("/blog/{post}"), [Ok; 5]));
    // Every staff list's JSON endpoint: the island's data, with the page's authorization.
    for (section, superadmin_only) in [
        ("users", false),
        ("applications", false),
        ("contacts", false),
        ("gsyf", false),
        ("academy", false),
        ("newsletter", false),
        ("takasbank", true),
        ("rounds", false),
        ("faq", false),
        ("blogs", false),
        ("startups", false),
        ("autoMail", false),
        ("audit", true),
        ("investments", true),
        ("pre-investments", true),
        ("vipgroups", true),
        ("vcGroups", true),
        ("qualifiedUsers", true),
    ] {
        let admin = if superadmin_only { Forbidden } else { Ok };
        table.push((
            format!("/dashboard/{section}.json"),
            [Unauthorized, Forbidden, admin, Ok, Forbidden],
        ));
    }
    // The fund member sees their fund's startups, and nothing of another fund's.
    let db = server.db().await;
    let own: i64 = sqlx::query_scalar("SELECT id FROM startups WHERE fund_id = ? LIMIT 1")
        .bind(fund)
        .fetch_one(&db)
        .await
        .unwrap();
    let other: i64 = sqlx::query_scalar("SELECT id FROM startups WHERE fund_id != ? LIMIT 1")
        .bind(fund)
        .fetch_one(&db)
        .await
        .unwrap();
    table.push((
        format!("/vc-dashboard/startups/{own}"),
        [SignIn, Forbidden, Forbidden, Forbidden, Ok],
    ));
    table.push((
        format!("/vc-dashboard/startups/{other}"),
        [SignIn, Forbidden, Forbidden, Forbidden, NotFound],
    ));
    for page in ["campaign", "disclosures"] {
        table.push((
            format!("/vc-dashboard/startups/{own}/{page}"),
            [SignIn, Forbidden, Forbidden, Forbidden, Ok],
        ));
        table.push((
            format!("/vc-dashboard/startups/{other}/{page}"),
            [SignIn, Forbidden, Forbidden, Forbidden, NotFound],
        ));
    }

    let mut wrong = Vec::new();
    for (path, expected) in &table {
        for (browser, role, expect) in [
            (&visitor, "visitor", expected[0]),
            (&investor, "investor", expected[1]),
            (&corporate, "corporate investor", expected[1]),
            (&admin, "admin", expected[2]),
            (&superadmin, "superadmin", expected[3]),
            (&fund_member, "fund member", expected[4]),
        ] {
            let response = browser.get(server.url(path)).send().await.unwrap();
            let status = response.status().as_u16();
            let location = response
                .headers()
                .get("location")
                .map(|l| l.to_str().unwrap().to_owned());
            let got = match (status, location.as_deref()) {
                (200, _) => Ok,
                (303, Some(l)) if l.starts_with("/signin?next=") => SignIn,
                (303, _) => Redirect,
                (401, _) => Unauthorized,
                (403, _) => Forbidden,
                (404, _) => NotFound,
                (410, _) => Gone,
                (400, _) => BadRequest,
                _ => panic!("{path} as {role}: unexpected {status}"),
            };
            if got != expect {
                wrong.push(format!("{path} as {role}: {got:?}, expected {expect:?}"));
            }
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");

    // Every route the router registers is covered: each GET pattern by a row above, and every
    // POST below. (Read from the router's source, so a new route cannot escape.)
    let routes = common::registered_routes();
    assert!(routes.len() > 100, "found {} routes", routes.len());
    let uncovered: Vec<&String> = routes
        .iter()
        .filter(|(_, get, _)| *get)
        .map(|(pattern, ..)| pattern)
        .filter(|pattern| {
            !table
                .iter()
                .any(|(path, _)| common::matches_pattern(pattern, path.split('?').next().unwrap()))
        })
        .collect();
    assert!(
        uncovered.is_empty(),
        "GET routes missing from the table: {uncovered:?}"
    );

    // POSTs, with each role's own valid CSRF token and an empty form: staff actions refuse
    // visitors (sign in), investors and fund members (403); superadmin sections refuse admins;
    // /vc-dashboard refuses everyone but fund members; nothing answers a server error.
    let token_of = |browser: &reqwest::Client| {
        let browser = browser.clone();
        let url = server.url("/newsletter");
        async move { csrf_of(&common::text(&browser, url).await) }
    };
    let clients = [
        (&visitor, "visitor"),
        (&investor, "investor"),
        (&corporate, "corporate investor"),
        (&admin, "admin"),
        (&superadmin, "superadmin"),
        (&fund_member, "fund member"),
    ];
    let mut tokens = Vec::new();
    for (browser, _) in &clients {
        tokens.push(token_of(browser).await);
    }
    // The route table is the data: each POST is refused exactly as its declared access says.
    // The declarations themselves are checked against the spec's roles first.
    let table = common::route_table();
    const MEMBER_ONLY: [&str; 11] = [
        "/boardingFlow/",
        "/profile/",
        "/favorites/",
        "/mkk",
        "/investmentFlow",
        "/api/investmentRequests",
        "/pendingInvestments/",
        "/invFlow/card",
        "/invFlow/bank",
        "/sandbox/3ds/",
        "/qualifiedInvestor",
    ];
    const SUPERADMIN_ONLY: [&str; 7] = [
        "/dashboard/investments",
        "/dashboard/takasbank",
        "/dashboard/vcGroups",
        "/dashboard/vipgroups",
        "/dashboard/qualifiedUsers",
        "/dashboard/audit",
        "/dashboard/mailbox",
    ];
    for route in &table {
        let expected = if route.path.starts_with("/vc-dashboard") {
            "fund"
        } else if SUPERADMIN_ONLY.iter().any(|p| route.path.starts_with(p))
            || route.path.starts_with("/dashboard/pre-investments")
            // Closing a round early and the clearing bank's refund list (IBANs, names).
            || (route.path.starts_with("/dashboard/rounds/")
                && (route.path.ends_with("/close") || route.path.ends_with("/refunds.csv")))
            || route.path == "/dashboard/users/{id}/2fa"
            || route.path == "/dashboard/users/{id}/identity-unlock"
            || route.path == "/dashboard/users/{id}/committee"
        {
            "super-admin"
        } else if route.path.starts_with("/dashboard/committee") {
            "committee"
        } else if route.path.starts_with("/dashboard") {
            "staff"
        } else if route.method == "POST" && MEMBER_ONLY.iter().any(|p| route.path.starts_with(p)) {
            "member"
        } else {
            continue;
        };
        assert_eq!(
            route.access, expected,
            "{} {} is declared {}",
            route.method, route.path, route.access
        );
    }
    for route in table
        .iter()
        .filter(|r| r.method == "POST" && r.path != "/logout")
    {
        let pattern = &route.path;
        let path = pattern
            .split('/')
            .map(|seg| if seg.starts_with('{') { "1" } else { seg })
            .collect::<Vec<_>>()
            .join("/");
        let api = pattern.starts_with("/api/");
        for ((browser, role), token) in clients.iter().zip(&tokens) {
            let request = browser
                .post(server.url(&path))
                .header("origin", server.base.as_str())
                .header("x-csrf-token", token.as_str());
            let response = if api {
                request.json(&serde_json::json!({})).send().await.unwrap()
            } else {
                request
                    .multipart(reqwest::multipart::Form::new().text("csrf", token.clone()))
                    .send()
                    .await
                    .unwrap()
            };
            let status = response.status().as_u16();
            let signin = response
                .headers()
                .get("location")
                .is_some_and(|l| l.to_str().unwrap().starts_with("/signin?next="));
            assert!(status < 500, "POST {path} as {role}: {status}");
            let allowed = match (route.access.as_str(), *role) {
                ("public", _) => true,
                (_, "visitor") => false,
                ("member", _) => true,
                ("staff", "admin" | "superadmin") => true,
                ("super-admin", "superadmin") => true,
                ("committee", "admin") => true,
                ("fund", "fund member") => true,
                _ => false,
            };
            if !allowed {
                let refused = if *role == "visitor" {
                    signin || (api && status == 401)
                } else {
                    status == 403
                };
                assert!(refused, "POST {path} as {role} must be refused: {status}");
            }
        }
    }
}

#[tokio::test]
async fn an_investor_cannot_reach_another_investors_request_or_payment() {
    use common::journeys::{csrf, post_form, sign_up};
    let data = TempDir::new().unwrap();
    create_admin(&data, "super@example.com", true);
    let server = Server::start_in(data, &[("ORTAK_DEMO", "1")]);
    let owner = sign_up(&server, "sahip@example.com").await;
    common::money::verify_email(&server, "sahip@example.com").await;
    common::money::make_qualified(&server, "sahip@example.com").await;
    let token = csrf(&owner, &server, "/mkk").await;
    let mkk: Vec<(&str, String)> = [
        ("investor_type", "individual"),
        ("citizen", "yes"),
        ("id_type", "tckn"),
        ("first_name", "Ayşe"),
        ("last_name", "Yılmaz"),
        ("email", "sahip@example.com"),
        ("phone", "05321234567"),
        ("annual_income", "750.000"),
        ("identity_number", "10000000146"),
        ("birth_date", "1984-02-29"),
    ]
    .iter()
    .map(|(k, v)| (*k, (*v).to_owned()))
    .collect();
    assert_eq!(
        post_form(&owner, server.url("/mkk"), &token, &mkk)
            .await
            .status(),
        303
    );
    common::money::verify_mkk(&server, "sahip@example.com").await;
    common::money::open_information_form(&server, &owner, "cemre-enerji").await;
    let page = common::text(&owner, server.url("/investmentFlow?startup=cemre-enerji")).await;
    let key = page
        .split("name=\"idempotency_key\" value=\"")
        .nth(1)
        .unwrap()
        .split('"')
        .next()
        .unwrap()
        .to_owned();
    let sent = post_form(
        &owner,
        server.url("/investmentFlow"),
        &csrf_of(&page),
        &[
            ("startup", "cemre-enerji".into()),
            ("amount", "150.000".into()),
            ("risk", "on".into()),
            ("idempotency_key", key),
        ],
    )
    .await;
    assert_eq!(sent.status(), 303);
    let id: i64 = sqlx::query_scalar(
        "SELECT id FROM investment_requests WHERE idempotency_key NOT LIKE 'demo-%'",
    )
    .fetch_one(&server.db().await)
    .await
    .unwrap();
    let (superadmin, _, _) = sign_in(&server, "super@example.com", "parola-1234", "/").await;
    let list = common::text(&superadmin, server.url("/dashboard/investments")).await;
    let approved = post_form(
        &superadmin,
        server.url(&format!("/dashboard/investments/{id}/status")),
        &csrf_of(&list),
        &[("to", "approved".into())],
    )
    .await;
    assert_eq!(approved.status(), 303);
    assert_eq!(
        owner
            .get(server.url(&format!("/invFlow?request={id}")))
            .send()
            .await
            .unwrap()
            .status(),
        200,
        "the owner pays"
    );

    let stranger = sign_up(&server, "yabanci@example.com").await;
    for path in [
        format!("/invFlow?request={id}"),
        format!("/paymentSuccess?request={id}"),
        format!("/paymentFail?request={id}"),
    ] {
        let status = stranger
            .get(server.url(&path))
            .send()
            .await
            .unwrap()
            .status();
        assert_eq!(status, 404, "{path} is invisible to another investor");
    }
    let token = csrf(&stranger, &server, "/newsletter").await;
    for path in ["/invFlow/card", "/invFlow/bank"] {
        let response = post_form(
            &stranger,
            server.url(path),
            &token,
            &[("request", id.to_string())],
        )
        .await;
        assert_eq!(response.status(), 404, "POST {path} for another's request");
    }
    let cancel = post_form(
        &stranger,
        server.url(&format!("/pendingInvestments/{id}/cancel")),
        &token,
        &[],
    )
    .await;
    assert_eq!(cancel.status(), 404);
    let pending = common::text(&stranger, server.url("/pendingInvestments")).await;
    assert!(!pending.contains("Cemre"), "nor listed for them");
    let status: String = sqlx::query_scalar("SELECT status FROM investment_requests WHERE id = ?")
        .bind(id)
        .fetch_one(&server.db().await)
        .await
        .unwrap();
    assert_eq!(status, "approved", "nothing changed");
}

/// One byte-for-byte valid 1×1 PNG.
const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01\x08\x06\0\0\0\x1f\x15\xc4\x89\0\0\0\rIDATx\x9cc\xf8\x0f\x00\x00\x01\x01\x00\x05\x18\xd8N\0\0\0\0IEND\xaeB`\x82";

#[tokio::test]
async fn stored_files_and_reports_open_only_for_those_allowed() {
    use Expect::*;
    use common::journeys::{csrf, post_form, sign_up};
    use reqwest::multipart::{Form, Part};
    let data = TempDir::new().unwrap();
    create_admin(&data, "admin@example.com", false);
    create_admin(&data, "super@example.com", true);
    let server = Server::start_in(data, &[("ORTAK_DEMO", "1")]);
    let db = server.db().await;
    let owner = sign_up(&server, "sahip@example.com").await;
    let other = sign_up(&server, "diger@example.com").await;
    let (admin, _, _) = sign_in(&server, "admin@example.com", "parola-1234", "/").await;
    let (superadmin, _, _) = sign_in(&server, "super@example.com", "parola-1234", "/").await;
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

    // The owner's profile photo.
    let token = csrf(&owner, &server, "/profile").await;
    let form = Form::new()
        .text("csrf", token.clone())
        .part("image", Part::bytes(PNG).file_name("ben.png"));
    let photo = owner
        .post(server.url("/profile/image"))
        .multipart(form)
        .send()
        .await
        .unwrap();
    assert_eq!(photo.status(), 303);
    let avatar: String =
        sqlx::query_scalar("SELECT profile_image FROM users WHERE email = 'sahip@example.com'")
            .fetch_one(&db)
            .await
            .unwrap();
    // The owner's qualified-investor evidence (an address must be verified to declare).
    sqlx::query("UPDATE users SET email_verified_at = '2026-11-01T00:00:00Z' WHERE email = ?")
        .bind("sahip@example.com")
        .execute(&db)
        .await
        .unwrap();
    let form = Form::new()
        .text("csrf", token.clone())
        .text("basis", "income")
        .text("declare", "on")
        .part(
            "evidence",
            Part::bytes(b"%PDF-1.7 kanit".to_vec()).file_name("kanit.pdf"),
        );
    let declared = owner
        .post(server.url("/qualifiedInvestor"))
        .multipart(form)
        .send()
        .await
        .unwrap();
    assert_eq!(declared.status(), 303);
    let declaration: i64 = sqlx::query_scalar("SELECT id FROM qualified_declarations WHERE user_id NOT IN (SELECT id FROM users WHERE email LIKE '%@demo.ortak.local')")
        .fetch_one(&db)
        .await
        .unwrap();
    // The owner's startup application with its presentation.
    let page = common::text(&owner, server.url("/projectFlow/1")).await;
    let form = Form::new()
        .text("csrf", csrf_of(&page))
        .text("name", "Dosya Girişimi")
        .text("sector", "fintech")
        .text("country", "Türkiye")
        .text("city", "Ankara")
        .text("description", "Açıklama")
        .part(
            "presentation",
            Part::bytes(b"%PDF-1.4 sunum".to_vec()).file_name("sunum.pdf"),
        );
    let applied = owner
        .post(server.url("/projectFlow/1"))
        .multipart(form)
        .send()
        .await
        .unwrap();
    assert_eq!(applied.status(), 303);
    sqlx::query("UPDATE startup_applications SET status = 'new', next_step = 5")
        .execute(&db)
        .await
        .unwrap();
    let application: i64 = sqlx::query_scalar("SELECT id FROM startup_applications")
        .fetch_one(&db)
        .await
        .unwrap();
    // A quarterly report of the fund team's startup: readable by the startup's investors (the
    // owner, whose request reached money), its fund team and staff; not by an investor who
    // merely saved the startup as a favourite.
    let (report, slug): (i64, String) = sqlx::query_as(
        "SELECT r.id, s.slug FROM reports r JOIN startups s ON s.id = r.startup_id
         WHERE s.fund_id = 1 LIMIT 1",
    )
    .fetch_one(&db)
    .await
    .unwrap();
    // (Written directly through the moves the database allows, the fee in the ledger: the money
    // path has its own tests.)
    sqlx::query(
        "INSERT INTO investment_requests (user_id, startup_id, kind, amount_kurus, fee_kurus,
             fee_added, investment_kurus, total_kurus, status, risk_accepted_at, idempotency_key,
             cancel_until, information_form_id)
         SELECT u.id, s.id, 'investment', 10000000, 250000, 1, 10000000, 10250000, 'submitted',
             '2026-11-01T00:00:00Z', 'rol-yatirim', '2026-11-03T00:00:00Z',
             (SELECT MAX(d.id) FROM round_documents d WHERE d.startup_id = s.id AND d.kind = 'information-form')
         FROM users u, startups s WHERE u.email = 'sahip@example.com' AND s.slug = ?",
    )
    .bind(&slug)
    .execute(&db)
    .await
    .unwrap();
    sqlx::query(
        "INSERT INTO mkk_profiles (user_id, investor_type, turkish_citizen, id_type, first_name,
             last_name, email, phone, annual_income_kurus, identity_number, birth_date, status)
         SELECT id, 'individual', 1, 'tckn', 'Ayşe', 'Yılmaz', email, '+905321234567', 0,
             '10000000146', '1984-02-29', 'verified' FROM users WHERE email = 'sahip@example.com'
         ON CONFLICT (user_id) DO UPDATE SET status = 'verified';
         UPDATE investment_requests SET status = 'approved' WHERE idempotency_key = 'rol-yatirim';
         INSERT INTO money_events (request_id, kind, amount_kurus, note)
             SELECT id, 'fee_paid', 250000, 'test' FROM investment_requests
             WHERE idempotency_key = 'rol-yatirim';
         UPDATE investment_requests SET status = 'fee_paid', fee_paid_at = '2026-11-02T00:00:00Z'
             WHERE idempotency_key = 'rol-yatirim';",
    )
    .execute(&db)
    .await
    .unwrap();
    let token = csrf(&other, &server, &format!("/startups/{slug}")).await;
    let followed = post_form(
        &other,
        server.url(&format!("/favorites/{slug}")),
        &token,
        &[("favorite", "1".into()), ("return", "/favorites".into())],
    )
    .await;
    assert_eq!(followed.status(), 303);

    // route: visitor, owner, another investor, admin, superadmin, fund-team member
    let table: [(String, [Expect; 6]); 4] = [
        (
            format!("/api/file/{avatar}"),
            [Unauthorized, Ok, Forbidden, Ok, Ok, Forbidden],
        ),
        (
            format!("/dashboard/qualifiedUsers/{declaration}/evidence"),
            [SignIn, Forbidden, Forbidden, Forbidden, Ok, Forbidden],
        ),
        (
            format!("/dashboard/applications/{application}/presentation"),
            [SignIn, Forbidden, Forbidden, Ok, Ok, Forbidden],
        ),
        (
            format!("/reports/{report}/file"),
            [SignIn, Ok, NotFound, Ok, Ok, Ok],
        ),
    ];
    let visitor = client();
    let mut wrong = Vec::new();
    for (path, expected) in &table {
        for (browser, role, expect) in [
            (&visitor, "visitor", expected[0]),
            (&owner, "owner", expected[1]),
            (&other, "another investor", expected[2]),
            (&admin, "admin", expected[3]),
            (&superadmin, "superadmin", expected[4]),
            (&fund_member, "fund member", expected[5]),
        ] {
            let response = browser.get(server.url(path)).send().await.unwrap();
            let got = match (
                response.status().as_u16(),
                response.headers().get("location"),
            ) {
                (200, _) => Ok,
                (303, Some(l)) if l.to_str().unwrap().starts_with("/signin?next=") => SignIn,
                (401, _) => Unauthorized,
                (403, _) => Forbidden,
                (404, _) => NotFound,
                (status, _) => panic!("{path} as {role}: {status}"),
            };
            if got != expect {
                wrong.push(format!("{path} as {role}: {got:?}, expected {expect:?}"));
            }
            if got == Ok {
                // Stored files are sandboxed and never sniffed.
                let csp = response.headers()["content-security-policy"]
                    .to_str()
                    .unwrap();
                assert!(csp.contains("sandbox"), "{path}: {csp}");
                assert_eq!(response.headers()["x-content-type-options"], "nosniff");
            }
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}
