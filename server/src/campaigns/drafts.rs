//! The campaign editor, for a startup's founders and fund team (`/vc-dashboard/startups/{id}
//! /campaign`; another startup answers 404) and for staff (`/dashboard/startups/{id}/campaign
//! /draft`). The draft starts from the live campaign and is kept as typed; submitting checks it
//! (`ortak_app::domain::campaign::validate`, the campaign length among the rules) and sends it
//! to staff's review as a new version. While a version is under review (with staff or the
//! committee) the draft can only be read.

use axum::extract::Path;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use ortak_app::domain::campaign::{CampaignForm, form_of, validate};
use ortak_app::forms::FieldErrors;
use ortak_app::pages::campaign::{CampaignEditor, campaign_editor_page};
use sqlx::SqliteConnection;

use super::queries;
use crate::db::audit;
use crate::error::AppError;
use crate::mail::{Mail, enqueue};
use crate::web::form::Form;
use crate::web::session::CurrentUser;
use crate::web::{Ctx, FundMember, Staff, flash};

/// Who edits: a founder (or fund team member) of the startup, or staff.
enum Editor {
    Team,
    Staff,
}

impl Editor {
    fn action(&self, id: i64) -> String {
        match self {
            Editor::Team => format!("/vc-dashboard/startups/{id}/campaign"),
            Editor::Staff => format!("/dashboard/startups/{id}/campaign/draft"),
        }
    }
}

/// The startup's name, when `user` may edit its campaign as `editor` (404 otherwise, as if it
/// did not exist).
async fn startup_name(
    conn: &mut SqliteConnection,
    user: &CurrentUser,
    editor: &Editor,
    id: i64,
) -> Result<String, AppError> {
    let allowed = match editor {
        Editor::Staff => true,
        Editor::Team => super::queries::works_for(conn, user.id, id).await?,
    };
    let startup = queries::startup(conn, id).await?;
    match startup {
        Some(s) if allowed => Ok(s.name),
        _ => Err(AppError::NotFound),
    }
}

/// The draft as typed, or the live campaign as a form to start from.
async fn current_form(
    conn: &mut SqliteConnection,
    id: i64,
    locale: ortak_app::i18n::Locale,
) -> Result<CampaignForm, AppError> {
    if let Some(draft) = queries::draft(conn, id).await? {
        return Ok(serde_json::from_str(&draft).unwrap_or_default());
    }
    Ok(queries::live(conn, id)
        .await?
        .map(|c| form_of(&c, locale))
        .unwrap_or_default())
}

async fn show(
    ctx: &Ctx,
    editor: Editor,
    id: i64,
    form: Option<CampaignForm>,
    (status, errors): (StatusCode, FieldErrors),
    user: &CurrentUser,
) -> Result<Response, AppError> {
    let mut conn = ctx.state().db().acquire().await?;
    let name = startup_name(&mut conn, user, &editor, id).await?;
    let latest = queries::latest_version(&mut conn, id).await?;
    let comments = match &latest {
        Some(v) if v.status == "returned" => queries::comments(&mut conn, v.id).await?,
        _ => Vec::new(),
    };
    let locked = latest
        .as_ref()
        .is_some_and(|v| matches!(v.status.as_str(), "submitted" | "committee"));
    let form = match form {
        Some(form) => form,
        None => current_form(&mut conn, id, ctx.locale).await?,
    };
    let page = CampaignEditor {
        startup: name,
        action: editor.action(id),
        staff: matches!(editor, Editor::Staff),
        latest: latest.map(|v| (v.number, v.status)),
        comments,
        locked,
        form,
        errors,
        max_days: ctx.state().shared().rounds.campaign_max_days,
    };
    let page = ctx.page_ctx(|pc| campaign_editor_page(pc, page));
    Ok(ctx.render(status, page).await)
}

/// `GET /vc-dashboard/startups/{id}/campaign`.
pub async fn team_page(
    ctx: Ctx,
    FundMember(user): FundMember,
    Path(id): Path<i64>,
) -> Result<Response, AppError> {
    let ok = (StatusCode::OK, FieldErrors::default());
    show(&ctx, Editor::Team, id, None, ok, &user).await
}

