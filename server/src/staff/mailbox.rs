//! `/dashboard/mailbox` (superadmins): the outbox as it is stored. A demo and offline
//! convenience, not a way around the roles: no stored mail holds a usable link (sign-in, reset
//! and verification links are issued only as a mail is sent, `mail::links`), so the page shows
//! a placeholder where the link goes, and hides any `token=` value an older mail may hold.

use axum::http::StatusCode;
use axum::response::Response;
use ortak_app::pages::mailbox::{OutboxMail, mailbox_page};

use super::queries::mailbox as queries;
use crate::error::AppError;
use crate::mail::links::redact;
use crate::web::{Access, Ctx, Routes, SuperAdmin};

pub async fn page(ctx: Ctx, _: SuperAdmin) -> Result<Response, AppError> {
    let mut mails = Vec::new();
    for r in queries::latest(ctx.state().db()).await? {
        mails.push(OutboxMail {
            to: r.to_email,
            subject: r.subject,
            text: redact(&r.text_body),
            status: r.status.code(),
            created_at: r.created_at,
        });
    }
    let page = ctx.page_ctx(|pc| mailbox_page(pc, mails));
    Ok(ctx.render(StatusCode::OK, page).await)
}

pub fn routes() -> Routes {
    Routes::new(Access::SuperAdmin)
        .get("/dashboard/mailbox", page)
        .nav("mailbox-title")
}
