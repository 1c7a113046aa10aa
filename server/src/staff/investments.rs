//! `/dashboard/investments` and `/dashboard/pre-investments` (superadmin): follow requests.

use axum::body::Bytes;
use axum::extract::Path;
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Redirect, Response};
use ortak_app::domain::investing::RequestStatus;
use ortak_app::domain::money::Money;
use ortak_app::i18n::Locale;
use ortak_app::pages::dashboard::staff_detail_page;
use ortak_app::pages::staff_table::{NOTE, RowAction, StaffRow, StaffTable};
use ortak_app::shell::{Flash, FlashKind};

use crate::error::AppError;
use crate::investing::staff_transition;
use crate::web::form::FormBody;
use crate::web::session::Role;
use crate::web::{Access, Ctx, Routes, SuperAdmin};

async fn list(ctx: Ctx, kind: &str) -> Result<Response, AppError> {
    ctx.require(Role::SuperAdmin)?;
    let rows: Vec<(i64, String, String, i64, String, String)> = sqlx::query_as(
        "SELECT r.id, u.email, s.name, r.amount_kurus, r.status, r.created_at
         FROM investment_requests r JOIN users u ON u.id = r.user_id JOIN startups s ON s.id = r.startup_id
         WHERE r.kind = ? ORDER BY r.created_at DESC, r.id DESC LIMIT 2000",
    )
    .bind(kind)
    .fetch_all(ctx.state().db())
    .await?;
    let rows = rows
        .into_iter()
        .map(|(id, investor, startup, amount, status, created)| {
            let status = RequestStatus::from_code(&status).unwrap_or(RequestStatus::Submitted);
            let action = format!("/dashboard/investments/{id}/status");
            let mut actions: Vec<RowAction> = RequestStatus::ALL
                .iter()
                .filter(|to| status.staff_can_move_to(**to))
                .map(|to| RowAction {
                    action: action.clone(),
                    name: "to",
                    value: to.code().to_owned(),
                    label_id: format!("dashboard-move-{}", to.code()),
                    fields: if *to == RequestStatus::Rejected {
                        NOTE
                    } else {
                        &[]
                    },
                })
                .collect();
            if status.is_open() {
                actions.push(RowAction {
                    action: format!("/dashboard/investments/{id}/contacted"),
                    name: "contacted",
                    value: "1".into(),
                    label_id: "dashboard-mark-contacted".into(),
                    fields: NOTE,
                });
            }
            StaffRow {
                id,
                cells: vec![
                    id.to_string().into(),
                    investor.into(),
                    startup.into(),
                    Money::from_kurus(amount).format(Locale::Tr).into(),
                    ctx.t(&format!("request-status-{}", status.code())).into(),
                    crate::db::stored_date_tr(&created).into(),
                ],
                link: Some((
                    format!("/dashboard/investments/{id}"),
                    "dashboard-history".to_owned(),
                )),
                actions,
            }
        })
        .collect();
    let table = StaffTable {
        title_id: if kind == "pre_investment" {
            "dashboard-pre-investments"
        } else {
            "dashboard-investments-title"
        },
        columns: vec![
            "dashboard-col-number",
            "dashboard-col-investor",
            "dashboard-col-startup",
            "dashboard-col-amount",
            "dashboard-col-status",
            "dashboard-col-date",
        ],
        rows,
        search: None,
        csv: None,
        create: None,
    };
    super::table::render_table(&ctx, table).await
}

pub async fn investments(ctx: Ctx) -> Result<Response, AppError> {
    list(ctx, "investment").await
}

pub async fn pre_investments(ctx: Ctx) -> Result<Response, AppError> {
    list(ctx, "pre_investment").await
}

