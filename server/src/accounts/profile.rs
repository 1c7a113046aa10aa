//! `/profile` and its forms, the profile image, the personal-data export and account deletion.

use crate::web::form::Form;
use axum::body::Bytes;
use axum::extract::{Multipart, Path, Query};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Redirect, Response};
use ortak_app::domain::accounts::check_new_password;
use ortak_app::domain::identity::IdType;
use ortak_app::domain::profile::{Profile, validate_info, validate_investor, validate_preferences};
use ortak_app::forms::FieldErrors;
use ortak_app::pages::profile::{TABS, profile_page};
use ortak_app::shell::{Flash, FlashKind};
use rand::RngCore;
use serde::Deserialize;
use serde_json::json;
use sqlx::FromRow;

use super::passwords;
use crate::error::AppError;
use crate::web::Ctx;
use crate::web::form::FormBody;
use crate::web::session::{self, CurrentUser, Role};

/// Profile images: at most 2 MB, recognised by their first bytes, not their name.
pub const IMAGE_MAX_BYTES: usize = 2 * 1024 * 1024;

#[derive(FromRow)]
struct Row {
    email: String,
    first_name: String,
    last_name: String,
    position: String,
    phone: String,
    country: String,
    city: String,
    language: String,
    registration_purpose: Option<String>,
    budget_range: Option<String>,
    interests: String,
    investor_type: Option<String>,
    turkish_citizen: Option<bool>,
    id_type: Option<String>,
    identity_number: String,
    company_name: String,
    tax_office: String,
    annual_income_kurus: Option<i64>,
    birth_date: Option<String>,
    profile_image: Option<String>,
}

const COLUMNS: &str = "email, first_name, last_name, position, phone, country, city, language, registration_purpose,
    budget_range, interests, investor_type, turkish_citizen, id_type, identity_number, company_name, tax_office,
    annual_income_kurus, birth_date, profile_image";

async fn load(ctx: &Ctx, user_id: i64) -> Result<Profile, AppError> {
    let r: Row = sqlx::query_as(&format!("SELECT {COLUMNS} FROM users WHERE id = ?"))
        .bind(user_id)
        .fetch_one(ctx.state().db())
        .await?;
    Ok(Profile {
        email: r.email,
        first_name: r.first_name,
        last_name: r.last_name,
        position: r.position,
        phone: r.phone,
        country: r.country,
        city: r.city,
        language: r.language,
        purpose: r.registration_purpose.unwrap_or_default(),
        budget: r.budget_range.unwrap_or_default(),
        interests: r
            .interests
            .split(',')
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
            .collect(),
        investor_type: r.investor_type.unwrap_or_default(),
        citizen: r
            .turkish_citizen
            .map(|c| if c { "yes" } else { "no" })
            .unwrap_or_default()
            .to_owned(),
        id_type: r.id_type.unwrap_or_default(),
        identity_number: r.identity_number,
        company_name: r.company_name,
        tax_office: r.tax_office,
        annual_income: r
            .annual_income_kurus
            .map(|k| {
                ortak_app::domain::money::Money::from_kurus(k)
                    .format(ctx.locale)
                    .trim_end_matches(" TL")
                    .to_owned()
            })
            .unwrap_or_default(),
        birth_date: r.birth_date.unwrap_or_default(),
        has_image: r.profile_image.is_some(),
    })
}

async fn avatar_url(ctx: &Ctx, user_id: i64) -> Result<String, AppError> {
    let image: Option<String> = sqlx::query_scalar("SELECT profile_image FROM users WHERE id = ?")
        .bind(user_id)
        .fetch_one(ctx.state().db())
        .await?;
    Ok(image
        .map(|f| format!("/api/file/{f}"))
        .unwrap_or_else(|| "/avatar.svg".to_owned()))
}

async fn show(
    ctx: &Ctx,
    user: &CurrentUser,
    status: StatusCode,
    tab: &str,
    profile: &Profile,
    errors: &FieldErrors,
) -> Result<Response, AppError> {
    let avatar = avatar_url(ctx, user.id).await?;
    let page = ctx.page_ctx(|pc| profile_page(pc, tab, profile, errors, &avatar));
    Ok(ctx.render(status, page).await)
}

