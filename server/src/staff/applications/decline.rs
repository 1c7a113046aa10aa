//! Declining an application (issue 28): never one click. `/dashboard/applications/{id}/decline`
//! says what will happen (the applicant is mailed the reason, in their language; the application
//! leaves the queue) and asks for the reason; the decline stores it, audits it and mails it.

use axum::extract::Path;
use axum::http::StatusCode;
use axum::response::Response;
use ortak_app::forms::FieldErrors;
use ortak_app::pages::dashboard::{Confirm, confirm_page};
use serde::Deserialize;

use crate::error::AppError;
use crate::mail::{Mail, enqueue};
use crate::staff::queries::applications::{self as queries, Application};
use crate::web::form::Form;
use crate::web::{Ctx, Staff};
use ortak_app::domain::project::ApplicationStatus;

async fn show(
    ctx: &Ctx,
    id: i64,
    status: StatusCode,
    (reason, errors): (String, FieldErrors),
) -> Result<Response, AppError> {
    let a = queries::application(ctx.state().db(), id)
        .await?
        .ok_or(AppError::NotFound)?;
    if a.status == ApplicationStatus::Declined {
        return Err(AppError::Refused(
            StatusCode::CONFLICT,
            "dashboard-app-declined-already",
        ));
    }
    let (name, email) = who(&a);
    let args = [("name", name.into()), ("email", email.into())];
    let effects = vec![
        ctx.locale.t_args("confirm-decline-mail", &args),
        ctx.t("confirm-decline-final"),
    ];
    let page = Confirm {
        title: ctx.t("dashboard-app-decline"),
        back: format!("/dashboard/applications/{id}"),
        effects,
        action: format!("/dashboard/applications/{id}/decline"),
        hidden: Vec::new(),
        reason: Some((ctx.t("confirm-decline-reason"), reason)),
        typed: None,
        button: ctx.t("dashboard-app-decline"),
        errors,
    };
    let page = ctx.page_ctx(|pc| confirm_page(pc, page));
    Ok(ctx.render(status, page).await)
}

/// The application's name and contact address, as the applicant gave them.
fn who(a: &Application) -> (String, String) {
    let get = |k: &str| {
        a.answers
            .get(k)
            .map_or_else(String::new, |v| v.trim().to_owned())
    };
    (get("name"), get("contact_email"))
}

/// `GET /dashboard/applications/{id}/decline`.
pub async fn page(ctx: Ctx, _: Staff, Path(id): Path<i64>) -> Result<Response, AppError> {
    show(
        &ctx,
        id,
        StatusCode::OK,
        (String::new(), FieldErrors::default()),
    )
    .await
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct DeclinePost {
    reason: String,
}

/// `POST /dashboard/applications/{id}/decline`: the reason is required and mailed.
pub async fn decline(
    ctx: Ctx,
    Staff { user: staff, .. }: Staff,
    Path(id): Path<i64>,
    Form(f): Form<DeclinePost>,
) -> Result<Response, AppError> {
    let reason: String = f.reason.trim().replace("\r\n", "\n");
    let mut errors = FieldErrors::default();
    if reason.is_empty() {
        errors.add("reason", "confirm-decline-reason-required");
    } else if reason.chars().count() > 2000 {
        errors.add("reason", "validation-too-long");
    }
    if !errors.is_empty() {
        return show(&ctx, id, StatusCode::UNPROCESSABLE_ENTITY, (reason, errors)).await;
    }
    let a = queries::application(ctx.state().db(), id)
        .await?
        .ok_or(AppError::NotFound)?;
    let mut tx = crate::db::write(ctx.state().db()).await?;
    if !queries::decline(&mut tx, id, &reason, ctx.state().now()).await? {
        return Err(AppError::Refused(
            StatusCode::CONFLICT,
            "dashboard-app-declined-already",
        ));
    }
    crate::db::audit::record(
        &mut tx,
        staff.id,
        "application.status",
        &format!("application:{id}"),
        Some(a.status.code()),
        Some(&format!("declined: {reason}")),
    )
    .await?;
    let (_, email) = who(&a);
    if !email.is_empty() {
        // The reason is staff's own words: nothing the applicant typed goes back out.
        let link = ctx.state().shared().public_url.clone();
        let mail = Mail::automatic(
            &email,
            a.language,
            "",
            "application-declined",
            &link,
            "",
            Some(reason),
        );
        enqueue(&mut tx, &mail).await?;
    }
    tx.commit().await?;
    ctx.state().wake_mailer();
    crate::web::flash::done(&ctx, &format!("/dashboard/applications/{id}")).await
}