/// `POST /dashboard/investments/{id}/status`: `to` is the next status, `note` the reason.
pub async fn move_request(
    ctx: Ctx,
    SuperAdmin(staff): SuperAdmin,
    Path(id): Path<i64>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, AppError> {
    let f = FormBody::parse(&body);
    let get = |k: &str| f.get(k);
    ctx.verify_csrf(&get("csrf"), &headers)?;
    let to =
        RequestStatus::from_code(&get("to")).ok_or(AppError::BadRequest("bad-request-text"))?;
    let note: String = get("note").trim().chars().take(500).collect();
    staff_transition(
        ctx.state().db(),
        &ctx.state().shared().public_url,
        id,
        to,
        staff.id,
        &note,
    )
    .await?;
    ctx.state().wake_mailer();
    ctx.set_flash(Flash {
        kind: FlashKind::Success,
        message_id: "dashboard-moved".into(),
    })
    .await?;
    let kind: String = sqlx::query_scalar("SELECT kind FROM investment_requests WHERE id = ?")
        .bind(id)
        .fetch_one(ctx.state().db())
        .await?;
    let back = if kind == "pre_investment" {
        "/dashboard/pre-investments"
    } else {
        "/dashboard/investments"
    };
    Ok(Redirect::to(back).into_response())
}

/// `/dashboard/investments/{id}`: the request, its moves, and what staff may do next.
pub async fn request_page(ctx: Ctx, Path(id): Path<i64>) -> Result<Response, AppError> {
    ctx.require(Role::SuperAdmin)?;
    let db = ctx.state().db();
    type Facts = (
        String,
        String,
        String,
        String,
        i64,
        i64,
        i64,
        String,
        Option<String>,
        Option<String>,
    );
    let r: Facts = sqlx::query_as(
        "SELECT u.email, u.first_name || ' ' || u.last_name, s.name, r.kind, r.amount_kurus, r.fee_kurus, r.total_kurus,
             r.status, r.rejection_reason, b.reference
         FROM investment_requests r JOIN users u ON u.id = r.user_id JOIN startups s ON s.id = r.startup_id
         LEFT JOIN bank_transfers b ON b.request_id = r.id WHERE r.id = ?",
    )
    .bind(id)
    .fetch_optional(db)
    .await?
    .ok_or(AppError::NotFound)?;
    let (email, name, startup, kind, amount, fee, total, status, reason, reference) = r;
    let status = RequestStatus::from_code(&status).unwrap_or(RequestStatus::Submitted);
    let money = |k: i64| Money::from_kurus(k).format(ctx.locale);
    let mut facts = vec![
        (ctx.t("dashboard-col-investor"), format!("{name} <{email}>")),
        (ctx.t("dashboard-col-startup"), startup),
        (
            ctx.t("dashboard-col-kind"),
            ctx.t(if kind == "pre_investment" {
                "dashboard-pre-investments"
            } else {
                "dashboard-investments-title"
            }),
        ),
        (ctx.t("dashboard-col-amount"), money(amount)),
        (ctx.t("dashboard-col-fee"), money(fee)),
        (ctx.t("dashboard-col-total"), money(total)),
        (
            ctx.t("dashboard-col-status"),
            ctx.t(&format!("request-status-{}", status.code())),
        ),
    ];
    if let Some(reason) = reason.filter(|r| !r.is_empty()) {
        facts.push((ctx.t("dashboard-note"), reason));
    }
    if let Some(reference) = reference {
        facts.push((ctx.t("dashboard-transfer-reference"), reference));
    }
    let events: Vec<(String, String, String, Option<String>)> = sqlx::query_as(
        "SELECT e.created_at, e.status, e.note, u.email FROM request_events e
         LEFT JOIN users u ON u.id = e.actor_user_id WHERE e.request_id = ? ORDER BY e.id",
    )
    .bind(id)
    .fetch_all(db)
    .await?;
    let history = events
        .into_iter()
        .map(|(at, event, note, by)| {
            let label = if event == "contacted" {
                ctx.t("dashboard-contacted")
            } else {
                ctx.t(&format!("request-status-{event}"))
            };
            vec![
                crate::db::stored_date_time_tr(&at),
                label,
                note,
                by.unwrap_or_default(),
            ]
        })
        .collect();
    let actions = RequestStatus::ALL
        .iter()
        .filter(|to| status.staff_can_move_to(**to))
        .map(|to| RowAction {
            action: format!("/dashboard/investments/{id}/status"),
            name: "to",
            value: to.code().to_owned(),
            label_id: format!("dashboard-move-{}", to.code()),
            fields: NOTE,
        })
        .collect();
    let title = format!("{} #{id}", ctx.t("dashboard-request"));
    let page = ctx.page_ctx(|pc| {
        staff_detail_page(
            pc,
            title,
            facts,
            (
                vec![
                    "dashboard-col-date",
                    "dashboard-col-status",
                    "dashboard-note",
                    "dashboard-col-by",
                ],
                history,
            ),
            actions,
            None,
        )
    });
    Ok(ctx.render(axum::http::StatusCode::OK, page).await)
}

/// `POST /dashboard/investments/{id}/contacted`: staff reached the investor; the note says how.
pub async fn contacted(
    ctx: Ctx,
    Path(id): Path<i64>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, AppError> {
    let staff = ctx.require(Role::SuperAdmin)?.clone();
    let f = FormBody::parse(&body);
    ctx.verify_csrf(&f.get("csrf"), &headers)?;
    let note: String = f.get("note").trim().chars().take(500).collect();
    let mut tx = ctx.state().db().begin().await?;
    let found: Option<(String, String, String, String, String)> = sqlx::query_as(
        "SELECT r.status, r.kind, u.email, u.first_name, u.language FROM investment_requests r
         JOIN users u ON u.id = r.user_id WHERE r.id = ?",
    )
    .bind(id)
    .fetch_optional(&mut *tx)
    .await?;
    let (status, kind, email, name, language) = found.ok_or(AppError::NotFound)?;
    if !RequestStatus::from_code(&status).is_some_and(RequestStatus::is_open) {
        return Err(AppError::BadRequest("bad-request-text"));
    }
    sqlx::query("INSERT INTO request_events (request_id, status, note, actor_user_id) VALUES (?, 'contacted', ?, ?)")
        .bind(id)
        .bind(&note)
        .bind(staff.id)
        .execute(&mut *tx)
        .await?;
    let locale = Locale::from_code(&language).unwrap_or_default();
    let link = format!("{}/pendingInvestments", ctx.state().shared().public_url);
    crate::mail::enqueue(
        &mut tx,
        &crate::mail::Mail::action(&email, locale, &name, "request-contacted", &link),
    )
    .await?;
    crate::db::audit::record(
        &mut tx,
        staff.id,
        "request.contacted",
        &format!("request:{id}"),
        Some(&status),
        Some(format!("contacted {note}").trim()),
    )
    .await?;
    tx.commit().await?;
    ctx.state().wake_mailer();
    ctx.set_flash(Flash {
        kind: FlashKind::Success,
        message_id: "dashboard-moved".into(),
    })
    .await?;
    let back = if kind == "pre_investment" {
        "/dashboard/pre-investments"
    } else {
        "/dashboard/investments"
    };
    Ok(Redirect::to(back).into_response())
}

pub fn routes() -> Routes {
    Routes::new(Access::SuperAdmin)
        .get("/dashboard/investments", investments)
        .nav("dashboard-investments-title")
        .get("/dashboard/investments.json", investments)
        .get("/dashboard/pre-investments", pre_investments)
        .nav("dashboard-pre-investments")
        .get("/dashboard/pre-investments.json", pre_investments)
        .get("/dashboard/investments/{id}", request_page)
        .post("/dashboard/investments/{id}/status", move_request)
        .post("/dashboard/investments/{id}/contacted", contacted)
}
