//! `/dashboard`: today's figures and the weekly charts.

use axum::http::StatusCode;
use axum::response::Response;
use ortak_app::pages::dashboard::{StaffHome, staff_home_page};

use crate::error::AppError;
use crate::web::{Access, Ctx, Routes, Staff};

pub async fn home(ctx: Ctx, Staff { superadmin, .. }: Staff) -> Result<Response, AppError> {
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
    let page = ctx.page_ctx(|pc| staff_home_page(pc, home));
    Ok(ctx.render(StatusCode::OK, page).await)
}

pub fn routes() -> Routes {
    Routes::new(Access::Staff)
        .get("/dashboard", home)
        .nav("dashboard-home")
}
