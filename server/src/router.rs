//! Application state and the route table.

use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::{DefaultBodyLimit, Request};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use sqlx::SqlitePool;
use tower_sessions::cookie::SameSite;
use tower_sessions::{Expiry, SessionManagerLayer};
use tower_sessions_sqlx_store::SqliteStore;

use crate::error::AppError;
use crate::mail::worker::MailWaker;
use crate::{
    accounts, applications, assets, content, content_admin, context, dashboard, groups_admin,
    input_screen, investing, mail, newsletter, payments, qualified, startup_admin, startups,
    user_admin, vc_dashboard,
};

/// Per-process data every handler can reach.
pub struct Shared {
    pub db: SqlitePool,
    /// Scheme and host users reach us at, without a trailing slash.
    pub public_url: String,
    /// Whether the site is served over HTTPS (Secure cookies, HSTS).
    pub secure_cookies: bool,
    /// A session unused this long ends.
    pub session_idle: time::Duration,
    /// A session ends this long after sign-in.
    pub session_max: time::Duration,
    pub assets: ortak_app::shell::Assets,
    /// Wakes the mail worker after a mail was queued.
    pub mail_waker: MailWaker,
    /// The professional-network sign-in, when configured.
    pub oidc: Option<Arc<accounts::oidc::Oidc>>,
    /// The service fee, in basis points of the amount (250 = 2.5%).
    pub service_fee_bp: i64,
    /// The e-government identity check, when configured.
    pub identity_check: Option<investing::edevlet::IdentityCheck>,
    /// The card payment provider (the built-in sandbox unless an adapter is configured).
    pub payments: Box<dyn payments::PaymentProvider>,
    /// Signs and checks payment callbacks.
    pub callback_key: payments::CallbackKey,
    /// The escrow account investors transfer to.
    pub escrow: payments::Escrow,
    /// Where staff notices about new applications and messages go.
    pub staff_email: String,
    /// The data folder (database and uploads).
    pub data_dir: std::path::PathBuf,
    /// The session store, for bearer tokens (a session's id) on the API.
    pub sessions: SqliteStore,
    /// Public pages as anonymous visitors see them, for a couple of seconds.
    pub page_cache: crate::page_cache::PageCache,
}

#[derive(Clone)]
pub struct AppState(Arc<Shared>);

impl AppState {
    pub fn new(shared: Shared) -> AppState {
        AppState(Arc::new(shared))
    }

    pub fn shared(&self) -> &Shared {
        &self.0
    }

    pub fn db(&self) -> &SqlitePool {
        &self.0.db
    }

    pub fn wake_mailer(&self) {
        self.0.mail_waker.wake();
    }
}

/// Behind HTTPS the session cookie is `__Host-` prefixed: browsers then only accept it
/// Secure, from this host, for every path, so a sibling subdomain cannot plant one.
pub fn session_cookie_name(secure: bool) -> &'static str {
    if secure {
        "__Host-ortak_session"
    } else {
        "ortak_session"
    }
}

