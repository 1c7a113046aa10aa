//! Staff's side of a campaign (`/dashboard/startups/{id}/campaign`): the newest version as
//! investors would read it, a comment per section, and the two ways on: back to the founders
//! (who see the comments beside the sections) or to the investment committee. The issuer's
//! checks are recorded here too, with evidence files in the vault (staff only).

use axum::extract::Path;
use axum::http::StatusCode;
use axum::response::Response;
use ortak_app::domain::issuer::{Issuer, breaches};
use ortak_app::domain::money::Money;
use ortak_app::domain::profile::parse_lira;
use ortak_app::domain::timeline::format_moment;
use ortak_app::forms::FieldErrors;
use ortak_app::pages::campaign::{CampaignReview, campaign_review_page};
use serde::Deserialize;
use std::collections::BTreeMap;

use super::approval::campaign_of;
use super::queries::{self, NewDocument};
use crate::db::audit;
use crate::error::AppError;
use crate::mail::{Mail, enqueue};
use crate::web::flash::done;
use crate::web::form::{Form, Upload, UploadForm};
use crate::web::{Ctx, Staff};

fn lira(k: Option<i64>, locale: ortak_app::i18n::Locale) -> String {
    k.map(|k| {
        Money::from_kurus(k)
            .format(locale)
            .trim_end_matches(" TL")
            .to_owned()
    })
    .unwrap_or_default()
}

async fn show(
    ctx: &Ctx,
    id: i64,
    status: StatusCode,
    errors: FieldErrors,
) -> Result<Response, AppError> {
    let mut conn = ctx.state().db().acquire().await?;
    let startup = queries::startup(&mut conn, id)
        .await?
        .ok_or(AppError::NotFound)?;
    let latest = queries::latest_version(&mut conn, id).await?;
    let issuer = queries::issuer(&mut conn, id).await?;
    let (version, comments, maximum, submitted) = match latest {
        Some(v) if v.content != r#"{"legacy":true}"# => {
            let c = campaign_of(&v)?;
            let comments = queries::comments(&mut conn, v.id).await?;
            let max = c.terms.maximum_raise_kurus;
            let args = [
                ("date", format_moment(v.submitted_at, ctx.locale).into()),
                ("who", v.submitted_by.clone().unwrap_or_default().into()),
            ];
            let submitted = ctx.locale.t_args("campaign-submitted-by", &args);
            (
                Some((v.id, v.number, v.status, c)),
                comments,
                max,
                submitted,
            )
        }
        _ => (None, Vec::new(), 0, String::new()),
    };
    let rules = ctx.state().shared().rounds.issuer();
    let page = CampaignReview {
        startup_id: id,
        startup: startup.name,
        version,
        submitted,
        comments,
        breaches: breaches(&issuer, Money::from_kurus(maximum), &rules),
        issuer: vec![
            ("legal_form", issuer.legal_form.clone().unwrap_or_default()),
            ("registry_number", issuer.registry_number.clone()),
            ("assets", lira(issuer.assets_kurus, ctx.locale)),
            ("revenue", lira(issuer.revenue_kurus, ctx.locale)),
            ("raised_12m", lira(issuer.raised_last_12m_kurus, ctx.locale)),
        ],
        errors,
    };
    let page = ctx.page_ctx(|pc| campaign_review_page(pc, page));
    Ok(ctx.render(status, page).await)
}

/// `GET /dashboard/startups/{id}/campaign`.
pub async fn page(ctx: Ctx, _: Staff, Path(id): Path<i64>) -> Result<Response, AppError> {
    show(&ctx, id, StatusCode::OK, FieldErrors::default()).await
}

