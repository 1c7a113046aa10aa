//! The member's document vault (issue 17): `/documents` lists every text they accepted with
//! its version and time (the membership agreement and KVKK notice, the risk notice and the
//! round's information form of each request), and links each holding's confirmation, its
//! round's shareholder agreement and side letters, and a yearly statement. Those PDFs are
//! made when opened, in the member's language, from their own rows only, and never stored.

pub mod pdf;
mod queries;

use axum::extract::Path;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use ortak_app::domain::money::Money;
use ortak_app::domain::rounds::format_share;
use ortak_app::domain::time_fmt::format_day;
use ortak_app::i18n::Locale;
use ortak_app::pages::documents::{Accepted, Confirmation, Vault, documents_page};
use time::{Date, Month};

use crate::accounts::terms_of_user;
use crate::error::AppError;
use crate::web::{Access, Ctx, Member, Routes};
use pdf::Line;

pub fn routes() -> Vec<Routes> {
    vec![
        Routes::new(Access::Member)
            .get("/documents", page)
            .get("/documents/confirmation/{id}", confirmation)
            .get("/documents/statement/{year}", statement),
    ]
}

/// `GET /documents`.
async fn page(ctx: Ctx, Member(user): Member) -> Result<Response, AppError> {
    let db = ctx.state().db();
    let l = ctx.locale;
    let mut accepted: Vec<Accepted> = terms_of_user(db, user.id)
        .await?
        .into_iter()
        .map(|a| Accepted {
            document: l.t(&format!("documents-{}", a.document)),
            version: a.version,
            at: format_day(a.accepted_at, l),
        })
        .collect();
    for r in queries::risk_notices(db, user.id).await? {
        let args = [
            ("request", r.request_id.into()),
            ("startup", r.startup.into()),
        ];
        accepted.push(Accepted {
            document: l.t_args("documents-risk-notice", &args),
            version: "—".into(),
            at: format_day(r.accepted_at, l),
        });
        if let Some(version) = r.information_form {
            accepted.push(Accepted {
                document: l.t_args("documents-information-form", &args),
                version: format_day(version, l),
                at: format_day(r.accepted_at, l),
            });
        }
    }
    let documents = queries::holding_documents(db, user.id).await?;
    let confirmations = queries::holdings(db, user.id, None)
        .await?
        .into_iter()
        .map(|h| Confirmation {
            documents: documents
                .iter()
                .filter(|d| d.request_id == h.request_id)
                .map(|d| {
                    let href = format!("/startups/{}/documents/{}", d.slug, d.id);
                    (href, l.t(&format!("documents-kind-{}", d.kind)))
                })
                .collect(),
            startup: h.startup,
            amount: Money::from_kurus(h.amount_kurus).format(l),
            at: format_day(h.allocated_at, l),
            request_id: h.request_id,
        })
        .collect();
    let vault = Vault {
        accepted,
        confirmations,
        years: queries::years(db, user.id).await?,
    };
    let page = ctx.page_ctx(|pc| documents_page(pc, &vault));
    Ok(ctx.render_private(StatusCode::OK, page).await)
}

/// A PDF download, never cached.
fn pdf_response(bytes: Vec<u8>, file_name: &str) -> Result<Response, AppError> {
    let mut response = bytes.into_response();
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/pdf"),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    let disposition = format!("attachment; filename=\"{file_name}\"");
    headers.insert(
        header::CONTENT_DISPOSITION,
        HeaderValue::from_str(&disposition).map_err(anyhow::Error::from)?,
    );
    Ok(response)
}

/// An identity number with all but its first three and last two digits hidden.
fn masked(number: &str) -> String {
    let digits: Vec<char> = number.chars().collect();
    if digits.len() <= 5 {
        return "*".repeat(digits.len());
    }
    let (head, tail) = (&digits[..3], &digits[digits.len() - 2..]);
    format!(
        "{}{}{}",
        head.iter().collect::<String>(),
        "*".repeat(digits.len() - 5),
        tail.iter().collect::<String>()
    )
}

/// The investor's name and (hidden) identity number, the first rows of every document.
async fn investor_rows(ctx: &Ctx, user: i64, l: Locale) -> Result<Vec<Line>, AppError> {
    let investor = queries::investor(ctx.state().db(), user).await?;
    let mut rows = vec![Line::Row(l.t("pdf-investor"), investor.name)];
    if let Some(number) = investor.identity_number {
        rows.push(Line::Row(l.t("pdf-identity"), masked(&number)));
    }
    Ok(rows)
}

