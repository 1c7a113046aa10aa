//! The page that says why an investor cannot send a request yet, and how to fix it.

use leptos::prelude::*;

use super::private_page;
use crate::shell::{Page, PageContext};

/// Where the investor fixes what stops a request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fix {
    Nothing,
    /// Complete or correct the MKK data.
    Mkk,
    /// Verify the e-mail address first.
    Verify,
    /// Declare qualified-investor status (no annual limit).
    Qualified,
}

/// Why the investor cannot send a request yet.
pub fn investment_blocked_page(ctx: &PageContext, message_id: &str, to_mkk: bool) -> Page {
    let fix = if to_mkk { Fix::Mkk } else { Fix::Nothing };
    investment_refused_page(ctx, ctx.t(message_id), fix)
}

/// The MKK form's address; from an investment's page it carries that page, so saving the
/// form continues the investment.
fn mkk_href(ctx: &PageContext) -> String {
    match ctx.query {
        Some(query) if ctx.path == "/investmentFlow" => format!(
            "/mkk?next={}",
            crate::domain::paths::encode_query(&format!("{}?{query}", ctx.path))
        ),
        _ => "/mkk".to_owned(),
    }
}

/// Why the investor cannot send a request, with the way to fix it, and the way back to the
/// startup the amount page was for.
pub fn investment_refused_page(ctx: &PageContext, message: String, fix: Fix) -> Page {
    let links: Vec<(String, &str)> = match fix {
        Fix::Nothing => Vec::new(),
        Fix::Mkk => vec![(mkk_href(ctx), "investment-needs-mkk-link")],
        Fix::Verify => vec![("/verification".to_owned(), "investment-needs-verified-link")],
        // Both routes to the minimum: a declared income that lifts the limit, or qualified
        // status (issue 28).
        Fix::Qualified => vec![
            ("/qualifiedInvestor".to_owned(), "limit-qualified-link"),
            (mkk_href(ctx), "limit-income-link"),
        ],
    };
    let links = links
        .into_iter()
        .enumerate()
        .map(|(i, (href, id))| {
            let class = if i == 0 {
                "button button--primary"
            } else {
                "button button--ghost"
            };
            view! { <a class=class href=href>{ctx.t(id)}</a> }
        })
        .collect_view();
    let startup = ctx.query.and_then(|q| {
        q.split('&')
            .find_map(|p| p.strip_prefix("startup="))
            .filter(|s| !s.is_empty() && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-'))
            .map(str::to_owned)
    });
    let back = startup.map(|slug| {
        view! { <p><a href=format!("/startups/{slug}")>{ctx.t("investment-back-to-startup")}</a></p> }
    });
    let body = view! {
        <section class="bare-card auth-card">
            {back}
            <h1>{ctx.t("investment-title")}</h1>
            <div class="flash flash--info" role="status">{message.clone()}</div>
            <p class="cluster-actions">{links}</p>
            <p class="muted"><a href="/limits">{ctx.t("limits-calculate")}</a></p>
        </section>
    }
    .into_any();
    private_page(ctx.t("investment-title"), message, body)
}
