//! Staff lists: one table rendered as a page (`?page=`), as the island's JSON (`….json`) or
//! as CSV (`….csv`), from the same rows and under the same authorization; one record's own
//! page from typed cells; and the one CSV writer every export uses.

use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use ortak_app::pages::dashboard::{StaffDetail, staff_detail_page};
use ortak_app::pages::staff_table::{StaffTable, staff_table_page};

use crate::error::AppError;
use crate::web::Ctx;

/// Renders a staff list in the form its address asks for.
pub async fn render_table(ctx: &Ctx, table: StaffTable) -> Result<Response, AppError> {
    if ctx.path.ends_with(".json") {
        let json = ctx.page_ctx(|pc| table.json_text(pc));
        let headers = [
            (header::CACHE_CONTROL, "no-store"),
            (header::CONTENT_TYPE, "application/json"),
        ];
        return Ok((headers, json).into_response());
    }
    if let Some(base) = ctx.path.strip_suffix(".csv") {
        let name = format!("ortak-{}.csv", base.rsplit('/').next().unwrap_or("list"));
        let lines = ctx.page_ctx(|pc| {
            std::iter::once(table.columns.iter().map(|c| pc.t(c)).collect::<Vec<_>>())
                .chain(
                    table
                        .rows
                        .iter()
                        .map(|r| r.cells.iter().map(|c| c.text(pc)).collect()),
                )
                .collect::<Vec<_>>()
        });
        return csv_download(&name, lines);
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
    let page = ctx.page_ctx(|pc| staff_table_page(pc, table, page));
    Ok(ctx.render(StatusCode::OK, page).await)
}

/// Renders a record's own page.
pub async fn render_detail(ctx: &Ctx, detail: StaffDetail) -> Response {
    let page = ctx.page_ctx(|pc| staff_detail_page(pc, detail));
    ctx.render(StatusCode::OK, page).await
}

/// A cell a spreadsheet would run as a formula (`= + - @`, or a tab or carriage return before
/// one) is prefixed with `'`, so an export never executes what a visitor typed.
fn neutralised(value: &str) -> std::borrow::Cow<'_, str> {
    if value.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        format!("'{value}").into()
    } else {
        value.into()
    }
}

/// Lines as a CSV attachment named `name`: UTF-8 with a byte-order mark (spreadsheets then
/// read Turkish letters right), every field quoted and neutralised.
pub fn csv_download(name: &str, lines: Vec<Vec<String>>) -> Result<Response, AppError> {
    let mut writer = csv::WriterBuilder::new()
        .quote_style(csv::QuoteStyle::Always)
        .terminator(csv::Terminator::CRLF)
        .from_writer("\u{feff}".as_bytes().to_vec());
    for line in &lines {
        writer
            .write_record(line.iter().map(|v| neutralised(v).into_owned()))
            .map_err(anyhow::Error::from)?;
    }
    let body = writer.into_inner().map_err(|e| anyhow::anyhow!("{e}"))?;
    Ok((
        [
            (header::CONTENT_TYPE, "text/csv; charset=utf-8".to_owned()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{name}\""),
            ),
            (header::CACHE_CONTROL, "no-store".to_owned()),
        ],
        body,
    )
        .into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formulas_are_neutralised_and_plain_text_is_not() {
        for risky in ["=1+1", "+90", "-2", "@SUM(A1)", "\t=cmd", "\r=cmd"] {
            assert!(neutralised(risky).starts_with('\''), "{risky:?}");
        }
        assert_eq!(neutralised("Ayşe"), "Ayşe");
    }
}
