//! Content the platform starts with. Policies, `/techinvestor` and the FAQ are part of the
//! product and are inserted on every start when missing (a fresh production install has its
//! legal pages); blog posts, startups and the admin account are demo content (`crate::demo`).
//! Rows staff have edited are never overwritten.

use std::collections::BTreeMap;

use anyhow::Context;
use sqlx::SqlitePool;

use super::queries::{self, NewFaq, NewPage, PageKind};

include!(concat!(env!("OUT_DIR"), "/content_files.rs"));

/// A Markdown file with `key: value` lines before a `---` line.
pub struct Document<'a> {
    meta: BTreeMap<&'a str, &'a str>,
    pub body: &'a str,
}

fn parse(text: &str) -> anyhow::Result<Document<'_>> {
    let (head, body) = text
        .split_once("\n---\n")
        .context("front matter must end with ---")?;
    let meta = head
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            l.split_once(':')
                .map(|(k, v)| (k.trim(), v.trim()))
                .context("front matter line without ':'")
        })
        .collect::<anyhow::Result<_>>()?;
    Ok(Document {
        meta,
        body: body.trim(),
    })
}

impl Document<'_> {
    pub fn get(&self, key: &str) -> anyhow::Result<&str> {
        self.meta
            .get(key)
            .copied()
            .with_context(|| format!("front matter lacks {key}"))
    }
}

/// A page's or post's title, description and body in both languages.
pub struct Texts<'a> {
    pub title_tr: &'a str,
    pub title_en: &'a str,
    pub description_tr: &'a str,
    pub description_en: &'a str,
    pub body_tr: &'a str,
    pub body_en: &'a str,
}

impl<'a> Texts<'a> {
    /// The texts of a file pair (`bilingual`).
    pub fn of(tr: &'a Document<'a>, en: &'a Document<'a>) -> anyhow::Result<Texts<'a>> {
        Ok(Texts {
            title_tr: tr.get("title")?,
            title_en: en.get("title")?,
            description_tr: tr.get("description")?,
            description_en: en.get("description")?,
            body_tr: tr.body,
            body_en: en.body,
        })
    }
}

/// Pairs `dir/{slug}.tr.md` with `dir/{slug}.en.md`.
pub fn bilingual(dir: &str) -> anyhow::Result<Vec<(String, Document<'static>, Document<'static>)>> {
    let mut out = Vec::new();
    for (path, text) in CONTENT {
        let Some(slug) = path
            .strip_prefix(dir)
            .and_then(|p| p.strip_suffix(".tr.md"))
        else {
            continue;
        };
        let en_path = format!("{dir}{slug}.en.md");
        let en = CONTENT
            .iter()
            .find(|(p, _)| *p == en_path)
            .with_context(|| format!("{en_path} is missing"))?;
        let tr = parse(text).with_context(|| path.to_string())?;
        let en = parse(en.1).with_context(|| en_path.clone())?;
        out.push((slug.to_owned(), tr, en));
    }
    Ok(out)
}

pub async fn seed_content(db: &SqlitePool) -> anyhow::Result<()> {
    // Read first, write only when a page is missing: a write at every start-up would wait for
    // SQLite's write lock and slow the start (issue 16 measures cold starts).
    let existing = queries::page_slugs(db).await?;
    let missing: Vec<_> = bilingual("pages/")?
        .into_iter()
        .filter(|(slug, _, _)| !existing.contains(slug))
        .collect();
    if !missing.is_empty() {
        let mut tx = crate::db::write(db).await?;
        for (slug, tr, en) in missing {
            let kind = if ortak_app::components::POLICY_SLUGS.contains(&slug.as_str()) {
                PageKind::Policy
            } else {
                PageKind::Page
            };
            let page = NewPage {
                slug: &slug,
                kind,
                texts: Texts::of(&tr, &en)?,
            };
            queries::insert_page_if_missing(&mut tx, &page).await?;
        }
        tx.commit().await?;
    }
    if queries::faq_count(db).await? == 0 {
        let text = CONTENT
            .iter()
            .find(|(p, _)| *p == "faq.json")
            .context("faq.json is missing")?
            .1;
        let entries: Vec<NewFaq> = serde_json::from_str(text).context("faq.json")?;
        let mut tx = crate::db::write(db).await?;
        for (position, faq) in entries.iter().enumerate() {
            queries::insert_faq(&mut tx, position as i64, faq).await?;
        }
        tx.commit().await?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_embedded_document_parses_in_both_languages() {
        for dir in ["pages/", "blog/"] {
            for (slug, tr, en) in bilingual(dir).unwrap() {
                for doc in [&tr, &en] {
                    assert!(!doc.get("title").unwrap().is_empty(), "{slug}");
                    assert!(doc.get("description").unwrap().len() <= 400, "{slug}");
                    assert!(doc.body.len() > 200, "{slug} body is too short");
                }
                if dir == "blog/" {
                    assert_eq!(tr.get("date").unwrap(), en.get("date").unwrap(), "{slug}");
                }
            }
        }
        for slug in ortak_app::components::POLICY_SLUGS
            .iter()
            .chain(&["techinvestor"])
        {
            assert!(
                bilingual("pages/")
                    .unwrap()
                    .iter()
                    .any(|(s, _, _)| s == slug),
                "{slug} missing"
            );
        }
    }
}
