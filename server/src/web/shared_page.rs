//! Pages many members share (issue 29). A startup's page or a catalogue page looks the same to
//! every member with the same marks on it (what they saved, the VIP rounds open to them) and the
//! same kind of header (role, avatar or not), except for who they are (their name and position
//! in the header, their avatar's address) and their CSRF token. Such a page is rendered once per
//! language, address, marks and shared version with placeholders where those values go, kept
//! between writes like everything in `db::snapshot`, and each request puts its member's values
//! in, escaped as the place they stand in needs (text, an attribute, JSON inside an attribute).
//!
//! A rendering whose placeholders do not come out intact (a text that happens to hold the
//! placeholders' private-use characters, a value inside a script) is not kept: that request,
//! and the next ones, render the page whole.

use std::future::Future;
use std::sync::{Arc, LazyLock};

use axum::http::StatusCode;
use axum::response::Response;
use ortak_app::i18n::Locale;
use ortak_app::shell::{Page, PageContext, Viewer, render_document};

use super::session::Role;
use super::{Ctx, flash};
use crate::db::snapshot::{self, Reads, Snapshot};
use crate::db::writes::Versions;
use crate::error::AppError;

/// The member's own values a shared page leaves a place for, in the order `fill` takes them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Hole {
    Csrf,
    FirstName,
    LastName,
    Position,
    Avatar,
    Onboarding,
}

const HOLES: [Hole; 6] = [
    Hole::Csrf,
    Hole::FirstName,
    Hole::LastName,
    Hole::Position,
    Hole::Avatar,
    Hole::Onboarding,
];

/// Placeholders are private-use characters around the hole's letter: no escaping changes them.
const OPEN: char = '\u{E000}';
const CLOSE: char = '\u{E001}';

fn placeholder(hole: Hole) -> String {
    format!("{OPEN}{}{CLOSE}", (b'a' + hole as u8) as char)
}

/// How a value is escaped where its hole stands, as Leptos escapes it when it renders it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Escape {
    Text,
    Attribute,
    /// A string inside JSON inside an attribute (an island's `data-props`).
    JsonInAttribute,
}

/// A page with holes: its text without the placeholders, and where each hole goes.
#[derive(Debug)]
pub struct Template {
    text: String,
    holes: Vec<(usize, Hole, Escape)>,
}

impl Template {
    /// Finds the placeholders in `html`; `None` when one is not intact or stands where its
    /// escaping cannot be told (inside a script or a style).
    fn parse(html: &str) -> Option<Template> {
        let mut text = String::with_capacity(html.len());
        let mut holes = Vec::new();
        let mut rest = html;
        while let Some(at) = rest.find(OPEN) {
            let mut after = rest[at..].chars().skip(1);
            let (letter, close) = (after.next()?, after.next()?);
            let index = (letter as u32).checked_sub('a' as u32)? as usize;
            if close != CLOSE || index >= HOLES.len() {
                return None;
            }
            text.push_str(&rest[..at]);
            let escape = escape_at(&text)?;
            holes.push((text.len(), HOLES[index], escape));
            rest = &rest[at + OPEN.len_utf8() + letter.len_utf8() + CLOSE.len_utf8()..];
        }
        text.push_str(rest);
        if text.contains(CLOSE) {
            return None;
        }
        Some(Template { text, holes })
    }

    /// The page with `values` (in [`HOLES`]' order) in its holes.
    fn fill(&self, values: &[&str; 6]) -> String {
        let extra: usize = self
            .holes
            .iter()
            .map(|(_, h, _)| values[*h as usize].len() * 2)
            .sum();
        let mut out = String::with_capacity(self.text.len() + extra);
        let mut from = 0;
        for &(at, hole, escape) in &self.holes {
            out.push_str(&self.text[from..at]);
            let value = values[hole as usize];
            match escape {
                Escape::Text => out.push_str(&html_escape::encode_text(value)),
                Escape::Attribute => {
                    out.push_str(&html_escape::encode_double_quoted_attribute(value))
                }
                Escape::JsonInAttribute => {
                    let json = serde_json::to_string(value).unwrap_or_default();
                    let inner = json
                        .get(1..json.len().saturating_sub(1))
                        .unwrap_or_default();
                    out.push_str(&html_escape::encode_double_quoted_attribute(inner));
                }
            }
            from = at;
        }
        out.push_str(&self.text[from..]);
        out
    }

    fn weight(&self) -> usize {
        self.text.len() + 24 * self.holes.len()
    }
}

/// How a value placed at the end of `before` is escaped; `None` inside a script or style.
fn escape_at(before: &str) -> Option<Escape> {
    let inside = |open: &str, close: &str| {
        before
            .rfind(open)
            .is_some_and(|o| before.rfind(close).is_none_or(|c| c < o))
    };
    if inside("<script", "</script") || inside("<style", "</style") {
        return None;
    }
    // Attribute values escape `<` and `>`, so the last one seen tells inside a tag or not.
    let in_tag = before
        .rfind('<')
        .is_some_and(|lt| before.rfind('>').is_none_or(|gt| gt < lt));
    if !in_tag {
        return Some(Escape::Text);
    }
    let value = &before[before.rfind("=\"")? + 2..];
    Some(if value.starts_with(['{', '[']) {
        Escape::JsonInAttribute
    } else {
        Escape::Attribute
    })
}