/// `GET /dashboard/startups/{id}/campaign/draft`.
pub async fn staff_page(
    ctx: Ctx,
    Staff { user, .. }: Staff,
    Path(id): Path<i64>,
) -> Result<Response, AppError> {
    let ok = (StatusCode::OK, FieldErrors::default());
    show(&ctx, Editor::Staff, id, None, ok, &user).await
}

/// `POST /vc-dashboard/startups/{id}/campaign`.
pub async fn team_save(
    ctx: Ctx,
    FundMember(user): FundMember,
    Path(id): Path<i64>,
    Form(form): Form<CampaignForm>,
) -> Result<Response, AppError> {
    save(ctx, Editor::Team, id, form, user).await
}

/// `POST /dashboard/startups/{id}/campaign/draft`.
pub async fn staff_save(
    ctx: Ctx,
    Staff { user, .. }: Staff,
    Path(id): Path<i64>,
    Form(form): Form<CampaignForm>,
) -> Result<Response, AppError> {
    save(ctx, Editor::Staff, id, form, user).await
}

/// Keeps the draft as typed (`intent=save`), or checks it and submits it as the next version
/// (`intent=submit`): a refused one shows the form again with each message (422).
async fn save(
    ctx: Ctx,
    editor: Editor,
    id: i64,
    mut form: CampaignForm,
    user: CurrentUser,
) -> Result<Response, AppError> {
    let intent = form.remove("intent").unwrap_or_default();
    form.retain(|k, v| {
        k != "csrf" && !v.trim().is_empty() && k.len() <= 64 && v.chars().count() <= 20_000
    });
    let state = ctx.state();
    let mut tx = crate::db::write(state.db()).await?;
    let name = startup_name(&mut tx, &user, &editor, id).await?;
    let latest = queries::latest_version(&mut tx, id).await?;
    if latest.is_some_and(|v| matches!(v.status.as_str(), "submitted" | "committee")) {
        return Err(AppError::Refused(StatusCode::CONFLICT, "campaign-locked"));
    }
    let now = state.now();
    let content = serde_json::to_string(&form).map_err(anyhow::Error::from)?;
    if intent != "submit" {
        queries::save_draft(&mut tx, id, &content, user.id, now).await?;
        tx.commit().await?;
        flash::success(&ctx, "campaign-saved").await?;
        return Ok(Redirect::to(&editor.action(id)).into_response());
    }
    let max_days = state.shared().rounds.campaign_max_days;
    let campaign = match validate(&form, max_days) {
        Ok(campaign) => campaign,
        Err(errors) => {
            // A refused submission stores nothing: the page shows what was typed.
            drop(tx);
            let refused = (StatusCode::UNPROCESSABLE_ENTITY, errors);
            return show(&ctx, editor, id, Some(form), refused, &user).await;
        }
    };
    queries::save_draft(&mut tx, id, &content, user.id, now).await?;
    let json = serde_json::to_string(&campaign).map_err(anyhow::Error::from)?;
    let version = queries::submit(&mut tx, id, &json, user.id, now).await?;
    let number = queries::version(&mut tx, version)
        .await?
        .map_or(0, |v| v.number);
    let subject = format!("startup:{id}");
    let after = format!("version #{number} submitted");
    audit::record(
        &mut tx,
        user.id,
        "campaign.submit",
        &subject,
        None,
        Some(&after),
    )
    .await?;
    let review = format!(
        "{}/dashboard/startups/{id}/campaign",
        state.shared().public_url
    );
    let notice = Mail::staff_notice(
        &state.shared().staff_email,
        &format!("Kampanya incelemede: {name}"),
        &[("Girişim", name.as_str()), ("İnceleme", review.as_str())],
    );
    enqueue(&mut tx, &notice).await?;
    tx.commit().await?;
    state.wake_mailer();
    flash::success(&ctx, "campaign-submitted").await?;
    Ok(Redirect::to(&editor.action(id)).into_response())
}
