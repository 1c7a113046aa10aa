//! The inboxes of the visitors' forms: contact messages (`/dashboard/contacts`), GSYF
//! applications (`/dashboard/gsyf`) and academy applications (`/dashboard/academy`), each a
//! list with its CSV export and a "handled" mark.

use axum::extract::Path;
use axum::response::Response;
use ortak_app::pages::staff_table::{Cell, RowAction, StaffRow, StaffTable};
use serde::de::IgnoredAny;

use super::queries::inboxes::{self as queries, Inbox, InboxRow};
use super::table::render_table;
use crate::error::AppError;
use crate::web::form::Form;
use crate::web::{Access, Ctx, Routes, Staff};

/// How staff find each inbox.
impl Inbox {
    fn title_id(self) -> &'static str {
        match self {
            Inbox::Contact => "dashboard-contacts",
            Inbox::Gsyf => "dashboard-gsyf",
            Inbox::Academy => "dashboard-academy",
        }
    }

    fn path(self) -> &'static str {
        match self {
            Inbox::Contact => "/dashboard/contacts",
            Inbox::Gsyf => "/dashboard/gsyf",
            Inbox::Academy => "/dashboard/academy",
        }
    }

    fn csv(self) -> &'static str {
        match self {
            Inbox::Contact => "/dashboard/contacts.csv",
            Inbox::Gsyf => "/dashboard/gsyf.csv",
            Inbox::Academy => "/dashboard/academy.csv",
        }
    }
}

async fn inbox(ctx: Ctx, inbox: Inbox) -> Result<Response, AppError> {
    let rows = queries::list(ctx.state().db(), inbox, ctx.locale.code())
        .await?
        .into_iter()
        .map(|row| inbox_row(inbox, row))
        .collect();
    let table = StaffTable {
        title_id: inbox.title_id(),
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
        csv: Some(inbox.csv()),
        // The academy inbox leads to its events.
        create: (inbox == Inbox::Academy).then_some("/dashboard/academy/events"),
    };
    render_table(&ctx, table).await
}

fn inbox_row(inbox: Inbox, r: InboxRow) -> StaffRow {
    let id = r.id;
    StaffRow {
        id,
        cells: vec![
            r.name.into(),
            r.email.into(),
            r.subject.into(),
            r.details.into(),
            Cell::Label(
                if r.handled {
                    "dashboard-handled"
                } else {
                    "dashboard-open"
                }
                .into(),
            ),
            Cell::Date(r.created_at),
        ],
        link: None,
        actions: if r.handled {
            Vec::new()
        } else {
            vec![RowAction {
                action: format!("{}/{id}/handled", inbox.path()),
                name: "handled",
                value: "1".into(),
                label_id: "dashboard-mark-handled".into(),
                fields: &[],
            }]
        },
    }
}

async fn mark_handled(ctx: Ctx, staff: Staff, inbox: Inbox, id: i64) -> Result<Response, AppError> {
    let mut tx = crate::db::write(ctx.state().db()).await?;
    if !queries::mark_handled(&mut tx, inbox, id, ctx.state().now()).await? {
        return Err(AppError::NotFound);
    }
    crate::db::audit::record(
        &mut tx,
        staff.user.id,
        "inbox.handled",
        &format!("{}:{id}", inbox.table()),
        Some("open"),
        Some("handled"),
    )
    .await?;
    tx.commit().await?;
    crate::web::flash::done(&ctx, inbox.path()).await
}

pub async fn contacts(ctx: Ctx, _: Staff) -> Result<Response, AppError> {
    inbox(ctx, Inbox::Contact).await
}
pub async fn gsyf(ctx: Ctx, _: Staff) -> Result<Response, AppError> {
    inbox(ctx, Inbox::Gsyf).await
}
pub async fn academy(ctx: Ctx, _: Staff) -> Result<Response, AppError> {
    inbox(ctx, Inbox::Academy).await
}
pub async fn contact_handled(
    ctx: Ctx,
    staff: Staff,
    Path(id): Path<i64>,
    Form(_): Form<IgnoredAny>,
) -> Result<Response, AppError> {
    mark_handled(ctx, staff, Inbox::Contact, id).await
}
pub async fn gsyf_handled(
    ctx: Ctx,
    staff: Staff,
    Path(id): Path<i64>,
    Form(_): Form<IgnoredAny>,
) -> Result<Response, AppError> {
    mark_handled(ctx, staff, Inbox::Gsyf, id).await
}
pub async fn academy_handled(
    ctx: Ctx,
    staff: Staff,
    Path(id): Path<i64>,
    Form(_): Form<IgnoredAny>,
) -> Result<Response, AppError> {
    mark_handled(ctx, staff, Inbox::Academy, id).await
}

pub fn contact_routes() -> Routes {
    Routes::new(Access::Staff)
        .get("/dashboard/contacts", contacts)
        .nav("dashboard-contacts")
        .get("/dashboard/contacts.json", contacts)
        .get("/dashboard/contacts.csv", contacts)
        .post("/dashboard/contacts/{id}/handled", contact_handled)
        .get("/dashboard/gsyf", gsyf)
        .nav("dashboard-gsyf")
        .get("/dashboard/gsyf.json", gsyf)
        .get("/dashboard/gsyf.csv", gsyf)
        .post("/dashboard/gsyf/{id}/handled", gsyf_handled)
        .get("/dashboard/academy", academy)
        .nav("dashboard-academy")
        .get("/dashboard/academy.json", academy)
        .get("/dashboard/academy.csv", academy)
        .post("/dashboard/academy/{id}/handled", academy_handled)
}
