//! A staff list as the `staff-table` island's JSON (`/dashboard/….json`): serialized
//! straight from the typed table, with each cell's text in the viewer's language beside its
//! sort key.

use std::collections::HashMap;

use super::{Cell, StaffTable};
use crate::shell::PageContext;

/// Columns holding a few repeated values (statuses, roles, funds): the island offers a
/// filter for each.
const FILTER_COLUMNS: [&str; 9] = [
    "dashboard-col-handled",
    "dashboard-col-status",
    "dashboard-col-role",
    "dashboard-col-mkk",
    "dashboard-col-action",
    "dashboard-startup-fund",
    "dashboard-startup-sector",
    "dashboard-startup-period",
    "field-language",
];

/// The island's JSON, serialized straight from the table (no intermediate JSON tree): lists
/// run to thousands of rows.
#[derive(serde::Serialize)]
struct TableJson<'a> {
    columns: Vec<ColumnJson>,
    rows: Vec<RowJson<'a>>,
}

#[derive(serde::Serialize)]
struct ColumnJson {
    label: String,
    filter: bool,
}

#[derive(serde::Serialize)]
struct RowJson<'a> {
    id: i64,
    cells: Vec<String>,
    sort: Vec<Option<i64>>,
    link: Option<LinkJson<'a>>,
    actions: Vec<ActionJson<'a>>,
}

#[derive(serde::Serialize)]
struct LinkJson<'a> {
    href: &'a str,
    label: &'a str,
}

#[derive(serde::Serialize)]
struct ActionJson<'a> {
    action: &'a str,
    name: &'a str,
    value: &'a str,
    label: &'a str,
    fields: Vec<FieldJson<'a>>,
}

#[derive(serde::Serialize)]
struct FieldJson<'a> {
    name: &'a str,
    label: &'a str,
    #[serde(rename = "type")]
    kind: &'a str,
}

impl StaffTable {
    /// Every label the rows use, translated once.
    fn labels(&self, ctx: &PageContext) -> HashMap<&str, String> {
        let mut labels = HashMap::new();
        for row in &self.rows {
            let ids = row.link.iter().map(|(_, label)| label.as_str()).chain(
                row.actions.iter().flat_map(|a| {
                    std::iter::once(a.label_id.as_str()).chain(a.fields.iter().map(|f| f.1))
                }),
            );
            for id in ids {
                labels.entry(id).or_insert_with(|| ctx.t(id));
            }
        }
        labels
    }

    /// The list as the island's JSON endpoint answers it; `labels` from [`Self::labels`].
    fn to_json<'a>(
        &'a self,
        ctx: &PageContext,
        labels: &'a HashMap<&'a str, String>,
    ) -> TableJson<'a> {
        let label = |id: &str| labels.get(id).map_or("", String::as_str);
        TableJson {
            columns: self
                .columns
                .iter()
                .map(|c| ColumnJson {
                    label: ctx.t(c),
                    filter: FILTER_COLUMNS.contains(c),
                })
                .collect(),
            rows: self
                .rows
                .iter()
                .map(|r| RowJson {
                    id: r.id,
                    cells: r.cells.iter().map(|c| c.text(ctx)).collect(),
                    sort: r.cells.iter().map(Cell::sort_key).collect(),
                    link: r.link.as_ref().map(|(href, l)| LinkJson {
                        href,
                        label: label(l),
                    }),
                    actions: r
                        .actions
                        .iter()
                        .map(|a| ActionJson {
                            action: &a.action,
                            name: a.name,
                            value: &a.value,
                            label: label(&a.label_id),
                            fields: a
                                .fields
                                .iter()
                                .map(|(name, l, kind)| FieldJson {
                                    name,
                                    label: label(l),
                                    kind,
                                })
                                .collect(),
                        })
                        .collect(),
                })
                .collect(),
        }
    }

    /// The island's JSON as text.
    pub fn json_text(&self, ctx: &PageContext) -> String {
        let labels = self.labels(ctx);
        serde_json::to_string(&self.to_json(ctx, &labels)).unwrap_or_default()
    }
}
