//! The staff dashboard (`/dashboard`): today's figures, users and their MKK data, startup
//! applications, messages and applications from the forms, newsletter subscribers, and the
//! audit log. Every staff action is recorded in `audit_log`, which nothing can change.

use axum::body::Bytes;
use axum::extract::{Path, Query};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Redirect, Response};
use ortak_app::domain::project::{ANSWER_LABELS, FOUNDER_FIELDS};
use ortak_app::domain::text::contains_turkish_ci;
use ortak_app::i18n::FluentArg;
use ortak_app::pages::dashboard::{
    NOTE, RowAction, StaffHome, StaffRow, StaffTable, staff_home_page, staff_table_page,
};
use ortak_app::shell::{Flash, FlashKind};
use serde::Deserialize;
use sqlx::SqliteConnection;

use crate::accounts::session::{CurrentUser, Role};
use crate::context::Ctx;
use crate::error::AppError;
use crate::form_body::FormBody;

/// Records a staff action; the table refuses updates and deletes.
pub async fn audit(
    conn: &mut SqliteConnection,
    actor: i64,
    action: &str,
    subject: &str,
    before: Option<&str>,
    after: Option<&str>,
) -> Result<(), sqlx::Error> {
    sqlx::query("INSERT INTO audit_log (actor_user_id, action, subject, before, after) VALUES (?, ?, ?, ?, ?)")
        .bind(actor)
        .bind(action)
        .bind(subject)
        .bind(before)
        .bind(after)
        .execute(conn)
        .await?;
    Ok(())
}

pub fn staff(ctx: &Ctx) -> Result<(CurrentUser, bool), AppError> {
    let user = ctx.require(Role::Admin)?.clone();
    let superadmin = user.role >= Role::SuperAdmin;
    Ok((user, superadmin))
}

/// A staff member's POST: the role, the CSRF token, and the parsed form.
pub fn staff_post(
    ctx: &Ctx,
    headers: &HeaderMap,
    body: &Bytes,
) -> Result<(CurrentUser, FormBody), AppError> {
    let (user, _) = staff(ctx)?;
    let form = FormBody::parse(body);
    ctx.verify_csrf(&form.get("csrf"), headers)?;
    Ok((user, form))
}

/// Renders a staff list: the page (`?page=`), or under `….json` the rows the table island
/// reads, so both answer with the same data and the same authorization.
pub async fn render_table(
    ctx: &Ctx,
    superadmin: bool,
    table: StaffTable,
) -> Result<Response, AppError> {
    if ctx.path.ends_with(".json") {
        let json = ctx.page_ctx(|pc| table.json_text(pc));
        let headers = [
            (header::CACHE_CONTROL, "no-store"),
            (header::CONTENT_TYPE, "application/json"),
        ];
        return Ok((headers, json).into_response());
    }
    if let Some(base) = ctx.path.strip_suffix(".csv") {
        let mut csv = String::from("\u{feff}");
        let lines = std::iter::once(table.columns.iter().map(|c| ctx.t(c)).collect::<Vec<_>>())
            .chain(table.rows.iter().map(|r| r.cells.clone()));
        for line in lines {
            csv.push_str(
                &line
                    .iter()
                    .map(|v| csv_cell(v))
                    .collect::<Vec<_>>()
                    .join(","),
            );
            csv.push_str("\r\n");
        }
        let name = format!(
            "attachment; filename=\"ortak-{}.csv\"",
            base.rsplit('/').next().unwrap_or("list")
        );
        return Ok((
            [
                (header::CONTENT_TYPE, "text/csv; charset=utf-8".to_owned()),
                (header::CONTENT_DISPOSITION, name),
                (header::CACHE_CONTROL, "no-store".to_owned()),
            ],
            csv,
        )
            .into_response());
    }
    let page = ctx
        .query
        .as_deref()
        .and_then(|q| {
            form_urlencoded::parse(q.as_bytes())
                .find(|(k, _)| k == "page")
                .and_then(|(_, v)| v.parse().ok())
        })
        .unwrap_or(1);
    let page = ctx.page_ctx(|pc| staff_table_page(pc, superadmin, table, page));
    Ok(ctx.render(StatusCode::OK, page).await)
}

pub async fn done(ctx: &Ctx, back: &str) -> Result<Response, AppError> {
    ctx.set_flash(Flash {
        kind: FlashKind::Success,
        message_id: "dashboard-done".into(),
    })
    .await?;
    Ok(Redirect::to(back).into_response())
}

pub fn date(text: &str) -> String {
    crate::db::parse_utc(text)
        .map(|t| {
            ortak_app::domain::time_fmt::format_date_short(
                ortak_app::domain::time_fmt::istanbul_date(t),
                ortak_app::i18n::Locale::Tr,
            )
        })
        .unwrap_or_default()
}

/// A stored UTC time as Istanbul date and time, `21.11.2026 14:05`.
pub fn date_time(text: &str) -> String {
    crate::db::parse_utc(text)
        .map(|t| {
            let local = t.to_offset(ortak_app::domain::time_fmt::ISTANBUL);
            format!("{} {:02}:{:02}", date(text), local.hour(), local.minute())
        })
        .unwrap_or_default()
}

