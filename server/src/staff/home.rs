//! `/dashboard`: today's figures, the request funnel and the weekly charts of sign-ups and
//! investment requests.

use axum::http::StatusCode;
use axum::response::Response;
use ortak_app::domain::time_fmt::ISTANBUL;
use ortak_app::pages::dashboard::{StaffHome, staff_home_page};
use time::{Date, Duration, OffsetDateTime};

use super::queries::home::{self as queries, DayCount};
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
        signups: by_week(now, queries::daily_signups(db, since).await?),
        requests: by_week(now, queries::daily_requests(db, since).await?),
        funnel,
        overdue: crate::startups::reports::overdue(db, None, ctx.state().today()).await?,
    };
    let page = ctx.page_ctx(|pc| staff_home_page(pc, home));
    Ok(ctx.render(StatusCode::OK, page).await)
}

/// An ISO 8601 week as the charts label it: `2026 / 48` (the week-numbering year, which can
/// differ from the calendar's around New Year).
fn iso_week(day: Date) -> String {
    let (year, week, _) = day.to_iso_week_date();
    format!("{year} / {week:02}")
}

/// The last `WEEKS` ISO weeks up to `now` (Istanbul's calendar), oldest first, as
/// `(label, count)`, empty weeks included.
fn by_week(now: OffsetDateTime, days: Vec<DayCount>) -> Vec<(String, i64)> {
    let today = now.to_offset(ISTANBUL).date();
    (0..WEEKS)
        .rev()
        .map(|i| {
            let week = iso_week(today - Duration::weeks(i));
            let n = days
                .iter()
                .filter(|d| iso_week(d.day) == week)
                .map(|d| d.count)
                .sum();
            (week, n)
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
    fn weeks_are_iso_weeks_and_missing_ones_count_zero() {
        // Saturday 28.11.2026 is in ISO week 48 (SQLite's `%W` says 47).
        let now = time::macros::datetime!(2026-11-28 10:00 UTC);
        let day = |d, count| DayCount { day: d, count };
        let weeks = by_week(
            now,
            vec![
                day(time::macros::date!(2026 - 11 - 23), 2),
                day(time::macros::date!(2026 - 11 - 29), 1),
                day(time::macros::date!(2026 - 11 - 22), 5),
            ],
        );
        assert_eq!(weeks.len(), 8);
        assert_eq!(weeks[7], ("2026 / 48".to_owned(), 3));
        assert_eq!(weeks[6], ("2026 / 47".to_owned(), 5));
        assert_eq!(weeks[0], ("2026 / 41".to_owned(), 0));
        // Around New Year the ISO year leads: 31.12.2024 is in week 1 of 2025.
        assert_eq!(iso_week(time::macros::date!(2024 - 12 - 31)), "2025 / 01");
    }
}
