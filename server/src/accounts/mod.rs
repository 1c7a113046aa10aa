//! Accounts: everything about a member's own account. Joining ([`signup`]), proving the
//! mailbox ([`verification`]), the three ways in (password in [`signin`], e-mailed links in
//! [`signin_link`], the professional network in [`oidc`]), password recovery ([`recovery`]),
//! [`onboarding`] after the first sign-in, the [`profile`] with its photo, export and deletion,
//! and the header's JSON [`api`]. Secrets live in [`tokens`] and [`passwords`]; `ortak
//! create-admin` in [`admins`]; all SQL in `queries/`.
//!
//! [`routes`] is the one place that says who may reach each of these pages.

pub mod admins;
pub mod api;
pub mod oidc;
pub mod onboarding;
pub mod passwords;
pub mod profile;
mod queries;
pub mod recovery;
pub mod signin;
pub mod signin_link;
pub mod signup;
pub mod tokens;
pub mod verification;

use sqlx::SqliteConnection;

use self::tokens::TokenKind;
use crate::db::rate_limits::{self as rate_limit, Limit};
use crate::error::AppError;
use crate::web::{Access, Ctx, Routes};

/// Counts a hit on each limit; `Some(minutes)` to wait when one of them is exceeded.
async fn limited(ctx: &Ctx, checks: &[(String, Limit)]) -> Result<Option<i64>, AppError> {
    for (key, limit) in checks {
        let now = ctx.state().now();
        if let Err(minutes) = rate_limit::hit(ctx.state().db(), now, key, *limit).await? {
            tracing::warn!(key, "rate limited");
            return Ok(Some(minutes));
        }
    }
    Ok(None)
}

/// The limits on mails to one address (and, for requests anyone can make, from one IP).
fn mail_limits(ctx: &Ctx, email: &str, per_ip: bool) -> Vec<(String, Limit)> {
    let mut checks = Vec::new();
    if per_ip {
        checks.push((format!("mail:ip:{}", ctx.ip), rate_limit::MAIL_PER_IP));
    }
    checks.push((
        format!("mail:account:{email}"),
        rate_limit::MAIL_PER_ACCOUNT,
    ));
    checks
}

fn rate_limited(ctx: &Ctx, minutes: i64) -> String {
    ctx.locale
        .t_args("rate-limited", &[("minutes", minutes.into())])
}

/// Issues a `kind` token for the user in the caller's transaction and returns the link that
/// carries it to `path`.
async fn token_link(
    conn: &mut SqliteConnection,
    ctx: &Ctx,
    user_id: i64,
    kind: TokenKind,
    path: &str,
) -> Result<String, sqlx::Error> {
    let token = tokens::issue(conn, user_id, kind, ctx.state().now()).await?;
    Ok(format!(
        "{}{path}?token={token}",
        ctx.state().shared().public_url
    ))
}

pub fn routes() -> Vec<Routes> {
    let public = Routes::new(Access::Public)
        .get("/signup", signup::form)
        .post("/signup", signup::signup)
        .get("/register", signup::form)
        .post("/register", signup::signup)
        .get("/signin", signin::form)
        .post("/signin", signin::signin)
        .get("/login", signin::form)
        .post("/login", signin::signin)
        .get("/signin/link", signin_link::page)
        .post("/signin/link", signin_link::request)
        .post("/signin/link/use", signin_link::use_link)
        .get("/signin/oidc", oidc::start)
        .get("/signin/oidc/callback", oidc::callback)
        .get("/signin/oidc/terms", oidc::terms_form)
        .post("/signin/oidc/terms", oidc::accept_terms)
        .post("/logout", signin::signout)
        .get("/verification", verification::page)
        .post("/verification", verification::resend)
        .get("/verificationtoken", verification::verify)
        .get("/forgotpassword", recovery::forgot_form)
        .post("/forgotpassword", recovery::forgot)
        .get("/forgot-password", recovery::forgot_form)
        .post("/forgot-password", recovery::forgot)
        .get("/resetpassword", recovery::reset_form)
        .post("/resetpassword", recovery::reset);
    let member = Routes::new(Access::Member)
        .get("/boardingFlow/success", onboarding::done)
        .get("/boardingFlow/{step}", onboarding::step_form)
        .post("/boardingFlow/{step}", onboarding::save_step)
        .get("/profile", profile::page)
        .post("/profile/info", profile::save_info)
        .post("/profile/preferences", profile::save_preferences)
        .post("/profile/investor", profile::save_investor)
        .post("/profile/password", profile::password::change)
        .post_limited(
            "/profile/image",
            profile::photo::upload,
            profile::photo::IMAGE_MAX_BYTES + 64 * 1024,
        )
        .get("/profile/export", profile::export::export)
        .post("/profile/delete", profile::deletion::delete)
        .get("/api/file/{filename}", profile::photo::file)
        .get("/api/getProfile", api::get_profile)
        .get("/api/getProfileImg", api::get_profile_image);
    vec![public, member]
}