/// What a kept page is made for: the request's language and address, the member's marks as
/// the handler states them, what their header shows besides their own texts, and the day.
#[derive(Clone, PartialEq, Eq, Hash)]
struct Key {
    locale: Locale,
    path: String,
    query: Option<String>,
    marks: String,
    role: Role,
    committee: bool,
    avatar: bool,
    onboarding: bool,
    today: time::Date,
}

/// `None`: the rendering could not be made a template, so the page is rendered whole.
static PAGES: LazyLock<Snapshot<Key, Option<Arc<Template>>>> = LazyLock::new(|| {
    Snapshot::new(Reads::SharedTables, 3 << 20, |key, t| {
        key.path.len() + key.marks.len() + t.as_ref().map_or(0, |t| t.weight())
    })
});

impl Ctx {
    /// Renders, with status 200, a signed-in page that is the same for every member with the
    /// same `marks` (everything personal it shows besides the header and CSRF token: the
    /// handler names it), made by `make` from data read after `versions`. `make` may be
    /// called twice (a page that cannot be kept is rendered whole).
    pub async fn render_shared<F, Fut, B>(
        &self,
        versions: Versions,
        marks: String,
        make: F,
    ) -> Result<Response, AppError>
    where
        F: Fn() -> Fut,
        Fut: Future<Output = Result<B, AppError>>,
        B: FnOnce(&PageContext) -> Page,
    {
        let flash = flash::take(self).await;
        let viewer = self.viewer();
        if let (None, true, Some(user), Some(viewer)) =
            (&flash, snapshot::keeping(), &self.user, &viewer)
        {
            let key = Key {
                locale: self.locale,
                path: self.path.clone(),
                query: self.query.clone(),
                marks,
                role: user.role,
                committee: user.committee_member,
                avatar: viewer.avatar_url.is_some(),
                onboarding: viewer.onboarding_path.is_some(),
                today: self.state().today(),
            };
            let template = PAGES
                .get_or_make(key, versions, || async {
                    let build = make().await?;
                    Ok::<_, AppError>(self.template(viewer, build).map(Arc::new))
                })
                .await?;
            if let Some(template) = template {
                let values = [
                    self.csrf.as_str(),
                    &viewer.first_name,
                    &viewer.last_name,
                    &viewer.position,
                    viewer.avatar_url.as_deref().unwrap_or_default(),
                    viewer.onboarding_path.as_deref().unwrap_or_default(),
                ];
                metrics::counter!("ortak_shared_page_views_total", "made" => "filled").increment(1);
                return Ok(self.page_response(StatusCode::OK, template.fill(&values)));
            }
        }
        metrics::counter!("ortak_shared_page_views_total", "made" => "whole").increment(1);
        let build = make().await?;
        let html = self.with_page_ctx(flash, |pc| render_document(pc, build(pc)));
        Ok(self.page_response(StatusCode::OK, html))
    }

    /// The page `build` makes, rendered with placeholders for `viewer`'s values.
    fn template(
        &self,
        viewer: &Viewer,
        build: impl FnOnce(&PageContext) -> Page,
    ) -> Option<Template> {
        let holes = Viewer {
            first_name: placeholder(Hole::FirstName),
            last_name: placeholder(Hole::LastName),
            position: placeholder(Hole::Position),
            avatar_url: viewer
                .avatar_url
                .as_ref()
                .map(|_| placeholder(Hole::Avatar)),
            onboarding_path: viewer
                .onboarding_path
                .as_ref()
                .map(|_| placeholder(Hole::Onboarding)),
        };
        let csrf = placeholder(Hole::Csrf);
        let html = self.with_page_ctx_as(None, Some(&holes), &csrf, |pc| {
            render_document(pc, build(pc))
        });
        Template::parse(&html)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_is_escaped_as_the_place_it_stands_in() {
        let html = format!(
            "<p title=\"{a}\">{b}</p><div data-props=\"{{&quot;csrf&quot;:&quot;{c}&quot;}}\"></div>",
            a = placeholder(Hole::FirstName),
            b = placeholder(Hole::LastName),
            c = placeholder(Hole::Csrf),
        );
        let template = Template::parse(&html).unwrap();
        let values = ["t\"<", "Ayşe \"<b>\" & co", "O'B\"", "", "", ""];
        assert_eq!(
            template.fill(&values),
            "<p title=\"Ayşe &quot;&lt;b&gt;&quot; &amp; co\">O'B\"</p>\
             <div data-props=\"{&quot;csrf&quot;:&quot;t\\&quot;&lt;&quot;}\"></div>"
        );
    }

    #[test]
    fn a_rendering_whose_placeholders_are_not_intact_is_not_a_template() {
        assert!(Template::parse(&format!("<p>{OPEN}</p>")).is_none());
        assert!(Template::parse(&format!("<p>{CLOSE}</p>")).is_none());
        assert!(Template::parse(&format!("<p>{OPEN}z{CLOSE}</p>")).is_none());
        let in_script = format!("<script>var a = \"{}\";</script>", placeholder(Hole::Csrf));
        assert!(Template::parse(&in_script).is_none());
        let after_script = format!("<script></script><p>{}</p>", placeholder(Hole::Csrf));
        assert_eq!(Template::parse(&after_script).unwrap().holes.len(), 1);
    }
}
