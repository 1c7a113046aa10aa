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
pub mod terms;
pub mod tokens;
pub mod two_factor;
pub mod verification;

/// Every version of the terms a member accepted (their document vault lists them).
pub use queries::terms::of_user as terms_of_user;

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

/// Sign-ups and password resets one address may send (each costs an argon2 hash).
const HASHING_PER_IP: Limit = Limit {
    max: 20,
    window: 15 * 60,
};
/// Sign-ups with one e-mail address (a new and a taken one alike).
const SIGNUP_PER_ADDRESS: Limit = Limit {
    max: 10,
    window: 15 * 60,
};

/// The limits on requests that hash a password: per address, and per e-mail address if given.
fn hashing_limits(ctx: &Ctx, what: &str, email: Option<&str>) -> Vec<(String, Limit)> {
    let mut checks = vec![(format!("{what}:ip:{}", ctx.ip), HASHING_PER_IP)];
    if let Some(email) = email {
        checks.push((format!("{what}:account:{email}"), SIGNUP_PER_ADDRESS));
    }
    checks
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
        .get("/signin/terms", terms::form)
        .post("/signin/terms", terms::accept)
        .post("/logout", signin::signout)
        .get("/verification", verification::page)
        .post("/verification", verification::resend)
        .get("/verificationtoken", verification::confirm_page)
        .post("/verificationtoken", verification::verify)
        .get("/forgotpassword", recovery::forgot_form)
        .post("/forgotpassword", recovery::forgot)
        .get("/forgot-password", recovery::forgot_form)
        .post("/forgot-password", recovery::forgot)
        .get("/resetpassword", recovery::reset_form)
        .post("/resetpassword", recovery::reset)
        .get("/signin/2fa", two_factor::signin::code_form)
        .post("/signin/2fa", two_factor::signin::submit_code)
        .get("/signin/2fa/setup", two_factor::signin::setup_form)
        .post("/signin/2fa/setup", two_factor::signin::setup);
    let member = Routes::new(Access::Member)
        .get("/boardingFlow/success", onboarding::done)
        .get("/boardingFlow/{step}", onboarding::step_form)
        .post("/boardingFlow/{step}", onboarding::save_step)
        .get("/profile", profile::page)
        .post("/profile/info", profile::save_info)
        .post("/profile/preferences", profile::save_preferences)
        .post("/profile/investor", profile::save_investor)
        .post("/profile/notifications", profile::notifications::save)
        .post("/profile/password", profile::password::change)
        .get("/profile/2fa", two_factor::profile::enrol_form)
        .post("/profile/2fa", two_factor::profile::enrol)
        .post("/profile/2fa/recovery", two_factor::profile::renew_codes)
        .post("/profile/2fa/disable", two_factor::profile::disable)
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