/// `GET /documents/confirmation/{id}`: the member's own holding only (404 otherwise).
async fn confirmation(
    ctx: Ctx,
    Member(user): Member,
    Path(id): Path<i64>,
) -> Result<Response, AppError> {
    let l = user.locale;
    let h = queries::holdings(ctx.state().db(), user.id, Some(id))
        .await?
        .pop()
        .ok_or(AppError::NotFound)?;
    let title = l.t("pdf-confirmation-title");
    let mut lines = vec![Line::Title(title.clone())];
    lines.extend(investor_rows(&ctx, user.id, l).await?);
    lines.extend([
        Line::Row(l.t("pdf-startup"), h.startup),
        Line::Row(l.t("pdf-fund"), h.fund),
        Line::Row(
            l.t("pdf-amount"),
            Money::from_kurus(h.amount_kurus).format(l),
        ),
        Line::Row(l.t("pdf-fee"), Money::from_kurus(h.fee_kurus).format(l)),
    ]);
    if let Some(ppm) = h.share_ppm {
        lines.push(Line::Row(l.t("pdf-share"), format_share(ppm, l)));
    }
    lines.extend([
        Line::Row(l.t("pdf-allocated-at"), format_day(h.allocated_at, l)),
        Line::Row(l.t("pdf-request"), h.request_id.to_string()),
        Line::Row(l.t("pdf-issued-at"), format_day(ctx.state().now(), l)),
        Line::Gap,
        Line::Text(l.t("pdf-confirmation-text")),
    ]);
    let bytes = pdf::render_off_thread(title, l.code(), lines).await?;
    pdf_response(bytes, &format!("ortak-{}-{id}.pdf", confirmation_slug(l)))
}

fn confirmation_slug(l: Locale) -> &'static str {
    match l {
        Locale::Tr => "yatirim-onayi",
        Locale::En => "investment-confirmation",
    }
}

/// `GET /documents/statement/{year}`: the member's payments and investments of a calendar year
/// (Istanbul), with totals.
async fn statement(
    ctx: Ctx,
    Member(user): Member,
    Path(year): Path<i32>,
) -> Result<Response, AppError> {
    if !(2000..=2100).contains(&year) {
        return Err(AppError::NotFound);
    }
    let l = user.locale;
    let start = |y: i32| {
        Date::from_calendar_date(y, Month::January, 1)
            .map(|d| {
                d.midnight()
                    .assume_offset(ortak_app::domain::time_fmt::ISTANBUL)
            })
            .map_err(anyhow::Error::from)
    };
    let moves =
        queries::movements(ctx.state().db(), user.id, start(year)?, start(year + 1)?).await?;
    let title = l.t_args("pdf-statement-title", &[("year", i64::from(year).into())]);
    let mut lines = vec![Line::Title(title.clone())];
    lines.extend(investor_rows(&ctx, user.id, l).await?);
    lines.extend([
        Line::Row(l.t("pdf-issued-at"), format_day(ctx.state().now(), l)),
        Line::Gap,
    ]);
    lines.push(Line::Text(l.t("pdf-statement-text")));
    lines.push(Line::Gap);
    if moves.is_empty() {
        lines.push(Line::Text(l.t("pdf-no-movements")));
    }
    let (mut invested, mut fees) = (0_i64, 0_i64);
    for m in &moves {
        match m.kind.as_str() {
            "allocated" => invested += m.amount_kurus,
            "fee_paid" => fees += m.amount_kurus,
            "fee_refunded" => fees -= m.amount_kurus,
            _ => {}
        }
        let label = format!(
            "{} · {} · {} {}",
            format_day(m.at, l),
            l.t(&format!("pdf-kind-{}", m.kind)),
            m.startup,
            format_args!("#{}", m.request_id)
        );
        lines.push(Line::Row(
            label,
            Money::from_kurus(m.amount_kurus).format(l),
        ));
    }
    lines.extend([
        Line::Gap,
        Line::Row(
            l.t("pdf-total-invested"),
            Money::from_kurus(invested).format(l),
        ),
        Line::Row(l.t("pdf-total-fees"), Money::from_kurus(fees).format(l)),
    ]);
    let bytes = pdf::render_off_thread(title, l.code(), lines).await?;
    let name = match l {
        Locale::Tr => format!("ortak-yillik-dokum-{year}.pdf"),
        Locale::En => format!("ortak-yearly-statement-{year}.pdf"),
    };
    pdf_response(bytes, &name)
}

#[cfg(test)]
mod tests {
    #[test]
    fn identity_numbers_are_masked() {
        assert_eq!(super::masked("10000000146"), "100******46");
        assert_eq!(super::masked("123"), "***");
    }
}
