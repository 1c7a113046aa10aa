//! What every form of this area shares once its CSRF token passed: the spam screen (a
//! honeypot field and rate limits per address and per IP, no third parties) and the
//! acknowledgement (the sender's mail, staff's notice, the optional newsletter consent).

use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use ortak_app::i18n::Locale;
use serde::Deserialize;
use sqlx::SqliteConnection;

use crate::db::rate_limits::{self as rate_limit, Limit};
use crate::error::AppError;
use crate::mail::{Mail, enqueue};
use crate::web::{Ctx, flash};

/// Five submissions of one form per address, and twenty per IP, in fifteen minutes.
const PER_ADDRESS: Limit = Limit {
    max: 5,
    window: 15 * 60,
};
const PER_IP: Limit = Limit {
    max: 20,
    window: 15 * 60,
};

/// Fields every form carries besides its own.
#[derive(Deserialize, Default)]
#[serde(default)]
pub struct Common {
    /// The honeypot: people never see it, so anything in it is a bot's.
    pub fax: String,
    /// The optional newsletter consent.
    pub newsletter: Option<String>,
}

impl Common {
    pub fn wants_newsletter(&self) -> bool {
        self.newsletter.as_deref() == Some("on")
    }
}

/// Whether to request the newsletter for `email` with the form: the box was ticked and the
/// address is not over its confirmation-mail limit. Checked before the form's transaction.
pub async fn newsletter_request(ctx: &Ctx, wanted: bool, email: &str) -> Result<bool, AppError> {
    Ok(wanted && crate::newsletter::may_mail(ctx, email).await?)
}

/// Checks the honeypot and the rate limits of form `kind`. `Ok(Some(response))` ends the
/// request: a bot is told its message arrived, a flood is answered 429.
pub async fn screen(
    ctx: &Ctx,
    fax: &str,
    kind: &str,
    email: &str,
    back: &str,
) -> Result<Option<Response>, AppError> {
    if !fax.is_empty() {
        tracing::warn!(kind, ip = %ctx.ip, "honeypot filled; submission dropped");
        flash::success(ctx, "form-received").await?;
        return Ok(Some(Redirect::to(back).into_response()));
    }
    let mut checks = vec![(format!("form:{kind}:ip:{}", ctx.ip), PER_IP)];
    if let Ok(email) = ortak_app::domain::email::normalize_email(email) {
        checks.push((format!("form:{kind}:email:{email}"), PER_ADDRESS));
    }
    for (key, limit) in checks {
        let now = ctx.state().now();
        if let Err(minutes) = rate_limit::hit(ctx.state().db(), now, &key, limit).await? {
            return Ok(Some(too_many(ctx, minutes).await));
        }
    }
    Ok(None)
}

/// The 429 page: how many minutes to wait.
pub async fn too_many(ctx: &Ctx, minutes: i64) -> Response {
    let message = ctx
        .locale
        .t_args("rate-limited", &[("minutes", minutes.into())]);
    let page = ctx.page_ctx(|pc| ortak_app::pages::errors::bad_request_text(pc, message));
    ctx.render(StatusCode::TOO_MANY_REQUESTS, page).await
}

/// Who sent form `kind`, and what staff's notice lists.
pub struct Sender<'a> {
    pub kind: &'a str,
    pub email: &'a str,
    /// The sender's name, for staff's notice.
    pub name: &'a str,
    pub newsletter: bool,
    pub lines: &'a [(&'a str, &'a str)],
}

/// The sender's confirmation, staff's notice and the optional newsletter request, in `tx`.
/// The confirmation goes to an address the sender typed, which nobody proved is theirs: it is
/// Ortak's fixed text only (no greeting by name, no echo of the form), so the form cannot
/// send someone else a message written by a stranger.
pub async fn acknowledge(
    ctx: &Ctx,
    tx: &mut SqliteConnection,
    sender: Sender<'_>,
) -> Result<(), AppError> {
    let Sender {
        kind,
        email,
        name,
        newsletter,
        lines,
    } = sender;
    let home = ctx.state().shared().public_url.clone();
    enqueue(tx, &Mail::action(email, ctx.locale, "", kind, &home)).await?;
    let staff = &ctx.state().shared().staff_email;
    let subject = format!(
        "Yeni {}: {name}",
        Locale::Tr.t(&format!("{kind}-staff-label"))
    );
    enqueue(tx, &Mail::staff_notice(staff, &subject, lines)).await?;
    if newsletter {
        crate::newsletter::request(tx, ctx, email, kind).await?;
    }
    Ok(())
}

/// After the commit: the mails go out, and the sender reads `message` on `back`.
pub async fn received(ctx: &Ctx, message: &str, back: &str) -> Result<Response, AppError> {
    ctx.state().wake_mailer();
    flash::success(ctx, message).await?;
    Ok(Redirect::to(back).into_response())
}
