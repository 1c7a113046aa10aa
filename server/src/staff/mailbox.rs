//! `/dashboard/mailbox`: the outbox as staff read it. Without SMTP (the demo) this is where
//! verification, sign-in and reset mails can be read.

use axum::http::StatusCode;
use axum::response::Response;
use ortak_app::pages::mailbox::{OutboxMail, mailbox_page};
use time::format_description::well_known::Rfc3339;

use super::queries::mailbox as queries;
use crate::error::AppError;
use crate::web::{Access, Ctx, Routes, Staff};

pub async fn page(ctx: Ctx, _: Staff) -> Result<Response, AppError> {
    let mut mails = Vec::new();
    for r in queries::latest(ctx.state().db()).await? {
        mails.push(OutboxMail {
            to: r.to_email,
            subject: r.subject,
            text: r.text_body,
            // The page shows the stored code and UTC time as they are.
            status: r.status.code().to_owned(),
            created_at: r.created_at.format(&Rfc3339).map_err(anyhow::Error::from)?,
        });
    }
    let page = ctx.page_ctx(|pc| mailbox_page(pc, mails));
    Ok(ctx.render(StatusCode::OK, page).await)
}

pub fn routes() -> Routes {
    Routes::new(Access::Staff)
        .get("/dashboard/mailbox", page)
        .nav("mailbox-title")
}