/// `POST /dashboard/campaigns/{version}/review`: `intent` is `return` (to the founders, with the
/// comments `c_{section}`) or `committee`.
pub async fn review(
    ctx: Ctx,
    Staff { user, .. }: Staff,
    Path(version): Path<i64>,
    Form(mut form): Form<BTreeMap<String, String>>,
) -> Result<Response, AppError> {
    let intent = form.remove("intent").unwrap_or_default();
    let to = match intent.as_str() {
        "return" => "returned",
        "committee" => "committee",
        _ => return Err(AppError::BadRequest("bad-request-text")),
    };
    let state = ctx.state();
    let now = state.now();
    let mut tx = crate::db::write(state.db()).await?;
    let v = queries::version(&mut tx, version)
        .await?
        .ok_or(AppError::NotFound)?;
    let comments: Vec<(String, String)> = form
        .into_iter()
        .filter_map(|(k, body)| {
            let section = k.strip_prefix("c_")?.to_owned();
            let body: String = body.trim().chars().take(2000).collect();
            (!body.is_empty() && section.len() <= 40).then_some((section, body))
        })
        .collect();
    if to == "returned" && comments.is_empty() {
        return Err(AppError::BadRequest("campaign-comment-required"));
    }
    if !queries::move_version(&mut tx, v.id, ("submitted", to), Some(user.id), now).await? {
        return Err(AppError::Refused(
            StatusCode::CONFLICT,
            "campaign-version-moved",
        ));
    }
    for (section, body) in &comments {
        queries::comment(&mut tx, v.id, (section, body), user.id, now).await?;
    }
    let subject = format!("startup:{}", v.startup_id);
    let after = format!("version #{} {to}", v.number);
    audit::record(
        &mut tx,
        user.id,
        "campaign.review",
        &subject,
        Some("submitted"),
        Some(&after),
    )
    .await?;
    if to == "returned" {
        // The founders hear it; the comments wait for them in the editor.
        let link = format!(
            "{}/vc-dashboard/startups/{}/campaign",
            state.shared().public_url,
            v.startup_id
        );
        for founder in queries::team(&mut tx, v.startup_id).await? {
            let mail = Mail::action(
                &founder.email,
                founder.language,
                &founder.first_name,
                "campaign-returned",
                &link,
            );
            enqueue(&mut tx, &mail).await?;
        }
    }
    tx.commit().await?;
    state.wake_mailer();
    done(
        &ctx,
        &format!("/dashboard/startups/{}/campaign", v.startup_id),
    )
    .await
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct IssuerPost {
    legal_form: String,
    registry_number: String,
    assets: String,
    revenue: String,
    raised_12m: String,
}

/// `POST /dashboard/startups/{id}/issuer`: the issuer's facts as staff checked them.
pub async fn issuer(
    ctx: Ctx,
    Staff { user, .. }: Staff,
    Path(id): Path<i64>,
    Form(f): Form<IssuerPost>,
) -> Result<Response, AppError> {
    let mut errors = FieldErrors::default();
    let legal_form = match f.legal_form.as_str() {
        "" => None,
        code @ ("anonim" | "limited_converting") => Some(code.to_owned()),
        _ => {
            errors.add("legal_form", "validation-choose-one");
            None
        }
    };
    let registry_number: String = f.registry_number.trim().to_owned();
    if registry_number.chars().count() > 100 {
        errors.add("registry_number", "validation-too-long");
    }
    let mut figure = |name: &'static str, text: &str| {
        if text.trim().is_empty() {
            return None;
        }
        let parsed = parse_lira(text).map(Money::kurus);
        if parsed.is_none() {
            errors.add(name, "validation-number");
        }
        parsed
    };
    let issuer = Issuer {
        legal_form,
        registry_number,
        assets_kurus: figure("assets", &f.assets),
        revenue_kurus: figure("revenue", &f.revenue),
        raised_last_12m_kurus: figure("raised_12m", &f.raised_12m),
    };
    if !errors.is_empty() {
        return show(&ctx, id, StatusCode::UNPROCESSABLE_ENTITY, errors).await;
    }
    let mut tx = crate::db::write(ctx.state().db()).await?;
    if !queries::save_issuer(&mut tx, id, &issuer, user.id, ctx.state().now()).await? {
        return Err(AppError::NotFound);
    }
    let after = format!("{issuer:?}");
    let subject = format!("startup:{id}");
    audit::record(
        &mut tx,
        user.id,
        "issuer.check",
        &subject,
        None,
        Some(&after),
    )
    .await?;
    tx.commit().await?;
    done(&ctx, &format!("/dashboard/startups/{id}/campaign")).await
}

#[derive(Deserialize, Default)]
pub struct EvidencePost {}

impl UploadForm for EvidencePost {
    const FILE_FIELD: &'static str = "evidence";
    const MAX_FILE_BYTES: u64 = crate::startups::documents::DOCUMENT_MAX_BYTES as u64;
}

/// `POST /dashboard/startups/{id}/issuer/evidence`: a PDF backing the issuer's checks (its
/// registry record, last year's balance sheet), kept in the vault for staff.
pub async fn evidence(
    ctx: Ctx,
    Staff { user, .. }: Staff,
    Path(id): Path<i64>,
    Upload { file, .. }: Upload<EvidencePost>,
) -> Result<Response, AppError> {
    let refusal = match &file {
        None => Some("validation-required"),
        Some(f) if f.too_large() => Some("validation-document-size"),
        Some(f) if !f.head.starts_with(b"%PDF-") => Some("validation-document-pdf"),
        Some(_) => None,
    };
    let Some(file) = file.filter(|_| refusal.is_none()) else {
        let mut errors = FieldErrors::default();
        errors.add("evidence", refusal.unwrap_or("validation-required"));
        return show(&ctx, id, StatusCode::UNPROCESSABLE_ENTITY, errors).await;
    };
    let label: String = file.name.chars().take(100).collect();
    let name = crate::web::files::random_name("pdf");
    let data_dir = &ctx.state().shared().data_dir;
    let mut tx = crate::db::write(ctx.state().db()).await?;
    if queries::startup(&mut tx, id).await?.is_none() {
        return Err(AppError::NotFound);
    }
    let kept = file
        .keep(data_dir, crate::startups::documents::FOLDER, &name)
        .await?;
    let document = NewDocument {
        startup: id,
        kind: "issuer-evidence",
        file_name: &name,
        by: Some(user.id),
        version: None,
        label: &label,
    };
    let doc = queries::insert_document(&mut tx, &document, ctx.state().now()).await?;
    let subject = format!("startup:{id}");
    let after = format!("issuer-evidence #{doc}");
    audit::record(
        &mut tx,
        user.id,
        "round.document.add",
        &subject,
        None,
        Some(&after),
    )
    .await?;
    tx.commit().await?;
    kept.committed();
    done(&ctx, &format!("/dashboard/startups/{id}/campaign")).await
}
