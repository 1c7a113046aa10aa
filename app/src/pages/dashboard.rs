//! Staff pages under `/dashboard`.

use leptos::prelude::*;

use crate::domain::investing::RequestStatus;
use crate::domain::money::Money;
use crate::forms::csrf_field;
use crate::shell::{Page, PageContext};

pub struct StaffRequest {
    pub id: i64,
    pub investor: String,
    pub startup: String,
    pub amount: Money,
    pub status: RequestStatus,
}

pub fn investments_page(ctx: &PageContext, rows: Vec<StaffRequest>) -> Page {
    let empty = rows
        .is_empty()
        .then(|| view! { <p class="empty-state">{ctx.t("dashboard-investments-empty")}</p> });
    let items = rows
        .into_iter()
        .map(|r| {
            let moves = RequestStatus::ALL
                .iter()
                .filter(|to| r.status.staff_can_move_to(**to))
                .map(|to| {
                    view! {
                        <button class="button button--ghost" type="submit" name="to" value=to.code()>
                            {ctx.t(&format!("dashboard-move-{}", to.code()))}
                        </button>
                    }
                })
                .collect_view();
            let note_id = format!("note-{}", r.id);
            view! {
                <tr data-request=r.id>
                    <td>{r.id}</td>
                    <td>{r.investor}</td>
                    <td>{r.startup}</td>
                    <td class="num">{r.amount.format(ctx.locale)}</td>
                    <td>{ctx.t(&format!("request-status-{}", r.status.code()))}</td>
                    <td>
                        <form class="inline-form" method="post" action=format!("/dashboard/investments/{}/status", r.id)>
                            {csrf_field(ctx)}
                            <label class="visually-hidden" for=note_id.clone()>{ctx.t("dashboard-note")}</label>
                            <input class="input" id=note_id name="note" placeholder=ctx.t("dashboard-note") />
                            {moves}
                        </form>
                    </td>
                </tr>
            }
        })
        .collect_view();
    let body = view! {
        <section class="stack">
            <p><a class="brand" href="/"><span class="brand__mark" aria-hidden="true"></span>{ctx.t("site-name")}</a></p>
            <h1>{ctx.t("dashboard-investments-title")}</h1>
            {empty}
            <table class="table">
                <thead>
                    <tr>
                        <th scope="col">"#"</th>
                        <th scope="col">{ctx.t("dashboard-col-investor")}</th>
                        <th scope="col">{ctx.t("dashboard-col-startup")}</th>
                        <th scope="col" class="num">{ctx.t("dashboard-col-amount")}</th>
                        <th scope="col">{ctx.t("dashboard-col-status")}</th>
                        <th scope="col">{ctx.t("dashboard-col-actions")}</th>
                    </tr>
                </thead>
                <tbody>{items}</tbody>
            </table>
        </section>
    }
    .into_any();
    let mut page = Page::new(
        ctx.t("dashboard-investments-title"),
        ctx.t("dashboard-investments-title"),
        body,
    );
    page.indexable = false;
    page
}
