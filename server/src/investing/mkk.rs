//! `/mkk`: the investor-registry membership form. Members may send a request once a version of
//! it is verified: at once by the e-government identity check (a citizen's TCKN, when
//! configured), otherwise by staff. The class, identity and income the yearly limit follows are
//! the verified ones (`limits`): a change waits for review and lifts nothing meanwhile.
//! Only a verified e-mail address may send it; an identity number belongs to one person (one
//! account now, and none that another account invested under); once the member sent a request,
//! the identity is locked until a superadmin unlocks one correction; a rejection stays until
//! the data changes and holds the member's open requests.

use axum::extract::Query;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use ortak_app::domain::identity::IdType;
use ortak_app::domain::mkk::{Mkk, MkkForm, MkkStatus, validate_mkk};
use ortak_app::domain::money::Money;
use ortak_app::domain::paths::local_path;
use ortak_app::domain::phone::format_phone;
use ortak_app::forms::{FieldErrors, Notice};
use ortak_app::pages::investing::{Fix, MkkState, investment_refused_page, mkk_page};

use super::queries::profiles as queries;
pub use super::queries::profiles::mkk_review;
use crate::error::AppError;
use crate::web::form::Form;
use crate::web::session::CurrentUser;
use crate::web::{Ctx, Member, flash};

/// Why the user's MKK data does not let them invest (or their requests move on) now, as a
/// Fluent id, if it does not: none sent, rejected (which also holds their open requests), or
/// no version verified yet.
pub async fn investing_blocked(
    db: impl sqlx::SqliteExecutor<'_>,
    user_id: i64,
) -> Result<Option<&'static str>, AppError> {
    Ok(match queries::mkk_review(db, user_id).await? {
        None => Some("investment-needs-mkk"),
        Some(r) if r.status == MkkStatus::Rejected => Some("investment-needs-mkk-fix"),
        // Once rejected, only a fresh verification lets the member invest again.
        Some(r) if r.previously_rejected && r.status != MkkStatus::Verified => {
            Some("investment-needs-mkk-review")
        }
        Some(r) if !r.has_verified => Some("investment-needs-mkk-verification"),
        Some(_) => None,
    })
}

/// The page that sends a member with an unverified e-mail address to verify it first.
async fn verify_first(ctx: &Ctx, status: StatusCode) -> Response {
    let page =
        ctx.page_ctx(|pc| investment_refused_page(pc, pc.t("mkk-needs-verified"), Fix::Verify));
    ctx.render(status, page).await
}

async fn show(
    ctx: &Ctx,
    status: StatusCode,
    form: &MkkForm,
    errors: &FieldErrors,
    notice: Option<Notice>,
    user_id: i64,
) -> Result<Response, AppError> {
    let review = queries::mkk_review(ctx.state().db(), user_id).await?;
    let state = MkkState {
        status: review.as_ref().map(|r| r.status),
        resubmitted: review
            .as_ref()
            .is_some_and(|r| r.previously_rejected && r.status == MkkStatus::Submitted),
        change_pending: review
            .as_ref()
            .is_some_and(|r| r.has_verified && r.status == MkkStatus::Submitted),
        identity_locked: review.as_ref().is_some_and(|r| r.identity_locked),
        rejection_reason: review.and_then(|r| r.rejection_reason),
        edevlet: ctx.state().shared().identity_check.is_some(),
        notice,
    };
    let page = ctx.page_ctx(|pc| mkk_page(pc, form, errors, state));
    Ok(ctx.render(status, page).await)
}

/// The form as stored, or started from what the account already knows.
async fn current_form(ctx: &Ctx, user: &CurrentUser) -> Result<MkkForm, AppError> {
    let db = ctx.state().db();
    if let Some(r) = queries::mkk_profile(db, user.id).await? {
        return Ok(MkkForm {
            investor_type: r.investor_type,
            citizen: if r.turkish_citizen { "yes" } else { "no" }.into(),
            id_type: r.id_type,
            first_name: r.first_name,
            last_name: r.last_name,
            email: r.email,
            phone: format_phone(&r.phone),
            annual_income: Money::from_kurus(r.annual_income_kurus)
                .format(ctx.locale)
                .trim_end_matches(" TL")
                .to_owned(),
            identity_number: r.identity_number,
            organisation: r.organisation,
            birth_date: r.birth_date.to_string(),
            next: String::new(),
        });
    }
    let account = queries::account_defaults(db, user.id).await?;
    Ok(MkkForm {
        first_name: account.first_name,
        last_name: account.last_name,
        phone: format_phone(&account.phone),
        email: user.email.clone(),
        investor_type: account.investor_type,
        ..MkkForm::default()
    })
}

#[derive(serde::Deserialize, Default)]
#[serde(default)]
pub struct MkkQuery {
    next: String,
}

/// Where a saved form continues: `next` when it is a path on this site, else the form again.
fn continue_to(next: &str) -> &str {
    if !next.is_empty() && local_path(next) == next {
        next
    } else {
        "/mkk"
    }
}

/// `GET /mkk`.
pub async fn page(
    ctx: Ctx,
    Member(user): Member,
    Query(query): Query<MkkQuery>,
) -> Result<Response, AppError> {
    if !user.verified {
        return Ok(verify_first(&ctx, StatusCode::OK).await);
    }
    let mut form = current_form(&ctx, &user).await?;
    form.next = query.next;
    let none = FieldErrors::default();
    show(&ctx, StatusCode::OK, &form, &none, None, user.id).await
}