pub async fn home(ctx: Ctx) -> Result<Response, AppError> {
    let (_, superadmin) = staff(&ctx)?;
    let db = ctx.state().db();
    let count =
        |sql: &'static str| async move { sqlx::query_scalar::<_, i64>(sql).fetch_one(db).await };
    let figures = vec![
        ("dashboard-figure-users", count("SELECT COUNT(*) FROM users WHERE created_at >= strftime('%Y-%m-%dT%H:%M:%SZ', 'now', '-7 days')").await?, "/dashboard/users"),
        ("dashboard-figure-mkk", count("SELECT COUNT(*) FROM mkk_profiles WHERE status = 'submitted'").await?, "/dashboard/users"),
        ("dashboard-figure-requests", count("SELECT COUNT(*) FROM investment_requests WHERE status IN ('submitted', 'under_review')").await?, "/dashboard/investments"),
        ("dashboard-figure-paid", count("SELECT COUNT(*) FROM investment_requests WHERE fee_paid_at IS NOT NULL").await?, "/dashboard/investments"),
        ("dashboard-figure-applications", count("SELECT COUNT(*) FROM startup_applications WHERE status = 'new'").await?, "/dashboard/applications"),
        ("dashboard-figure-messages", count("SELECT COUNT(*) FROM contact_messages WHERE handled_at IS NULL").await?, "/dashboard/contacts"),
    ];
    // Admins cannot open the superadmin sections, so their figures link home.
    let figures = figures
        .into_iter()
        .map(|(label, n, href)| {
            (
                label,
                n,
                if superadmin || href != "/dashboard/investments" {
                    href
                } else {
                    "/dashboard"
                },
            )
        })
        .collect();
    // The last eight weeks (SQLite's %W: Monday-first week numbers), empty weeks included.
    let now = time::OffsetDateTime::now_utc();
    let weeks: Vec<String> = (0..8)
        .rev()
        .map(|i| {
            (now - time::Duration::weeks(i))
                .format(time::macros::format_description!(
                    "[year]-[week_number repr:monday]"
                ))
                .unwrap_or_default()
        })
        .collect();
    let weekly = |table: &'static str| {
        let weeks = weeks.clone();
        async move {
            let counts: Vec<(String, i64)> = sqlx::query_as(&format!(
                "SELECT strftime('%Y-%W', created_at) AS week, COUNT(*) FROM {table}
                 WHERE created_at >= strftime('%Y-%m-%dT%H:%M:%SZ', 'now', '-63 days') GROUP BY week"
            ))
            .fetch_all(db)
            .await?;
            Ok::<_, sqlx::Error>(
                weeks
                    .iter()
                    .map(|w| {
                        let n = counts.iter().find(|(k, _)| k == w).map_or(0, |(_, n)| *n);
                        (w.replace('-', " / "), n)
                    })
                    .collect::<Vec<_>>(),
            )
        }
    };
    let signups = weekly("users").await?;
    let requests = weekly("investment_requests").await?;
    let funnel = vec![
        ("request-status-submitted", count("SELECT COUNT(*) FROM investment_requests").await?),
        ("dashboard-funnel-approved", count("SELECT COUNT(*) FROM investment_requests WHERE status IN ('approved', 'paid', 'completed')").await?),
        ("dashboard-funnel-paid", count("SELECT COUNT(*) FROM investment_requests WHERE status IN ('paid', 'completed')").await?),
        ("dashboard-funnel-completed", count("SELECT COUNT(*) FROM investment_requests WHERE status = 'completed'").await?),
    ]
    .into_iter()
    .map(|(label, n)| (ctx.t(label), n))
    .collect();
    let home = StaffHome {
        figures,
        signups,
        requests,
        funnel,
    };
    let page = ctx.page_ctx(|pc| staff_home_page(pc, superadmin, home));
    Ok(ctx.render(StatusCode::OK, page).await)
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct Search {
    q: String,
}

/// id, e-mail, name, role, joined, MKK status, deactivated.
type UserRow = (i64, String, String, String, String, Option<String>, bool);

