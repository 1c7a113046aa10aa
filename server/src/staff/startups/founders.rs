//! `POST /dashboard/startups/{id}/founders`: staff invite a founder by address, from the
//! startup's page (audited). Whoever holds a verified account with that address works for the
//! startup (`startup_teams`). The invitation is one mail: in the account's language when the
//! address already has an account (its button signs in), otherwise in Turkish and English
//! together (its button joins). Either way the link keeps `next=/vc-dashboard`, through sign-up
//! and the address's verification, so the founder lands on their startup's dashboard.

use axum::extract::Path;
use axum::response::{IntoResponse, Redirect, Response};
use ortak_app::domain::email::normalize_email;
use ortak_app::forms::FieldErrors;
use ortak_app::i18n::Locale;
use serde::Deserialize;

use crate::db::audit;
use crate::error::AppError;
use crate::mail::{Mail, enqueue, enqueue_bilingual};
use crate::staff::queries::founders as queries;
use crate::startups::slug_and_name;
use crate::web::flash;
use crate::web::form::Form;
use crate::web::{Ctx, Staff};

/// Where an invited founder goes once signed in.
pub const FOUNDER_LANDING: &str = "/vc-dashboard";

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct InviteForm {
    founder_email: String,
}

pub async fn invite(
    ctx: Ctx,
    staff: Staff,
    Path(id): Path<i64>,
    Form(f): Form<InviteForm>,
) -> Result<Response, AppError> {
    let db = ctx.state().db();
    let (_, name) = slug_and_name(db, id).await?.ok_or(AppError::NotFound)?;
    let email = match normalize_email(&f.founder_email) {
        Ok(email) => email,
        Err(e) => {
            let mut errors = FieldErrors::default();
            errors.add("founder_email", e.message_id());
            return super::editor::refuse_invite(&ctx, id, &errors, f.founder_email).await;
        }
    };
    let now = ctx.state().now();
    let mut tx = crate::db::write(db).await?;
    if queries::invite(&mut tx, id, &email, staff.user.id, now).await? {
        let subject = format!("startup:{id}");
        audit::record(
            &mut tx,
            staff.user.id,
            "founder.invite",
            &subject,
            None,
            Some(&email),
        )
        .await?;
        let public_url = &ctx.state().shared().public_url;
        let known = queries::language_of(&mut tx, &email).await?;
        let mail = |locale, link: &str| {
            Mail::automatic(
                &email,
                locale,
                "",
                "founder-invite",
                link,
                "",
                Some(name.clone()),
            )
        };
        match known.as_deref().and_then(Locale::from_code) {
            Some(locale) => {
                let link = format!("{public_url}/signin?next={FOUNDER_LANDING}");
                enqueue(&mut tx, &mail(locale, &link)).await?;
            }
            None => {
                let link = format!("{public_url}/signup?next={FOUNDER_LANDING}");
                let (tr, en) = (mail(Locale::Tr, &link), mail(Locale::En, &link));
                enqueue_bilingual(&mut tx, &tr, &en).await?;
            }
        }
    }
    tx.commit().await?;
    ctx.state().wake_mailer();
    flash::success(&ctx, "founders-invited").await?;
    Ok(Redirect::to(&format!("/dashboard/startups/{id}#founder-accounts")).into_response())
}
