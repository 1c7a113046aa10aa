//! `/dashboard`: today's figures, the request funnel and the weekly charts of sign-ups and
//! investment requests.

use axum::http::StatusCode;
use axum::response::Response;
use ortak_app::pages::dashboard::{StaffHome, staff_home_page};
use time::{Duration, OffsetDateTime};

use super::queries::home::{self as queries, WeekCount};
use crate::error::AppError;
use crate::web::{Access, Ctx, Routes, Staff};

/// How many weeks the charts show, this one included.
const WEEKS: i64 = 8;

pub async fn home(ctx: Ctx, Staff { superadmin, .. }: Staff) -> Result<Response, AppError> {
    let db = ctx.state().db();
    let now = ctx.state().now();
    let n = queries::counts(db, now - Duration::days(7)).await?;
    // Admins cannot open the superadmin sections, so their figures link home.
    let investments = if superadmin {
        "/dashboard/investments"
    } else {
        "/dashboard"
    };
    let figures = vec![
        ("dashboard-figure-users", n.new_users, "/dashboard/users"),
        ("dashboard-figure-mkk", n.mkk_waiting, "/dashboard/users"),
        ("dashboard-figure-requests", n.open_requests, investments),
        ("dashboard-figure-paid", n.fee_paid, investments),
        (
            "dashboard-figure-applications",
            n.new_applications,
            "/dashboard/applications",
        ),
        (
            "dashboard-figure-messages",
            n.open_messages,
            "/dashboard/contacts",
        ),
    ];
    let funnel = [
        ("request-status-submitted", n.requests),
        ("dashboard-funnel-approved", n.approved),
        ("dashboard-funnel-paid", n.paid),
        ("dashboard-funnel-completed", n.completed),
    ]
    .into_iter()
    .map(|(label, n)| (ctx.t(label), n))
    .collect();
    // Nine weeks back covers the oldest week shown from its first day.
    let since = now - Duration::days(7 * (WEEKS + 1));
    let home = StaffHome {
        figures,
        signups: by_week(now, queries::weekly_signups(db, since).await?),
        requests: by_week(now, queries::weekly_requests(db, since).await?),
        funnel,
        overdue: crate::startups::reports::overdue(db, None, ctx.state().today()).await?,
    };
    let page = ctx.page_ctx(|pc| staff_home_page(pc, home));
    Ok(ctx.render(StatusCode::OK, page).await)
}

/// The last `WEEKS` weeks up to `now`, oldest first, as `(label, count)`, empty weeks
/// included. Weeks are SQLite's `%Y-%W` (Monday-first week numbers), labelled `2026 / 47`.
fn by_week(now: OffsetDateTime, counts: Vec<WeekCount>) -> Vec<(String, i64)> {
    (0..WEEKS)
        .rev()
        .map(|i| {
            let day = now - Duration::weeks(i);
            let week = format!("{}-{:02}", day.year(), day.monday_based_week());
            let n = counts
                .iter()
                .find(|c| c.week == week)
                .map_or(0, |c| c.count);
            (week.replace('-', " / "), n)
        })
        .collect()
}

pub fn routes() -> Routes {
    Routes::new(Access::Staff)
        .get("/dashboard", home)
        .nav("dashboard-home")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weeks_follow_sqlite_and_missing_ones_count_zero() {
        // Monday 2026-11-23 is in SQLite's week 47 of 2026.
        let now = time::macros::datetime!(2026-11-23 10:00 UTC);
        let weeks = by_week(
            now,
            vec![WeekCount {
                week: "2026-47".into(),
                count: 3,
            }],
        );
        assert_eq!(weeks.len(), 8);
        assert_eq!(weeks[7], ("2026 / 47".to_owned(), 3));
        assert_eq!(weeks[0], ("2026 / 40".to_owned(), 0));
    }
}