/// `/dashboard/users`: search by Turkish case rules; review MKK data; open a member.
pub async fn users(ctx: Ctx, Query(search): Query<Search>) -> Result<Response, AppError> {
    let (_, superadmin) = staff(&ctx)?;
    let rows: Vec<UserRow> = sqlx::query_as(
        "SELECT u.id, u.email, u.first_name || ' ' || u.last_name, u.role, u.created_at, m.status,
             u.deactivated_at IS NOT NULL
         FROM users u LEFT JOIN mkk_profiles m ON m.user_id = u.id ORDER BY u.id DESC LIMIT 5000",
    )
    .fetch_all(ctx.state().db())
    .await?;
    let q = search.q.trim();
    let rows = rows
        .into_iter()
        // Names follow Turkish case rules; e-mail addresses are ASCII and lower-case.
        .filter(|(_, email, name, ..)| {
            q.is_empty() || email.contains(&q.to_lowercase()) || contains_turkish_ci(name, q)
        })
        .map(|(id, email, name, role, created, mkk, deactivated)| {
            let actions = if mkk.as_deref() == Some("submitted") {
                mkk_actions(id)
            } else {
                Vec::new()
            };
            StaffRow {
                id,
                cells: vec![
                    email,
                    name,
                    ctx.t(&format!("role-{role}")),
                    mkk.map(|m| ctx.t(&format!("dashboard-mkk-{m}")))
                        .unwrap_or_default(),
                    ctx.t(if deactivated {
                        "dashboard-deactivated"
                    } else {
                        "dashboard-active"
                    }),
                    date(&created),
                ],
                link: Some((
                    format!("/dashboard/users/{id}"),
                    "dashboard-view".to_owned(),
                )),
                actions,
            }
        })
        .collect();
    let table = StaffTable {
        title_id: "dashboard-users",
        columns: vec![
            "dashboard-col-email",
            "dashboard-col-name",
            "dashboard-col-role",
            "dashboard-col-mkk",
            "dashboard-col-handled",
            "dashboard-col-date",
        ],
        rows,
        search: Some(search.q.clone()),
        csv: None,
        create: None,
    };
    render_table(&ctx, superadmin, table).await
}

/// Verify or reject a member's submitted MKK details.
pub fn mkk_actions(id: i64) -> Vec<RowAction> {
    vec![
        RowAction {
            action: format!("/dashboard/users/{id}/mkk"),
            name: "decision",
            value: "verified".into(),
            label_id: "dashboard-mkk-verify".into(),
            fields: &[],
        },
        RowAction {
            action: format!("/dashboard/users/{id}/mkk"),
            name: "decision",
            value: "rejected".into(),
            label_id: "dashboard-mkk-reject".into(),
            fields: NOTE,
        },
    ]
}