fn saved(tab: &str) -> Response {
    Redirect::to(&format!("/profile?tab={tab}")).into_response()
}

async fn flash(ctx: &Ctx, message_id: &str) -> Result<(), AppError> {
    ctx.set_flash(Flash {
        kind: FlashKind::Success,
        message_id: message_id.to_owned(),
    })
    .await
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct TabQuery {
    tab: String,
}

pub async fn page(ctx: Ctx, Query(query): Query<TabQuery>) -> Result<Response, AppError> {
    let user = ctx.require(Role::Investor)?.clone();
    let tab = if TABS.contains(&query.tab.as_str()) {
        query.tab.as_str()
    } else {
        "info"
    };
    let profile = load(&ctx, user.id).await?;
    show(
        &ctx,
        &user,
        StatusCode::OK,
        tab,
        &profile,
        &FieldErrors::default(),
    )
    .await
}

pub async fn save_info(ctx: Ctx, headers: HeaderMap, body: Bytes) -> Result<Response, AppError> {
    let user = ctx.require(Role::Investor)?.clone();
    let f = FormBody::parse(&body);
    ctx.verify_csrf(&f.get("csrf"), &headers)?;
    let mut p = load(&ctx, user.id).await?;
    p.first_name = f.get("first_name").trim().to_owned();
    p.last_name = f.get("last_name").trim().to_owned();
    p.position = f.get("position").trim().to_owned();
    p.phone = f.get("phone");
    p.country = f.get("country").trim().to_owned();
    p.city = f.get("city").trim().to_owned();
    p.language = f.get("language");
    if let Err(errors) = validate_info(&mut p) {
        return show(
            &ctx,
            &user,
            StatusCode::UNPROCESSABLE_ENTITY,
            "info",
            &p,
            &errors,
        )
        .await;
    }
    sqlx::query(
        "UPDATE users SET first_name = ?, last_name = ?, position = ?, phone = ?, country = ?, city = ?, language = ?,
             updated_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now') WHERE id = ?",
    )
    .bind(&p.first_name)
    .bind(&p.last_name)
    .bind(&p.position)
    .bind(&p.phone)
    .bind(&p.country)
    .bind(&p.city)
    .bind(&p.language)
    .bind(user.id)
    .execute(ctx.state().db())
    .await?;
    flash(&ctx, "profile-saved").await?;
    Ok(saved("info"))
}

pub async fn save_preferences(
    ctx: Ctx,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, AppError> {
    let user = ctx.require(Role::Investor)?.clone();
    let f = FormBody::parse(&body);
    ctx.verify_csrf(&f.get("csrf"), &headers)?;
    let mut p = load(&ctx, user.id).await?;
    p.purpose = f.get("purpose");
    p.budget = f.get("budget");
    p.interests = f.all("interests");
    if let Err(errors) = validate_preferences(&mut p) {
        return show(
            &ctx,
            &user,
            StatusCode::UNPROCESSABLE_ENTITY,
            "preferences",
            &p,
            &errors,
        )
        .await;
    }
    sqlx::query(
        "UPDATE users SET registration_purpose = ?, budget_range = ?, interests = ?,
             updated_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now') WHERE id = ?",
    )
    .bind(&p.purpose)
    .bind(&p.budget)
    .bind(p.interests.join(","))
    .bind(user.id)
    .execute(ctx.state().db())
    .await?;
    flash(&ctx, "profile-saved").await?;
    Ok(saved("preferences"))
}

pub async fn save_investor(
    ctx: Ctx,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, AppError> {
    let user = ctx.require(Role::Investor)?.clone();
    let f = FormBody::parse(&body);
    ctx.verify_csrf(&f.get("csrf"), &headers)?;
    let mut p = load(&ctx, user.id).await?;
    for (name, slot) in [
        ("investor_type", &mut p.investor_type),
        ("citizen", &mut p.citizen),
        ("id_type", &mut p.id_type),
        ("identity_number", &mut p.identity_number),
        ("company_name", &mut p.company_name),
        ("tax_office", &mut p.tax_office),
        ("annual_income", &mut p.annual_income),
        ("birth_date", &mut p.birth_date),
    ] {
        *slot = f.get(name).trim().to_owned();
    }
    let today = ortak_app::domain::time_fmt::istanbul_date(time::OffsetDateTime::now_utc());
    let (income, birth) = match validate_investor(&mut p, today) {
        Ok(v) => v,
        Err(errors) => {
            return show(
                &ctx,
                &user,
                StatusCode::UNPROCESSABLE_ENTITY,
                "investor",
                &p,
                &errors,
            )
            .await;
        }
    };
    let corporate = p.investor_type == "corporate";
    sqlx::query(
        "UPDATE users SET investor_type = ?, turkish_citizen = ?, id_type = ?, identity_number = ?, company_name = ?,
             tax_office = ?, annual_income_kurus = ?, birth_date = ?,
             updated_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now') WHERE id = ?",
    )
    .bind(&p.investor_type)
    .bind(p.citizen == "yes")
    .bind(IdType::from_code(&p.id_type).map(IdType::code))
    .bind(&p.identity_number)
    .bind(if corporate { p.company_name.as_str() } else { "" })
    .bind(if corporate { p.tax_office.as_str() } else { "" })
    .bind(income.map(|m| m.kurus()))
    .bind(birth.map(|d| d.to_string()))
    .bind(user.id)
    .execute(ctx.state().db())
    .await?;
    flash(&ctx, "profile-investor-saved").await?;
    Ok(saved("investor"))
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct PasswordForm {
    csrf: String,
    current_password: String,
    password: String,
    password_confirm: String,
    confirm: Option<String>,
}

/// Whether `password` is the user's current one. A member who joined through the professional
/// network has none: for them the question does not arise (they set one on the security tab).
async fn current_password_ok(ctx: &Ctx, user_id: i64, password: &str) -> Result<bool, AppError> {
    match stored_hash(ctx, user_id).await? {
        Some(hash) => Ok(passwords::verify(password.to_owned(), hash).await),
        None => Ok(true),
    }
}

async fn stored_hash(ctx: &Ctx, user_id: i64) -> Result<Option<String>, AppError> {
    Ok(
        sqlx::query_scalar("SELECT password_hash FROM users WHERE id = ?")
            .bind(user_id)
            .fetch_one(ctx.state().db())
            .await?,
    )
}

pub async fn change_password(
    ctx: Ctx,
    Form(form): Form<PasswordForm>,
) -> Result<Response, AppError> {
    let user = ctx.require(Role::Investor)?.clone();
    let mut errors = FieldErrors::default();
    let has_password = stored_hash(&ctx, user.id).await?.is_some();
    if has_password && form.current_password.is_empty() {
        errors.add("current_password", "validation-required");
    }
    check_new_password(
        &mut errors,
        "password",
        "password_confirm",
        &form.password,
        &form.password_confirm,
    );
    if errors.is_empty() && !current_password_ok(&ctx, user.id, &form.current_password).await? {
        errors.add("current_password", "profile-password-wrong");
    }
    if !errors.is_empty() {
        let p = load(&ctx, user.id).await?;
        return show(
            &ctx,
            &user,
            StatusCode::UNPROCESSABLE_ENTITY,
            "security",
            &p,
            &errors,
        )
        .await;
    }
    let hash = passwords::hash(form.password.clone()).await?;
    let db = ctx.state().db();
    // Other devices are signed out; this one signs in again under the new epoch.
    sqlx::query(
        "UPDATE users SET password_hash = ?, session_epoch = session_epoch + 1,
             updated_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now') WHERE id = ?",
    )
    .bind(hash)
    .bind(user.id)
    .execute(db)
    .await?;
    ctx.sign_in(user.id, session::Method::PasswordChange)
        .await?;
    flash(&ctx, "profile-password-saved").await?;
    Ok(saved("security"))
}

pub async fn upload_image(
    ctx: Ctx,
    headers: HeaderMap,
    mut multipart: Multipart,
) -> Result<Response, AppError> {
    let user = ctx.require(Role::Investor)?.clone();
    let (mut csrf, mut image) = (String::new(), None::<Result<Bytes, ()>>);
    while let Ok(Some(field)) = multipart.next_field().await {
        match field.name() {
            Some("csrf") => csrf = field.text().await.unwrap_or_default(),
            Some("image") => image = Some(field.bytes().await.map_err(|_| ())),
            _ => {}
        }
    }
    ctx.verify_csrf(&csrf, &headers)?;
    let mut errors = FieldErrors::default();
    let bytes = match image {
        // A body over the route's limit fails while reading.
        Some(Err(())) => {
            errors.add("image", "profile-image-too-large");
            None
        }
        Some(Ok(bytes)) if bytes.len() > IMAGE_MAX_BYTES => {
            errors.add("image", "profile-image-too-large");
            None
        }
        Some(Ok(bytes)) if crate::web::files::image_kind(&bytes).is_some() => Some(bytes),
        Some(Ok(bytes)) if bytes.is_empty() => {
            errors.add("image", "validation-required");
            None
        }
        None => {
            errors.add("image", "validation-required");
            None
        }
        Some(Ok(_)) => {
            errors.add("image", "profile-image-invalid");
            None
        }
    };
    let Some(bytes) = bytes else {
        let p = load(&ctx, user.id).await?;
        return show(
            &ctx,
            &user,
            StatusCode::UNPROCESSABLE_ENTITY,
            "info",
            &p,
            &errors,
        )
        .await;
    };
    let ext = crate::web::files::image_kind(&bytes).unwrap_or("bin");
    let mut name = [0u8; 16];
    rand::rng().fill_bytes(&mut name);
    let filename = format!(
        "{}.{ext}",
        name.iter().map(|b| format!("{b:02x}")).collect::<String>()
    );
    let dir = ctx.state().shared().data_dir.join("avatars");
    tokio::fs::create_dir_all(&dir)
        .await
        .map_err(anyhow::Error::from)?;
    tokio::fs::write(dir.join(&filename), &bytes)
        .await
        .map_err(anyhow::Error::from)?;
    let mut tx = ctx.state().db().begin().await?;
    let old: Option<String> = sqlx::query_scalar("SELECT profile_image FROM users WHERE id = ?")
        .bind(user.id)
        .fetch_one(&mut *tx)
        .await?;
    sqlx::query("UPDATE users SET profile_image = ?, updated_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now') WHERE id = ?")
        .bind(&filename)
        .bind(user.id)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    if let Some(old) = old.filter(|o| *o != filename) {
        let _ = tokio::fs::remove_file(dir.join(old)).await;
    }
    flash(&ctx, "profile-image-saved").await?;
    Ok(saved("info"))
}

/// `GET /api/file/{filename}`: a profile image, to its owner and to staff only.
pub async fn file(ctx: Ctx, Path(filename): Path<String>) -> Result<Response, AppError> {
    let user = ctx.user.clone().ok_or(AppError::SignInRequired)?;
    let valid_name = filename.len() <= 40
        && filename
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '.');
    if !valid_name {
        return Err(AppError::NotFound);
    }
    let owner: Option<i64> = sqlx::query_scalar("SELECT id FROM users WHERE profile_image = ?")
        .bind(&filename)
        .fetch_optional(ctx.state().db())
        .await?;
    match owner {
        Some(owner) if owner == user.id || user.role >= Role::Admin => {}
        Some(_) => return Err(AppError::Forbidden),
        None => return Err(AppError::NotFound),
    }
    let path = ctx
        .state()
        .shared()
        .data_dir
        .join("avatars")
        .join(&filename);
    let kind = match filename.rsplit('.').next() {
        Some("png") => "image/png",
        Some("webp") => "image/webp",
        _ => "image/jpeg",
    };
    crate::web::files::serve(&path, kind).await
}

/// `GET /profile/export`: the user's personal data as JSON (KVKK Art. 11).
pub async fn export(ctx: Ctx) -> Result<Response, AppError> {
    let user = ctx.require(Role::Investor)?.clone();
    let p = load(&ctx, user.id).await?;
    let (created_at, verified_at, terms_at): (String, Option<String>, Option<String>) =
        sqlx::query_as(
            "SELECT created_at, email_verified_at, terms_accepted_at FROM users WHERE id = ?",
        )
        .bind(user.id)
        .fetch_one(ctx.state().db())
        .await?;
    let newsletter: Option<(String, String)> = sqlx::query_as(
        "SELECT consented_at, consent_text_version FROM newsletter_subscribers WHERE email = ? AND unsubscribed_at IS NULL",
    )
    .bind(&p.email)
    .fetch_optional(ctx.state().db())
    .await?;
    let body = json!({
        "exported_at": crate::db::now_utc(),
        "account": {
            "email": p.email, "created_at": created_at, "email_verified_at": verified_at,
            "terms_accepted_at": terms_at, "language": p.language,
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
        "newsletter": newsletter.map(|(at, version)| json!({ "consented_at": at, "consent_text_version": version })),
    });
    let mut response = axum::Json(body).into_response();
    response.headers_mut().insert(
        header::CONTENT_DISPOSITION,
        HeaderValue::from_static("attachment; filename=\"ortak-kisisel-veriler.json\""),
    );
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    Ok(response)
}

/// Deletes the membership: personal data is erased and the row is kept only as an anonymous
/// shell, so records the law requires us to keep still point at a (now nameless) account.
pub async fn delete(ctx: Ctx, Form(form): Form<PasswordForm>) -> Result<Response, AppError> {
    let user = ctx.require(Role::Investor)?.clone();
    let mut errors = FieldErrors::default();
    let has_password = stored_hash(&ctx, user.id).await?.is_some();
    if has_password && form.current_password.is_empty() {
        errors.add("current_password", "validation-required");
    } else if !current_password_ok(&ctx, user.id, &form.current_password).await? {
        errors.add("current_password", "profile-password-wrong");
    }
    if form.confirm.as_deref() != Some("on") {
        errors.add("confirm", "validation-required");
    }
    if !errors.is_empty() {
        let p = load(&ctx, user.id).await?;
        return show(
            &ctx,
            &user,
            StatusCode::UNPROCESSABLE_ENTITY,
            "delete",
            &p,
            &errors,
        )
        .await;
    }
    let db = ctx.state().db();
    let mut tx = db.begin().await?;
    let image: Option<String> = sqlx::query_scalar("SELECT profile_image FROM users WHERE id = ?")
        .bind(user.id)
        .fetch_one(&mut *tx)
        .await?;
    sqlx::query("DELETE FROM newsletter_subscribers WHERE email = ?")
        .bind(&user.email)
        .execute(&mut *tx)
        .await?;
    sqlx::query("DELETE FROM auth_tokens WHERE user_id = ?")
        .bind(user.id)
        .execute(&mut *tx)
        .await?;
    sqlx::query(
        "UPDATE users SET email = 'deleted-' || id || '@deleted.invalid', password_hash = NULL, first_name = '',
             last_name = '', position = '', phone = '', country = '', city = '', company_name = '', tax_office = '',
             registration_purpose = NULL, budget_range = NULL, interests = '', how_heard = NULL,
             prior_experience = NULL, specific_investment = NULL, specific_startup = '', turkish_citizen = NULL,
             id_type = NULL, identity_number = '', annual_income_kurus = NULL, birth_date = NULL,
             profile_image = NULL, session_epoch = session_epoch + 1,
             deactivated_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now'), updated_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now')
         WHERE id = ?",
    )
    .bind(user.id)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    if let Some(image) = image {
        let _ =
            tokio::fs::remove_file(ctx.state().shared().data_dir.join("avatars").join(image)).await;
    }
    tracing::info!(user_id = user.id, "membership deleted");
    session::sign_out(ctx.session()?).await?;
    flash(&ctx, "profile-deleted").await?;
    let mut response = Redirect::to("/").into_response();
    response.headers_mut().insert(
        "clear-site-data",
        HeaderValue::from_static("\"cache\", \"storage\""),
    );
    Ok(response)
}
