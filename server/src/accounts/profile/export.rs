//! `GET /profile/export`: everything Ortak holds about the member as a JSON download (KVKK
//! Art. 11): the account, profile, preferences and investor information, the MKK registration,
//! qualified-investor declarations (without their files), investment requests with their
//! history, card payments (brand and last four digits only), escrow transfers with the payer's
//! details, favourites, fund teams and VIP groups, startup applications, contact, fund and
//! academy messages, the newsletter consent, every version of the terms accepted, the choices
//! of optional mails and the last sign-in. What the server log holds (every sign-in attempt, each request's address) is
//! described in the privacy notice.

use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use super::super::queries::{kvkk_export as held, kvkk_forms as forms, terms};
use super::{load, queries};
use crate::error::AppError;
use crate::web::{Ctx, Member};

/// A time as the export writes it (`2026-11-21T09:30:00Z`, as stored).
fn rfc3339(time: OffsetDateTime) -> Result<String, AppError> {
    Ok(time.format(&Rfc3339).map_err(anyhow::Error::from)?)
}

fn value(v: impl serde::Serialize) -> Result<Value, AppError> {
    Ok(serde_json::to_value(v).map_err(anyhow::Error::from)?)
}

/// What the member did and gave beyond the profile: MKK, declarations, money, forms.
async fn records(ctx: &Ctx, user: i64, email: &str) -> Result<Value, AppError> {
    let db = ctx.state().db();
    Ok(json!({
        "mkk_registration": value(held::mkk(db, user).await?)?,
        "identities_held": value(held::identities(db, user).await?)?,
        "qualified_investor_declarations": value(held::declarations(db, user).await?)?,
        "investment_requests": value(held::requests(db, user).await?)?,
        "investment_request_history": value(held::events(db, user).await?)?,
        "card_payments": value(held::payments(db, user).await?)?,
        "escrow_transfers": value(held::transfers(db, user).await?)?,
        "favourites": value(held::favourites(db, user).await?)?,
        "groups": value(held::groups(db, user).await?)?,
        "startup_applications": value(forms::applications(db, user).await?)?,
        "contact_messages": value(forms::messages(db, user, email).await?)?,
        "fund_applications": value(forms::gsyf(db, user, email).await?)?,
        "academy_applications": value(forms::academy(db, email).await?)?,
        "newsletter": value(forms::newsletter(db, email).await?)?,
        "accepted_terms": value(terms::of_user(db, user).await?)?,
        "mail_choices": value(crate::notifications::queries::choices(db, user).await?)?,
    }))
}

pub async fn export(ctx: Ctx, Member(user): Member) -> Result<Response, AppError> {
    let db = ctx.state().db();
    let p = load(&ctx, user.id).await?;
    let dates = queries::account_dates(db, user.id).await?;
    let last_sign_in = forms::last_sign_in(db, user.id).await?;
    let mut body = json!({
        "exported_at": rfc3339(ctx.state().now())?,
        "account": {
            "email": p.email, "created_at": rfc3339(dates.created_at)?,
            "email_verified_at": dates.email_verified_at.map(rfc3339).transpose()?,
            "terms_accepted_at": dates.terms_accepted_at.map(rfc3339).transpose()?,
            "last_sign_in_at": last_sign_in.map(rfc3339).transpose()?,
            "language": p.language,
        },
        "profile": {
            "first_name": p.first_name, "last_name": p.last_name, "position": p.position, "phone": p.phone,
            "country": p.country, "city": p.city, "has_profile_image": p.has_image,
        },
        "investment_preferences": { "purpose": p.purpose, "budget_range": p.budget, "interests": p.interests },
        "investor_information": {
            "investor_type": p.investor_type, "turkish_citizen": p.citizen, "id_type": p.id_type,
            "identity_number": p.identity_number, "company_name": p.company_name, "tax_office": p.tax_office,
            "annual_income_tl": p.annual_income, "birth_date": p.birth_date,
        },
    });
    if let (Value::Object(body), Value::Object(more)) =
        (&mut body, records(&ctx, user.id, &p.email).await?)
    {
        body.extend(more);
    }
    let mut response = axum::Json(body).into_response();
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_DISPOSITION,
        HeaderValue::from_static("attachment; filename=\"ortak-kisisel-veriler.json\""),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    Ok(response)
}
