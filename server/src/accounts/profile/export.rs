//! `GET /profile/export`: the member's personal data as a JSON download (KVKK Art. 11).

use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use serde_json::json;
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use super::{load, queries};
use crate::error::AppError;
use crate::web::{Ctx, Member};

/// A time as the export writes it (`2026-11-21T09:30:00Z`, as stored).
fn rfc3339(time: OffsetDateTime) -> Result<String, AppError> {
    Ok(time.format(&Rfc3339).map_err(anyhow::Error::from)?)
}

pub async fn export(ctx: Ctx, Member(user): Member) -> Result<Response, AppError> {
    let db = ctx.state().db();
    let p = load(&ctx, user.id).await?;
    let dates = queries::account_dates(db, user.id).await?;
    let newsletter = match queries::newsletter_consent(db, &p.email).await? {
        Some(c) => Some(json!({
            "consented_at": rfc3339(c.consented_at)?,
            "consent_text_version": c.consent_text_version,
        })),
        None => None,
    };
    let body = json!({
        "exported_at": rfc3339(ctx.state().now())?,
        "account": {
            "email": p.email, "created_at": rfc3339(dates.created_at)?,
            "email_verified_at": dates.email_verified_at.map(rfc3339).transpose()?,
            "terms_accepted_at": dates.terms_accepted_at.map(rfc3339).transpose()?,
            "language": p.language,
        },
        "profile": {
            "first_name": p.first_name, "last_name": p.last_name, "position": p.position, "phone": p.phone,
            "country": p.country, "city": p.city, "has_profile_image": p.has_image,
        },
        "investment_preferences": { "purpose": p.purpose, "budget_usd": p.budget, "interests": p.interests },
        "investor_information": {
            "investor_type": p.investor_type, "turkish_citizen": p.citizen, "id_type": p.id_type,
            "identity_number": p.identity_number, "company_name": p.company_name, "tax_office": p.tax_office,
            "annual_income_tl": p.annual_income, "birth_date": p.birth_date,
        },
        "newsletter": newsletter,
    });
    let mut response = axum::Json(body).into_response();
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_DISPOSITION,
        HeaderValue::from_static("attachment; filename=\"ortak-kisisel-veriler.json\""),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    Ok(response)
}