/// Every route of the platform.
pub fn build(state: AppState) -> Router {
    let shared = state.shared();
    let sessions = SessionManagerLayer::new(shared.sessions.clone())
        .with_name(session_cookie_name(shared.secure_cookies))
        .with_http_only(true)
        .with_same_site(SameSite::Lax)
        .with_secure(shared.secure_cookies)
        .with_expiry(Expiry::OnInactivity(shared.session_idle));

    Router::new()
        .route("/", get(content::home))
        .route("/politikalar/{slug}", get(content::policy))
        .route("/techinvestor", get(content::techinvestor))
        .route("/faq", get(content::faq))
        .route("/blog", get(content::blog_index))
        .route("/blog/{slug}", get(content::blog_post))
        .route("/sitemap.xml", get(content::sitemap))
        .route("/robots.txt", get(content::robots))
        .route(
            "/newsletter",
            get(newsletter::page).post(newsletter::subscribe_form),
        )
        .route("/api/newsletter", post(newsletter::subscribe_json))
        .route("/signup", get(accounts::signup_form).post(accounts::signup))
        .route(
            "/register",
            get(accounts::signup_form).post(accounts::signup),
        )
        .route("/signin", get(accounts::signin_form).post(accounts::signin))
        .route("/login", get(accounts::signin_form).post(accounts::signin))
        .route(
            "/signin/link",
            get(accounts::signin_link_page).post(accounts::request_signin_link),
        )
        .route("/signin/link/use", post(accounts::signin_with_link))
        .route("/signin/oidc", get(accounts::oidc::start))
        .route("/signin/oidc/callback", get(accounts::oidc::callback))
        .route(
            "/signin/oidc/terms",
            get(accounts::oidc::terms_form).post(accounts::oidc::accept_terms),
        )
        .route("/logout", post(accounts::signout))
        .route(
            "/verification",
            get(accounts::verification).post(accounts::resend_verification),
        )
        .route("/verificationtoken", get(accounts::verify_token))
        .route(
            "/forgotpassword",
            get(accounts::forgot_form).post(accounts::forgot),
        )
        .route(
            "/forgot-password",
            get(accounts::forgot_form).post(accounts::forgot),
        )
        .route(
            "/resetpassword",
            get(accounts::reset_form).post(accounts::reset),
        )
        .route("/boardingFlow/success", get(accounts::onboarding::done))
        .route(
            "/boardingFlow/{step}",
            get(accounts::onboarding::step_form).post(accounts::onboarding::save_step),
        )
        .route("/profile", get(accounts::profile::page))
        .route("/profile/info", post(accounts::profile::save_info))
        .route(
            "/profile/preferences",
            post(accounts::profile::save_preferences),
        )
        .route("/profile/investor", post(accounts::profile::save_investor))
        .route(
            "/profile/password",
            post(accounts::profile::change_password),
        )
        .route(
            "/profile/image",
            post(accounts::profile::upload_image).layer(DefaultBodyLimit::max(
                accounts::profile::IMAGE_MAX_BYTES + 64 * 1024,
            )),
        )
        .route("/profile/export", get(accounts::profile::export))
        .route("/profile/delete", post(accounts::profile::delete))
        .route("/api/file/{filename}", get(accounts::profile::file))
        .route("/startups", get(startups::list))
        .route("/startups/{slug}", get(startups::detail))
        .route(
            "/startups/{slug}/pages/{n}",
            get(startups::presentation_page),
        )
        .route("/favorites", get(startups::favorites))
        .route("/favorites/{slug}", post(startups::toggle_favorite))
        .route("/mkk", get(investing::mkk::page).post(investing::mkk::save))
        .route(
            "/investmentFlow",
            get(investing::amount_page).post(investing::submit_form),
        )
        .route("/investmentFlow/created", get(investing::created))
        .route("/api/investmentRequests", post(investing::submit_json))
        .route("/pendingInvestments", get(investing::pending))
        .route("/pendingInvestments/{id}/cancel", post(investing::cancel))
        .route("/userInvestments", get(investing::mine))
        .route("/overview", get(investing::portfolio::overview))
        .route("/reports", get(investing::portfolio::reports))
        .route("/reports/{id}/file", get(investing::portfolio::report_file))
        .route("/invFlow", get(payments::flow))
        .route("/invFlow/card", post(payments::pay_card))
        .route("/invFlow/callback", get(payments::callback))
        .route("/invFlow/bank", post(payments::bank))
        .route(
            "/sandbox/3ds/{payment}",
            get(payments::sandbox_page).post(payments::sandbox_answer),
        )
        .route("/paymentSuccess", get(payments::success))
        .route("/paymentFail", get(payments::fail))
        .route("/dashboard", get(dashboard::home))
        .route("/dashboard/users", get(dashboard::users))
        .route("/dashboard/users.json", get(dashboard::users))
        .route("/dashboard/users/{id}/mkk", post(dashboard::review_mkk))
        .route("/dashboard/applications", get(dashboard::applications))
        .route("/dashboard/applications.json", get(dashboard::applications))
        .route(
            "/dashboard/applications/{id}",
            get(dashboard::application_page),
        )
        .route(
            "/dashboard/applications/{id}/status",
            post(dashboard::application_status),
        )
        .route(
            "/dashboard/applications/{id}/presentation",
            get(dashboard::application_presentation),
        )
        .route("/dashboard/contacts", get(dashboard::contacts))
        .route("/dashboard/contacts.json", get(dashboard::contacts))
        .route("/dashboard/contacts.csv", get(dashboard::contacts))
        .route(
            "/dashboard/contacts/{id}/handled",
            post(dashboard::contact_handled),
        )
        .route("/dashboard/gsyf", get(dashboard::gsyf))
        .route("/dashboard/gsyf.json", get(dashboard::gsyf))
        .route("/dashboard/gsyf.csv", get(dashboard::gsyf))
        .route(
            "/dashboard/gsyf/{id}/handled",
            post(dashboard::gsyf_handled),
        )
        .route("/dashboard/academy", get(dashboard::academy))
        .route("/dashboard/academy.json", get(dashboard::academy))
        .route("/dashboard/academy.csv", get(dashboard::academy))
        .route(
            "/dashboard/academy/{id}/handled",
            post(dashboard::academy_handled),
        )
        .route("/dashboard/newsletter", get(dashboard::newsletter))
        .route("/dashboard/newsletter.json", get(dashboard::newsletter))
        .route("/dashboard/newsletter.csv", get(dashboard::newsletter_csv))
        .route(
            "/dashboard/newsletter/{id}/unsubscribe",
            post(dashboard::unsubscribe),
        )
        .route("/dashboard/audit", get(dashboard::audit_log))
        .route("/dashboard/audit.json", get(dashboard::audit_log))
        .route("/dashboard/takasbank", get(dashboard::takasbank))
        .route("/dashboard/takasbank.json", get(dashboard::takasbank))
        .route(
            "/dashboard/takasbank/{id}/received",
            post(dashboard::transfer_received),
        )
        .route("/dashboard/faq", get(content_admin::faq_list))
        .route("/dashboard/faq.json", get(content_admin::faq_list))
        .route(
            "/dashboard/faq/new",
            get(content_admin::faq_new).post(content_admin::faq_create),
        )
        .route(
            "/dashboard/faq/{id}",
            get(content_admin::faq_edit).post(content_admin::faq_update),
        )
        .route("/dashboard/blogs", get(content_admin::blog_list))
        .route("/dashboard/blogs.json", get(content_admin::blog_list))
        .route(
            "/dashboard/blogs/new",
            get(content_admin::blog_new).post(content_admin::blog_create),
        )
        .route(
            "/dashboard/blogs/{id}",
            get(content_admin::blog_edit).post(content_admin::blog_update),
        )
        .route("/dashboard/investments", get(investing::staff::investments))
        .route(
            "/dashboard/investments.json",
            get(investing::staff::investments),
        )
        .route(
            "/dashboard/pre-investments",
            get(investing::staff::pre_investments),
        )
        .route(
            "/dashboard/pre-investments.json",
            get(investing::staff::pre_investments),
        )
        .route(
            "/dashboard/investments/{id}/status",
            post(investing::staff::move_request),
        )
        .route(
            "/contactUs",
            get(applications::contact_form).post(applications::contact),
        )
        .route(
            "/gsyf",
            get(applications::gsyf_form).post(applications::gsyf),
        )
        .route(
            "/academy",
            get(applications::academy_form).post(applications::academy),
        )
        .route("/projectFlow/done", get(applications::startup::done))
        .route(
            "/projectFlow/1",
            get(applications::startup::first_form)
                .post(applications::startup::save_first)
                .layer(DefaultBodyLimit::max(
                    applications::startup::UPLOAD_BODY_LIMIT,
                )),
        )
        .route(
            "/projectFlow/{step}",
            get(applications::startup::step_form).post(applications::startup::save_step),
        )
        .route("/api/getProfile", get(accounts::api::get_profile))
        .route("/api/getProfileImg", get(accounts::api::get_profile_image))
        .route("/dashboard/mailbox", get(mail::mailbox::page))
        .route(
            "/dashboard/investments/{id}",
            get(investing::staff::request_page),
        )
        .route(
            "/dashboard/investments/{id}/contacted",
            post(investing::staff::contacted),
        )
        .route("/dashboard/users/{id}", get(user_admin::page))
        .route("/dashboard/users/{id}/role", post(user_admin::change_role))
        .route("/dashboard/users/{id}/active", post(user_admin::set_active))
        .route(
            "/dashboard/vcGroups",
            get(groups_admin::vc_groups).post(groups_admin::fund_create),
        )
        .route("/dashboard/vcGroups/new", get(groups_admin::fund_new))
        .route("/dashboard/vcGroups.json", get(groups_admin::vc_groups))
        .route(
            "/dashboard/vcGroups/{id}/members",
            post(groups_admin::vc_member),
        )
        .route(
            "/dashboard/vipgroups",
            get(groups_admin::vip_groups).post(groups_admin::vip_create),
        )
        .route("/dashboard/vipgroups.json", get(groups_admin::vip_groups))
        .route("/dashboard/vipgroups/new", get(groups_admin::vip_new))
        .route(
            "/dashboard/vipgroups/{id}",
            get(groups_admin::vip_page).post(groups_admin::vip_change),
        )
        .route("/dashboard/autoMail", get(mail::templates::list))
        .route("/dashboard/autoMail.json", get(mail::templates::list))
        .route(
            "/dashboard/autoMail/{kind}",
            get(mail::templates::edit).post(mail::templates::save),
        )
        .route("/vc-dashboard", get(vc_dashboard::home))
        .route("/vc-dashboard/startups/{id}", get(vc_dashboard::startup))
        .route(
            "/vc-dashboard/startups/{id}/updates",
            post(vc_dashboard::post_update),
        )
        .route(
            "/vc-dashboard/startups/{id}/reports",
            post(vc_dashboard::post_report).layer(DefaultBodyLimit::max(
                startup_admin::REPORT_MAX_BYTES + 64 * 1024,
            )),
        )
        .route(
            "/qualifiedInvestor",
            get(qualified::form)
                .post(qualified::submit)
                .layer(DefaultBodyLimit::max(
                    qualified::EVIDENCE_MAX_BYTES + 64 * 1024,
                )),
        )
        .route("/dashboard/qualifiedUsers", get(qualified::list))
        .route("/dashboard/qualifiedUsers.json", get(qualified::list))
        .route("/dashboard/qualifiedUsers/{id}", post(qualified::decide))
        .route(
            "/dashboard/qualifiedUsers/{id}/evidence",
            get(qualified::evidence),
        )
        .route(
            "/dashboard/academy/events",
            get(dashboard::academy_events).post(dashboard::add_academy_event),
        )
        .route("/dashboard/startups", get(startup_admin::list))
        .route("/dashboard/startups.json", get(startup_admin::list))
        .route(
            "/dashboard/startups/new",
            get(startup_admin::new)
                .post(startup_admin::create)
                .layer(DefaultBodyLimit::max(EDITOR_BODY_LIMIT)),
        )
        .route(
            "/dashboard/startups/{id}",
            get(startup_admin::edit)
                .post(startup_admin::update)
                .layer(DefaultBodyLimit::max(EDITOR_BODY_LIMIT)),
        )
        .route(
            "/dashboard/startups/{id}/pages",
            post(startup_admin::add_page).layer(DefaultBodyLimit::max(
                startup_admin::PAGE_MAX_BYTES + 64 * 1024,
            )),
        )
        .route(
            "/dashboard/startups/{id}/pages/{n}/delete",
            post(startup_admin::remove_page),
        )
        .route(
            "/dashboard/startups/{id}/reports",
            post(startup_admin::add_report).layer(DefaultBodyLimit::max(
                startup_admin::REPORT_MAX_BYTES + 64 * 1024,
            )),
        )
        .route(
            "/dashboard/applications/{id}/startup",
            post(startup_admin::from_application),
        )
        .route("/healthz", get(health))
        .fallback(static_or_not_found)
        // Inside the context middleware, which renders its refusals in the user's language.
        .layer(axum::middleware::from_fn(input_screen::middleware))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            context::middleware,
        ))
        .layer(sessions)
        // Pages and JSON; embedded static files arrive already compressed and are left alone.
        .layer(tower_http::compression::CompressionLayer::new())
        .layer(DefaultBodyLimit::max(64 * 1024))
        .layer(tower_http::timeout::TimeoutLayer::with_status_code(
            axum::http::StatusCode::REQUEST_TIMEOUT,
            Duration::from_secs(30),
        ))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            context::security_headers_middleware,
        ))
        .with_state(state)
}

/// The startup editor posts twelve sections in two languages.
const EDITOR_BODY_LIMIT: usize = input_screen::MAX_SCREENED_BODY;

async fn static_or_not_found(headers: HeaderMap, request: Request) -> Response {
    match assets::serve(request.uri(), &headers) {
        Some(response) => response,
        None => AppError::NotFound.into_response(),
    }
}

/// 200 when the database answers.
async fn health(
    axum::extract::State(state): axum::extract::State<AppState>,
) -> Result<&'static str, AppError> {
    sqlx::query("SELECT 1").execute(state.db()).await?;
    Ok("ok")
}