/// What the e-government check said about a citizen's identity.
enum Identity {
    /// The registry confirmed it.
    Verified,
    /// The registry does not know this person: the form comes back.
    Refused,
    /// Not checked (switched off, not a TCKN, or the service did not answer: the Fluent id
    /// of what to tell the member, then).
    Unchecked(Option<&'static str>),
}

async fn check_identity(ctx: &Ctx, mkk: &Mkk) -> Identity {
    let (Some(check), IdType::Tckn) = (&ctx.state().shared().identity_check, mkk.id_type) else {
        return Identity::Unchecked(None);
    };
    let year = mkk.birth_date.year();
    match check
        .verify(&mkk.identity_number, &mkk.first_name, &mkk.last_name, year)
        .await
    {
        Ok(true) => Identity::Verified,
        Ok(false) => Identity::Refused,
        Err(e) => {
            tracing::warn!(error = %e, "identity service unavailable");
            Identity::Unchecked(Some("mkk-edevlet-unavailable"))
        }
    }
}

/// Why the identity in `mkk` cannot be saved for `user`, if it cannot: it is locked since the
/// member's first request (until a superadmin unlocks one correction), or another account
/// invested under it.
async fn identity_refused(
    ctx: &Ctx,
    user: i64,
    mkk: &Mkk,
) -> Result<Option<(StatusCode, FieldErrors)>, AppError> {
    let mut conn = ctx.state().db().acquire().await?;
    let refuse = |status, id| {
        let mut errors = FieldErrors::default();
        errors.add("identity_number", id);
        Ok(Some((status, errors)))
    };
    let stored = queries::mkk_profile(&mut *conn, user).await?;
    let changed = stored.as_ref().is_some_and(|s| {
        s.investor_type != mkk.investor_type.code()
            || s.id_type != mkk.id_type.code()
            || s.identity_number != mkk.identity_number
    });
    let locked = queries::mkk_review(&mut *conn, user)
        .await?
        .is_some_and(|r| r.identity_locked);
    if changed && locked {
        return refuse(StatusCode::UNPROCESSABLE_ENTITY, "mkk-identity-locked");
    }
    if queries::identity_used_elsewhere(&mut conn, &mkk.identity_key(), user).await? {
        return refuse(StatusCode::CONFLICT, "mkk-identity-taken");
    }
    Ok(None)
}

/// `POST /mkk`.
pub async fn save(
    ctx: Ctx,
    Member(user): Member,
    Form(form): Form<MkkForm>,
) -> Result<Response, AppError> {
    if !user.verified {
        return Ok(verify_first(&ctx, StatusCode::FORBIDDEN).await);
    }
    let refused = StatusCode::UNPROCESSABLE_ENTITY;
    let mkk = match validate_mkk(&form, ctx.state().today()) {
        Ok(mkk) => mkk,
        Err(errors) => return show(&ctx, refused, &form, &errors, None, user.id).await,
    };
    if let Some((status, errors)) = identity_refused(&ctx, user.id, &mkk).await? {
        return show(&ctx, status, &form, &errors, None, user.id).await;
    }
    let db = ctx.state().db();
    let verified_unchanged = queries::mkk_review(db, user.id)
        .await?
        .is_some_and(|r| r.status == MkkStatus::Verified)
        && queries::mkk_profile(db, user.id)
            .await?
            .is_some_and(|stored| stored.same_as(&mkk));
    if verified_unchanged {
        // Nothing new: the verified record stays verified.
        flash::success(&ctx, "mkk-saved").await?;
        return Ok(Redirect::to(continue_to(&form.next)).into_response());
    }
    let (status, verified_by, message) = match check_identity(&ctx, &mkk).await {
        Identity::Verified => (MkkStatus::Verified, Some("edevlet"), "mkk-edevlet-ok"),
        Identity::Refused => {
            let notice = Some(Notice::Error(ctx.t("mkk-edevlet-failed")));
            let none = FieldErrors::default();
            return show(&ctx, refused, &form, &none, notice, user.id).await;
        }
        Identity::Unchecked(notice) => (MkkStatus::Submitted, None, notice.unwrap_or("mkk-saved")),
    };
    let now = ctx.state().now();
    let saved =
        match queries::save_mkk(ctx.state().db(), user.id, &mkk, status, verified_by, now).await {
            Ok(saved) => saved,
            Err(e) if crate::db::unique_violation(&e, "mkk_profiles.identity_number") => {
                let mut errors = FieldErrors::default();
                errors.add("identity_number", "mkk-identity-taken");
                return show(&ctx, StatusCode::CONFLICT, &form, &errors, None, user.id).await;
            }
            Err(e) => return Err(e.into()),
        };
    if !saved {
        // The rejected data, sent again unchanged: nothing new for staff to review.
        let notice = Some(Notice::Error(ctx.t("mkk-unchanged")));
        let none = FieldErrors::default();
        return show(&ctx, StatusCode::CONFLICT, &form, &none, notice, user.id).await;
    }
    flash::success(&ctx, message).await?;
    Ok(Redirect::to(continue_to(&form.next)).into_response())
}
