//! Single values of the startup editor's form read from text: the address (slug), whole
//! numbers, dates and the founders box.

use time::Date;

use super::Founder;
use crate::domain::paths::is_web_url;
use crate::domain::text::turkish_lowercase;

/// An ASCII address for a name: Turkish letters lose their marks, the rest becomes hyphens.
pub fn slugify(name: &str) -> String {
    let mut out = String::new();
    for c in turkish_lowercase(name).chars() {
        let c = match c {
            'ç' => 'c',
            'ğ' => 'g',
            'ı' => 'i',
            'ö' => 'o',
            'ş' => 's',
            'ü' => 'u',
            'â' => 'a',
            'î' => 'i',
            'û' => 'u',
            c if c.is_ascii_alphanumeric() => c,
            _ => '-',
        };
        if c != '-' || !out.ends_with('-') {
            out.push(c);
        }
    }
    out.trim_matches('-').chars().take(80).collect()
}

/// Whether `slug` is a usable address segment.
pub fn is_slug(slug: &str) -> bool {
    !slug.is_empty()
        && slug.len() <= 100
        && slug
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

pub(super) fn date(text: &str) -> Option<Date> {
    Date::parse(
        text.trim(),
        time::macros::format_description!("[year]-[month]-[day]"),
    )
    .ok()
}

pub(super) fn whole(text: &str) -> Option<i64> {
    let digits: String = text
        .trim()
        .chars()
        .filter(|c| !matches!(c, '.' | ',' | ' '))
        .collect();
    if digits.is_empty() || digits.len() > 15 || !digits.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

/// Parses the founders box; `None` when a line is not `name | title [| https://…]`.
pub fn parse_founders(text: &str) -> Option<Vec<Founder>> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(|line| {
            let parts: Vec<&str> = line.split('|').map(str::trim).collect();
            match parts.as_slice() {
                [name, title] | [name, title, ""] if !name.is_empty() && !title.is_empty() => {
                    Some(Founder {
                        name: (*name).to_owned(),
                        title: (*title).to_owned(),
                        linkedin: String::new(),
                    })
                }
                [name, title, link]
                    if !name.is_empty() && !title.is_empty() && is_web_url(link) =>
                {
                    Some(Founder {
                        name: (*name).to_owned(),
                        title: (*title).to_owned(),
                        linkedin: (*link).to_owned(),
                    })
                }
                _ => None,
            }
        })
        .collect()
}
