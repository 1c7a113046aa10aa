//! `/dashboard/mailbox`: the outbox as staff read it. Without SMTP (the demo) this is where
//! verification, sign-in and reset mails can be read.

use axum::http::StatusCode;
use axum::response::Response;
use ortak_app::pages::mailbox::{OutboxMail, mailbox_page};
use sqlx::FromRow;

use crate::error::AppError;
use crate::web::session::Role;
use crate::web::{Access, Ctx, Routes};

#[derive(FromRow)]
struct Row {
    to_email: String,
    subject: String,
    text_body: String,
    status: String,
    created_at: String,
}

pub async fn page(ctx: Ctx) -> Result<Response, AppError> {
    ctx.require(Role::Admin)?;
    let rows: Vec<Row> = sqlx::query_as(
        "SELECT to_email, subject, text_body, status, created_at FROM outbox ORDER BY id DESC LIMIT 100",
    )
    .fetch_all(ctx.state().db())
    .await?;
    let mails = rows
        .into_iter()
        .map(|r| OutboxMail {
            to: r.to_email,
            subject: r.subject,
            text: r.text_body,
            status: r.status,
            created_at: r.created_at,
        })
        .collect();
    let page = ctx.page_ctx(|pc| mailbox_page(pc, mails));
    Ok(ctx.render(StatusCode::OK, page).await)
}

pub fn routes() -> Routes {
    Routes::new(Access::Staff)
        .get("/dashboard/mailbox", page)
        .nav("mailbox-title")
}