/// `POST /dashboard/users/{id}/mkk`: verify, or reject with a reason the investor sees.
pub async fn review_mkk(
    ctx: Ctx,
    Path(id): Path<i64>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, AppError> {
    let (staff, f) = staff_post(&ctx, &headers, &body)?;
    let decision = f.get("decision");
    if !["verified", "rejected"].contains(&decision.as_str()) {
        return Err(AppError::BadRequest("bad-request-text"));
    }
    let reason: String = f.get("note").trim().chars().take(500).collect();
    let mut tx = ctx.state().db().begin().await?;
    let before: Option<String> =
        sqlx::query_scalar("SELECT status FROM mkk_profiles WHERE user_id = ?")
            .bind(id)
            .fetch_optional(&mut *tx)
            .await?;
    let before = before.ok_or(AppError::NotFound)?;
    sqlx::query(
        "UPDATE mkk_profiles SET status = ?, rejection_reason = CASE WHEN ? = 'rejected' THEN ? END,
             verified_by = CASE WHEN ? = 'verified' THEN 'staff' END, reviewed_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now')
         WHERE user_id = ?",
    )
    .bind(&decision)
    .bind(&decision)
    .bind(&reason)
    .bind(&decision)
    .bind(id)
    .execute(&mut *tx)
    .await?;
    audit(
        &mut tx,
        staff.id,
        "mkk.review",
        &format!("user:{id}"),
        Some(&before),
        Some(format!("{decision} {reason}").trim()),
    )
    .await?;
    tx.commit().await?;
    done(&ctx, "/dashboard/users").await
}

/// `/dashboard/applications`: startup applications, with the presentation and a status.
pub async fn applications(ctx: Ctx) -> Result<Response, AppError> {
    let (_, superadmin) = staff(&ctx)?;
    type Row = (i64, String, String, Option<String>, Option<i64>);
    let rows: Vec<Row> = sqlx::query_as(
        "SELECT id, answers, status, submitted_at, startup_id FROM startup_applications
         WHERE status != 'draft' ORDER BY submitted_at DESC LIMIT 500",
    )
    .fetch_all(ctx.state().db())
    .await?;
    let rows = rows
        .into_iter()
        .map(|(id, answers, status, submitted, startup)| {
            let a: std::collections::BTreeMap<String, String> =
                serde_json::from_str(&answers).unwrap_or_default();
            let get = |k: &str| a.get(k).cloned().unwrap_or_default();
            StaffRow {
                id,
                cells: vec![
                    get("name"),
                    get("contact_email"),
                    ctx.t(&format!("dashboard-app-status-{status}")),
                    date(&submitted.unwrap_or_default()),
                ],
                link: Some((
                    format!("/dashboard/applications/{id}"),
                    "dashboard-view".to_owned(),
                )),
                actions: application_actions(id, &status, startup),
            }
        })
        .collect();
    let table = StaffTable {
        title_id: "dashboard-applications",
        columns: vec![
            "dashboard-col-name",
            "dashboard-col-email",
            "dashboard-col-handled",
            "dashboard-col-date",
        ],
        rows,
        search: None,
        csv: None,
        create: None,
    };
    render_table(&ctx, superadmin, table).await
}

/// An application's status moves, and "create startup" until one was made from it.
fn application_actions(id: i64, status: &str, startup: Option<i64>) -> Vec<RowAction> {
    ["in_review", "accepted", "declined"]
        .iter()
        .filter(|s| **s != status)
        .map(|s| RowAction {
            action: format!("/dashboard/applications/{id}/status"),
            name: "status",
            value: (*s).to_owned(),
            label_id: format!("dashboard-app-{s}"),
            fields: &[],
        })
        .chain(startup.is_none().then(|| RowAction {
            action: format!("/dashboard/applications/{id}/startup"),
            name: "create",
            value: "1".into(),
            label_id: "dashboard-app-create-startup".into(),
            fields: &[],
        }))
        .collect()
}

/// `/dashboard/applications/{id}`: every answer of a submitted application, its status
/// actions, the presentation and the startup made from it.
pub async fn application_page(ctx: Ctx, Path(id): Path<i64>) -> Result<Response, AppError> {
    let (_, superadmin) = staff(&ctx)?;
    type Row = (
        String,
        String,
        Option<String>,
        Option<String>,
        Option<i64>,
        Option<String>,
    );
    let row: Option<Row> = sqlx::query_as(
        "SELECT a.answers, a.status, a.submitted_at, a.presentation_name, a.startup_id, s.name
         FROM startup_applications a LEFT JOIN startups s ON s.id = a.startup_id
         WHERE a.id = ? AND a.status != 'draft'",
    )
    .bind(id)
    .fetch_optional(ctx.state().db())
    .await?;
    let (answers, status, submitted, presentation, startup, startup_name) =
        row.ok_or(AppError::NotFound)?;
    let a: std::collections::BTreeMap<String, String> =
        serde_json::from_str(&answers).unwrap_or_default();
    let answer = |k: &str| a.get(k).map(|v| v.trim().to_owned()).unwrap_or_default();
    let mut facts = vec![
        (
            ctx.t("dashboard-col-handled"),
            ctx.t(&format!("dashboard-app-status-{status}")),
        ),
        (
            ctx.t("dashboard-col-date"),
            date(&submitted.unwrap_or_default()),
        ),
    ];
    facts.extend(
        ANSWER_LABELS
            .iter()
            .map(|(key, label)| (ctx.t(label), answer(key)))
            .filter(|(_, v)| !v.is_empty()),
    );
    for (n, fields) in FOUNDER_FIELDS.iter().enumerate() {
        let founder: Vec<String> = fields
            .iter()
            .map(|k| answer(k))
            .filter(|v| !v.is_empty())
            .collect();
        if !founder.is_empty() {
            let label = ctx
                .locale
                .t_args("project-founder", &[("n", FluentArg::Num(n as i64 + 1))]);
            facts.push((label, founder.join(" · ")));
        }
    }
    if let Some(name) = &presentation {
        facts.push((ctx.t("project-presentation"), name.clone()));
    }
    if let Some(name) = startup_name {
        facts.push((ctx.t("dashboard-app-startup-made"), name));
    }
    let link = match (&presentation, startup) {
        (Some(_), _) => Some((
            format!("/dashboard/applications/{id}/presentation"),
            "dashboard-download".to_owned(),
        )),
        (None, Some(startup)) => Some((
            format!("/dashboard/startups/{startup}"),
            "dashboard-app-open-startup".to_owned(),
        )),
        (None, None) => None,
    };
    // Its history: every staff action on it, from the audit log.
    let history: Vec<AuditRow> = sqlx::query_as(
        "SELECT a.id, u.email, a.action, a.subject, a.before, a.after, a.created_at
         FROM audit_log a LEFT JOIN users u ON u.id = a.actor_user_id
         WHERE a.subject = ?1 OR a.before = ?1 ORDER BY a.id",
    )
    .bind(format!("application:{id}"))
    .fetch_all(ctx.state().db())
    .await?;
    let history = history
        .into_iter()
        .map(|(_, by, action, _, before, after, at)| {
            vec![
                date_time(&at),
                by.unwrap_or_default(),
                action,
                before.unwrap_or_default(),
                after.unwrap_or_default(),
            ]
        })
        .collect();
    let title = match answer("name") {
        name if name.is_empty() => ctx.t("dashboard-applications"),
        name => name,
    };
    let actions = application_actions(id, &status, startup);
    let page = ctx.page_ctx(|pc| {
        ortak_app::pages::dashboard::staff_detail_page(
            pc,
            superadmin,
            title,
            facts,
            (
                vec![
                    "dashboard-col-date",
                    "dashboard-col-by",
                    "dashboard-col-action",
                    "dashboard-audit-before",
                    "dashboard-audit-after",
                ],
                history,
            ),
            actions,
            link,
        )
    });
    Ok(ctx.render(StatusCode::OK, page).await)
}

pub async fn application_status(
    ctx: Ctx,
    Path(id): Path<i64>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, AppError> {
    let (staff, f) = staff_post(&ctx, &headers, &body)?;
    let status = f.get("status");
    if !["in_review", "accepted", "declined"].contains(&status.as_str()) {
        return Err(AppError::BadRequest("bad-request-text"));
    }
    let mut tx = ctx.state().db().begin().await?;
    let before: Option<String> = sqlx::query_scalar(
        "SELECT status FROM startup_applications WHERE id = ? AND status != 'draft'",
    )
    .bind(id)
    .fetch_optional(&mut *tx)
    .await?;
    let before = before.ok_or(AppError::NotFound)?;
    sqlx::query("UPDATE startup_applications SET status = ?, updated_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now') WHERE id = ?")
        .bind(&status)
        .bind(id)
        .execute(&mut *tx)
        .await?;
    audit(
        &mut tx,
        staff.id,
        "application.status",
        &format!("application:{id}"),
        Some(&before),
        Some(&status),
    )
    .await?;
    tx.commit().await?;
    done(&ctx, "/dashboard/applications").await
}

pub async fn application_presentation(ctx: Ctx, Path(id): Path<i64>) -> Result<Response, AppError> {
    staff(&ctx)?;
    let file: Option<(Option<String>, Option<String>)> =
        sqlx::query_as("SELECT presentation_file, presentation_name FROM startup_applications WHERE id = ? AND status != 'draft'")
            .bind(id)
            .fetch_optional(ctx.state().db())
            .await?;
    let (Some(file), name) = file.ok_or(AppError::NotFound)? else {
        return Err(AppError::NotFound);
    };
    let kind = match file.rsplit('.').next() {
        Some("pdf") => "application/pdf",
        Some("pptx") => "application/vnd.openxmlformats-officedocument.presentationml.presentation",
        _ => "application/vnd.ms-powerpoint",
    };
    let mut response = crate::files::serve(
        &ctx.state()
            .shared()
            .data_dir
            .join("applications")
            .join(&file),
        kind,
    )
    .await?;
    let safe: String = name
        .unwrap_or_default()
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_'))
        .collect();
    let disposition = format!(
        "attachment; filename=\"{}\"",
        if safe.is_empty() { file } else { safe }
    );
    response.headers_mut().insert(
        header::CONTENT_DISPOSITION,
        HeaderValue::from_str(&disposition).map_err(anyhow::Error::from)?,
    );
    Ok(response)
}

/// The three inboxes of the forms, `(table, title, columns as SQL, back path)`: name, e-mail,
/// subject, and everything else the sender wrote (`{lang}` is the staff member's language).
const INBOXES: [(&str, &str, &str, &str); 3] = [
    (
        "contact_messages",
        "dashboard-contacts",
        "name, email, subject, phone || ' · ' || message",
        "/dashboard/contacts",
    ),
    (
        "gsyf_applications",
        "dashboard-gsyf",
        "first_name || ' ' || last_name, email, fund_type || ' · ' || investment_range, phone",
        "/dashboard/gsyf",
    ),
    (
        "academy_applications",
        "dashboard-academy",
        "name, email,
         (SELECT COALESCE(NULLIF(e.title_{lang}, ''), e.title_tr) FROM academy_events e WHERE e.id = event_id),
         institution || ' · ' || phone || ' · ' || city || ' · ' || budget || ' · '
             || CASE invested_before WHEN 1 THEN '+' ELSE '-' END || ' · ' || heard_from
             || ' · ' || linkedin || ' · ' || note",
        "/dashboard/academy",
    ),
];

async fn inbox(ctx: Ctx, which: usize) -> Result<Response, AppError> {
    // The academy inbox leads to its events.
    let create = (which == 2).then_some("/dashboard/academy/events");
    let csv = Some(
        [
            "/dashboard/contacts.csv",
            "/dashboard/gsyf.csv",
            "/dashboard/academy.csv",
        ][which],
    );
    let (_, superadmin) = staff(&ctx)?;
    let (table, title, columns, back) = INBOXES[which];
    type Row = (i64, String, String, String, String, Option<String>, String);
    let columns = columns.replace("{lang}", ctx.locale.code());
    let rows: Vec<Row> = sqlx::query_as(&format!(
        "SELECT id, {columns}, handled_at, created_at FROM {table} ORDER BY created_at DESC LIMIT 500"
    ))
    .fetch_all(ctx.state().db())
    .await?;
    let rows = rows
        .into_iter()
        .map(|(id, a, b, c, d, handled, created)| StaffRow {
            id,
            cells: vec![
                a,
                b,
                c,
                d,
                ctx.t(if handled.is_some() {
                    "dashboard-handled"
                } else {
                    "dashboard-open"
                }),
                date(&created),
            ],
            link: None,
            actions: if handled.is_none() {
                vec![RowAction {
                    action: format!("{back}/{id}/handled"),
                    name: "handled",
                    value: "1".into(),
                    label_id: "dashboard-mark-handled".into(),
                    fields: &[],
                }]
            } else {
                Vec::new()
            },
        })
        .collect();
    let table = StaffTable {
        title_id: title,
        columns: vec![
            "dashboard-col-name",
            "dashboard-col-email",
            "dashboard-col-subject",
            "dashboard-col-details",
            "dashboard-col-handled",
            "dashboard-col-date",
        ],
        rows,
        search: None,
        csv,
        create,
    };
    render_table(&ctx, superadmin, table).await
}

async fn mark_handled(
    ctx: Ctx,
    which: usize,
    id: i64,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, AppError> {
    let (staff, _) = staff_post(&ctx, &headers, &body)?;
    let (table, _, _, back) = INBOXES[which];
    let mut tx = ctx.state().db().begin().await?;
    let updated = sqlx::query(&format!(
        "UPDATE {table} SET handled_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now') WHERE id = ? AND handled_at IS NULL"
    ))
    .bind(id)
    .execute(&mut *tx)
    .await?
    .rows_affected();
    if updated == 0 {
        return Err(AppError::NotFound);
    }
    audit(
        &mut tx,
        staff.id,
        "inbox.handled",
        &format!("{table}:{id}"),
        Some("open"),
        Some("handled"),
    )
    .await?;
    tx.commit().await?;
    done(&ctx, back).await
}

pub async fn contacts(ctx: Ctx) -> Result<Response, AppError> {
    inbox(ctx, 0).await
}
pub async fn gsyf(ctx: Ctx) -> Result<Response, AppError> {
    inbox(ctx, 1).await
}
pub async fn academy(ctx: Ctx) -> Result<Response, AppError> {
    inbox(ctx, 2).await
}
pub async fn contact_handled(
    ctx: Ctx,
    Path(id): Path<i64>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, AppError> {
    mark_handled(ctx, 0, id, headers, body).await
}
pub async fn gsyf_handled(
    ctx: Ctx,
    Path(id): Path<i64>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, AppError> {
    mark_handled(ctx, 1, id, headers, body).await
}
pub async fn academy_handled(
    ctx: Ctx,
    Path(id): Path<i64>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, AppError> {
    mark_handled(ctx, 2, id, headers, body).await
}

/// `/dashboard/newsletter`: subscribers with their consent records.
pub async fn newsletter(ctx: Ctx) -> Result<Response, AppError> {
    let (_, superadmin) = staff(&ctx)?;
    type Row = (i64, String, String, String, String, String);
    let rows: Vec<Row> = sqlx::query_as(
        "SELECT id, email, language, consent_text_version, source, consented_at FROM newsletter_subscribers
         WHERE unsubscribed_at IS NULL ORDER BY consented_at DESC LIMIT 2000",
    )
    .fetch_all(ctx.state().db())
    .await?;
    let rows = rows
        .into_iter()
        .map(|(id, email, language, version, source, at)| StaffRow {
            id,
            cells: vec![email, language, version, source, date_time(&at)],
            link: None,
            actions: vec![RowAction {
                action: format!("/dashboard/newsletter/{id}/unsubscribe"),
                name: "unsubscribe",
                value: "1".into(),
                label_id: "dashboard-unsubscribe".into(),
                fields: &[],
            }],
        })
        .collect();
    let table = StaffTable {
        title_id: "dashboard-newsletter",
        columns: vec![
            "dashboard-col-email",
            "field-language",
            "dashboard-consent-version",
            "dashboard-consent-source",
            "dashboard-consent-at",
        ],
        rows,
        search: None,
        csv: Some("/dashboard/newsletter.csv"),
        create: None,
    };
    render_table(&ctx, superadmin, table).await
}

/// A CSV cell: quoted, and a leading `= + - @` neutralised so spreadsheets do not run it.
fn csv_cell(value: &str) -> String {
    let value = if value.starts_with(['=', '+', '-', '@']) {
        format!("'{value}")
    } else {
        value.to_owned()
    };
    format!("\"{}\"", value.replace('"', "\"\""))
}

pub async fn newsletter_csv(ctx: Ctx) -> Result<Response, AppError> {
    staff(&ctx)?;
    let rows: Vec<(String, String, String, String, String)> = sqlx::query_as(
        "SELECT email, language, consent_text_version, consented_at, source FROM newsletter_subscribers
         WHERE unsubscribed_at IS NULL ORDER BY consented_at",
    )
    .fetch_all(ctx.state().db())
    .await?;
    let mut csv = String::from("email,language,consent_text_version,consented_at,source\r\n");
    for (a, b, c, d, e) in rows {
        csv.push_str(
            &[a, b, c, d, e]
                .iter()
                .map(|v| csv_cell(v))
                .collect::<Vec<_>>()
                .join(","),
        );
        csv.push_str("\r\n");
    }
    Ok((
        [
            (header::CONTENT_TYPE, "text/csv; charset=utf-8"),
            (
                header::CONTENT_DISPOSITION,
                "attachment; filename=\"ortak-bulten.csv\"",
            ),
            (header::CACHE_CONTROL, "no-store"),
        ],
        csv,
    )
        .into_response())
}

pub async fn unsubscribe(
    ctx: Ctx,
    Path(id): Path<i64>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, AppError> {
    let (staff, _) = staff_post(&ctx, &headers, &body)?;
    let mut tx = ctx.state().db().begin().await?;
    let email: Option<String> = sqlx::query_scalar(
        "UPDATE newsletter_subscribers SET unsubscribed_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now')
         WHERE id = ? AND unsubscribed_at IS NULL RETURNING email",
    )
    .bind(id)
    .fetch_optional(&mut *tx)
    .await?;
    let email = email.ok_or(AppError::NotFound)?;
    audit(
        &mut tx,
        staff.id,
        "newsletter.unsubscribe",
        &email,
        Some("subscribed"),
        Some("unsubscribed"),
    )
    .await?;
    tx.commit().await?;
    done(&ctx, "/dashboard/newsletter").await
}

/// id, actor's e-mail, action, subject, before, after, time.
type AuditRow = (
    i64,
    Option<String>,
    String,
    String,
    Option<String>,
    Option<String>,
    String,
);

/// `/dashboard/audit` (superadmin): who did what, when, before and after.
pub async fn audit_log(ctx: Ctx) -> Result<Response, AppError> {
    ctx.require(Role::SuperAdmin)?;
    let rows: Vec<AuditRow> = sqlx::query_as(
        "SELECT a.id, u.email, a.action, a.subject, a.before, a.after, a.created_at
         FROM audit_log a LEFT JOIN users u ON u.id = a.actor_user_id ORDER BY a.id DESC LIMIT 500",
    )
    .fetch_all(ctx.state().db())
    .await?;
    let rows = rows
        .into_iter()
        .map(|(id, by, action, subject, before, after, at)| StaffRow {
            id,
            cells: vec![
                date_time(&at),
                by.unwrap_or_default(),
                action,
                subject,
                before.unwrap_or_default(),
                after.unwrap_or_default(),
            ],
            link: None,
            actions: Vec::new(),
        })
        .collect();
    let table = StaffTable {
        title_id: "dashboard-audit",
        columns: vec![
            "dashboard-col-date",
            "dashboard-col-by",
            "dashboard-col-action",
            "dashboard-col-subject",
            "dashboard-audit-before",
            "dashboard-audit-after",
        ],
        rows,
        search: None,
        csv: None,
        create: None,
    };
    render_table(&ctx, true, table).await
}

/// Inputs for recording a received transfer.
const RECEIVED: &[(&str, &str, &str)] = &[
    ("amount", "dashboard-amount", "text"),
    ("date", "dashboard-col-date", "date"),
];

/// request id, reference, investor, startup, expected kuruş, received kuruş, received on.
type TransferRow = (
    i64,
    String,
    String,
    String,
    i64,
    Option<i64>,
    Option<String>,
);

/// `/dashboard/takasbank`: transfers expected by reference, what arrived, and mismatches.
pub async fn takasbank(ctx: Ctx) -> Result<Response, AppError> {
    let (_, superadmin) = staff(&ctx)?;
    let rows: Vec<TransferRow> = sqlx::query_as(
        "SELECT b.request_id, b.reference, u.email, s.name, b.amount_kurus, b.received_amount_kurus, b.received_at
         FROM bank_transfers b JOIN investment_requests r ON r.id = b.request_id
         JOIN users u ON u.id = r.user_id JOIN startups s ON s.id = r.startup_id
         ORDER BY b.created_at DESC LIMIT 500",
    )
    .fetch_all(ctx.state().db())
    .await?;
    let tr = ortak_app::i18n::Locale::Tr;
    let money = |k: i64| ortak_app::domain::money::Money::from_kurus(k).format(tr);
    let rows = rows
        .into_iter()
        .map(|(id, reference, email, startup, expected, received, on)| {
            // A state of its own (the island filters on it), then what arrived and when.
            let state = ctx.t(match received {
                None => "dashboard-transfer-waiting",
                Some(r) if r == expected => "dashboard-transfer-received",
                Some(_) => "dashboard-transfer-mismatch",
            });
            let on = on
                .map(|d| {
                    ortak_app::domain::time_fmt::format_date_short(crate::startups::date(&d), tr)
                })
                .unwrap_or_default();
            StaffRow {
                id,
                cells: vec![
                    reference,
                    email,
                    startup,
                    money(expected),
                    state,
                    received.map(money).unwrap_or_default(),
                    on,
                ],
                link: None,
                actions: vec![RowAction {
                    action: format!("/dashboard/takasbank/{id}/received"),
                    name: "received",
                    value: "1".into(),
                    label_id: "dashboard-transfer-mark".into(),
                    fields: RECEIVED,
                }],
            }
        })
        .collect();
    let table = StaffTable {
        title_id: "dashboard-takasbank",
        columns: vec![
            "dashboard-transfer-reference",
            "dashboard-col-email",
            "dashboard-col-startup",
            "dashboard-col-amount",
            "dashboard-col-status",
            "dashboard-transfer-received-amount",
            "dashboard-transfer-received-on",
        ],
        rows,
        search: None,
        csv: None,
        create: None,
    };
    render_table(&ctx, superadmin, table).await
}

/// `POST /dashboard/takasbank/{request}/received`: the amount and date the bank reported.
pub async fn transfer_received(
    ctx: Ctx,
    Path(id): Path<i64>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, AppError> {
    let (staff, f) = staff_post(&ctx, &headers, &body)?;
    let amount = ortak_app::domain::profile::parse_lira(&f.get("amount"))
        .ok_or(AppError::BadRequest("validation-number"))?;
    let date = time::Date::parse(
        f.get("date").trim(),
        time::macros::format_description!("[year]-[month]-[day]"),
    )
    .map_err(|_| AppError::BadRequest("validation-date"))?;
    let mut tx = ctx.state().db().begin().await?;
    let before: Option<(i64, Option<i64>)> = sqlx::query_as(
        "SELECT amount_kurus, received_amount_kurus FROM bank_transfers WHERE request_id = ?",
    )
    .bind(id)
    .fetch_optional(&mut *tx)
    .await?;
    let (expected, previous) = before.ok_or(AppError::NotFound)?;
    sqlx::query(
        "UPDATE bank_transfers SET received_amount_kurus = ?, received_at = ? WHERE request_id = ?",
    )
    .bind(amount.kurus())
    .bind(date.to_string())
    .bind(id)
    .execute(&mut *tx)
    .await?;
    let mismatch = if amount.kurus() == expected {
        ""
    } else {
        " (mismatch)"
    };
    let after = format!("{} on {date}{mismatch}", amount.kurus());
    audit(
        &mut tx,
        staff.id,
        "transfer.received",
        &format!("request:{id}"),
        previous.map(|p| p.to_string()).as_deref(),
        Some(&after),
    )
    .await?;
    // The request's history shows it too, under its current status.
    let status: String = sqlx::query_scalar("SELECT status FROM investment_requests WHERE id = ?")
        .bind(id)
        .fetch_one(&mut *tx)
        .await?;
    if let Some(status) = ortak_app::domain::investing::RequestStatus::from_code(&status) {
        let note = format!(
            "transfer received: {} on {date}{mismatch}",
            amount.format(ortak_app::i18n::Locale::Tr)
        );
        crate::investing::record_event(&mut tx, id, status, &note, Some(staff.id)).await?;
    }
    tx.commit().await?;
    done(&ctx, "/dashboard/takasbank").await
}

/// Inputs for a new academy event.
const EVENT: &[(&str, &str, &str)] = &[
    ("title_tr", "dashboard-title-tr", "text"),
    ("title_en", "dashboard-title-en", "text"),
    ("date", "dashboard-col-date", "date"),
];

/// `/dashboard/academy/events`: the events visitors apply to, and a form for a new one.
pub async fn academy_events(ctx: Ctx) -> Result<Response, AppError> {
    let (_, superadmin) = staff(&ctx)?;
    let rows: Vec<(String, String, String, bool)> = sqlx::query_as(
        "SELECT title_tr, title_en, starts_at, published FROM academy_events ORDER BY starts_at DESC",
    )
    .fetch_all(ctx.state().db())
    .await?;
    let history = rows
        .into_iter()
        .map(|(tr, en, at, published)| {
            vec![
                tr,
                en,
                date(&at),
                ctx.t(if published {
                    "dashboard-published"
                } else {
                    "dashboard-draft"
                }),
            ]
        })
        .collect();
    let add = RowAction {
        action: "/dashboard/academy/events".into(),
        name: "add",
        value: "1".into(),
        label_id: "dashboard-new".into(),
        fields: EVENT,
    };
    let title = ctx.t("dashboard-academy-events");
    let page = ctx.page_ctx(|pc| {
        ortak_app::pages::dashboard::staff_detail_page(
            pc,
            superadmin,
            title,
            Vec::new(),
            (
                vec![
                    "dashboard-title-tr",
                    "dashboard-title-en",
                    "dashboard-col-date",
                    "dashboard-col-handled",
                ],
                history,
            ),
            vec![add],
            None,
        )
    });
    Ok(ctx.render(StatusCode::OK, page).await)
}

/// `POST /dashboard/academy/events`: both titles and the day (10:00 in Istanbul).
pub async fn add_academy_event(
    ctx: Ctx,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, AppError> {
    let (staff, f) = staff_post(&ctx, &headers, &body)?;
    let (tr, en) = (
        f.get("title_tr").trim().to_owned(),
        f.get("title_en").trim().to_owned(),
    );
    if tr.is_empty() || en.is_empty() || tr.chars().count() > 200 || en.chars().count() > 200 {
        return Err(AppError::BadRequest("validation-required"));
    }
    let day = time::Date::parse(
        f.get("date").trim(),
        time::macros::format_description!("[year]-[month]-[day]"),
    )
    .map_err(|_| AppError::BadRequest("validation-date"))?;
    // 10:00 in Istanbul is 07:00 UTC.
    let starts = format!("{day}T07:00:00Z");
    let mut tx = ctx.state().db().begin().await?;
    let id: i64 = sqlx::query_scalar(
        "INSERT INTO academy_events (title_tr, title_en, starts_at) VALUES (?, ?, ?) RETURNING id",
    )
    .bind(&tr)
    .bind(&en)
    .bind(&starts)
    .fetch_one(&mut *tx)
    .await?;
    audit(
        &mut tx,
        staff.id,
        "academy.event",
        &format!("academy_event:{id}"),
        None,
        Some(&format!("{tr} | {en} | {day}")),
    )
    .await?;
    tx.commit().await?;
    done(&ctx, "/dashboard/academy/events").await
}
