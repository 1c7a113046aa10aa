//! Every Fluent message id the code names exists in both locales (issue 31): a misspelt id
//! renders "Unknown localization key" on the page, and nothing else would notice.
//!
//! The ids are read from the source of both crates where the code names them literally: the
//! lookups (`.t("id")`, `.t_args("id", …)`), field errors (`.add("field", "id")`), refusals
//! (`Refused(StatusCode::…, "id")`, `BadRequest("id")`). Ids built at run time
//! (`format!("status-{code}")`) or kept in tables are checked where they are rendered: the page
//! crawl (`end2end/a11y.test.mjs`) fails on the loader's placeholder text.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use ortak_app::i18n::Locale;

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The string literal starting at `text` (just after its opening quote), if it reads as a
/// message id: lower-case words joined by single hyphens.
fn id_at(text: &str) -> Option<&str> {
    let end = text.find('"')?;
    let id = &text[..end];
    let word = |w: &str| {
        !w.is_empty()
            && w.bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
    };
    (id.contains('-') && id.split('-').all(word)).then_some(id)
}

/// The ids named after each of `openers` in `source` (each opener ends where the id's quote
/// opens).
fn named_after<'a>(source: &'a str, openers: &[&str], ids: &mut BTreeSet<&'a str>) {
    for opener in openers {
        let mut rest = source;
        while let Some(at) = rest.find(opener) {
            rest = &rest[at + opener.len()..];
            if let Some(id) = id_at(rest) {
                ids.insert(id);
            }
        }
    }
}

/// `.add("field", "id")`: the second literal.
fn field_errors<'a>(source: &'a str, ids: &mut BTreeSet<&'a str>) {
    let mut rest = source;
    while let Some(at) = rest.find(".add(\"") {
        rest = &rest[at + 6..];
        let Some(end) = rest.find('"') else { break };
        let after = rest[end + 1..].trim_start();
        if let Some(second) = after.strip_prefix(',').map(str::trim_start)
            && let Some(literal) = second.strip_prefix('"')
            && let Some(id) = id_at(literal)
        {
            ids.insert(id);
        }
    }
}

fn refusals<'a>(source: &'a str, ids: &mut BTreeSet<&'a str>) {
    let mut rest = source;
    while let Some(at) = rest.find("Refused(StatusCode::") {
        rest = &rest[at..];
        let Some(comma) = rest.find(',') else { break };
        let after = rest[comma + 1..].trim_start();
        if let Some(literal) = after.strip_prefix('"')
            && let Some(id) = id_at(literal)
        {
            ids.insert(id);
        }
        rest = &rest[comma..];
    }
}

#[test]
fn every_message_id_the_code_names_exists_in_both_locales() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let mut files = Vec::new();
    for crate_dir in ["app/src", "server/src"] {
        sources(&root.join(crate_dir), &mut files);
    }
    let texts: Vec<(PathBuf, String)> = files
        .into_iter()
        .map(|f| {
            let text = std::fs::read_to_string(&f).unwrap();
            (f, text)
        })
        .collect();
    let mut missing = Vec::new();
    let mut checked = 0;
    for (file, text) in &texts {
        let mut ids = BTreeSet::new();
        named_after(text, &[".t(\"", ".t_args(\"", "BadRequest(\""], &mut ids);
        field_errors(text, &mut ids);
        refusals(text, &mut ids);
        for id in ids {
            checked += 1;
            for locale in [Locale::Tr, Locale::En] {
                if !locale.has(id) {
                    missing.push(format!("{}: {id} ({locale:?})", file.display()));
                }
            }
        }
    }
    assert!(
        checked > 500,
        "only {checked} ids found: the scan is broken"
    );
    assert!(
        missing.is_empty(),
        "message ids missing from the locales:\n{}",
        missing.join("\n")
    );
}

#[test]
fn the_scan_finds_what_a_typo_would_break() {
    let source = r#"
        ctx.t("site-name"); locale.t_args("footer-copyrigth", &[]);
        errors.add("email", "validation-emial");
        AppError::Refused(StatusCode::CONFLICT, "round-not-opne");
        let css = "flash--info"; let path = "/dashboard";
    "#;
    let mut ids = BTreeSet::new();
    named_after(source, &[".t(\"", ".t_args(\""], &mut ids);
    field_errors(source, &mut ids);
    refusals(source, &mut ids);
    let unknown: Vec<_> = ids.iter().filter(|id| !Locale::Tr.has(id)).collect();
    assert_eq!(
        unknown,
        [&"footer-copyrigth", &"round-not-opne", &"validation-emial"]
    );
}
