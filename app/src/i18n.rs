//! The two languages of the platform and the Fluent lookup.
//!
//! Messages live in `locales/{tr,en}/*.ftl` and are compiled into the binary.

use std::borrow::Cow;
use std::collections::HashMap;

use fluent_templates::fluent_bundle::FluentValue;
use fluent_templates::{LanguageIdentifier, Loader, langid};
use serde::{Deserialize, Serialize};

fluent_templates::static_loader! {
    static LOCALES = {
        locales: "../locales",
        fallback_language: "tr",
        // Isolation marks would end up inside e-mail subjects and attribute values.
        customise: |bundle| bundle.set_use_isolating(false),
    };
}

static TR: LanguageIdentifier = langid!("tr");
static EN: LanguageIdentifier = langid!("en");

/// A page language. Turkish is the default.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "sqlx", derive(sqlx::Type), sqlx(rename_all = "lowercase"))]
pub enum Locale {
    #[default]
    Tr,
    En,
}

impl Locale {
    pub const ALL: [Locale; 2] = [Locale::Tr, Locale::En];

    pub fn code(self) -> &'static str {
        match self {
            Locale::Tr => "tr",
            Locale::En => "en",
        }
    }

    /// The Open Graph / ICU style tag.
    pub fn og_locale(self) -> &'static str {
        match self {
            Locale::Tr => "tr_TR",
            Locale::En => "en_US",
        }
    }

    pub fn other(self) -> Locale {
        match self {
            Locale::Tr => Locale::En,
            Locale::En => Locale::Tr,
        }
    }

    pub fn from_code(code: &str) -> Option<Locale> {
        match code.trim().to_ascii_lowercase().as_str() {
            "tr" => Some(Locale::Tr),
            "en" => Some(Locale::En),
            _ => None,
        }
    }

    /// Picks the first supported language of an `Accept-Language` header by quality.
    pub fn from_accept_language(header: &str) -> Option<Locale> {
        let mut best: Option<(f32, Locale)> = None;
        for part in header.split(',') {
            let mut pieces = part.trim().split(';');
            let tag = pieces.next().unwrap_or("").trim();
            let primary = tag.split(['-', '_']).next().unwrap_or("");
            let Some(locale) = Locale::from_code(primary) else {
                continue;
            };
            let quality = pieces
                .find_map(|p| p.trim().strip_prefix("q="))
                .and_then(|q| q.parse::<f32>().ok())
                .unwrap_or(1.0);
            if quality > 0.0 && best.is_none_or(|(q, _)| quality > q) {
                best = Some((quality, locale));
            }
        }
        best.map(|(_, l)| l)
    }

    fn langid(self) -> &'static LanguageIdentifier {
        match self {
            Locale::Tr => &TR,
            Locale::En => &EN,
        }
    }

    /// The message `id` in this language. Messages without arguments never change while the
    /// process runs (they are compiled in), so each thread remembers the ones it formatted:
    /// a page asks for dozens, a staff list for thousands.
    pub fn t(self, id: &str) -> String {
        thread_local! {
            /// Per language (`Locale as usize`): message id → text.
            static FORMATTED: std::cell::RefCell<[HashMap<String, String>; 2]> =
                std::cell::RefCell::new([HashMap::new(), HashMap::new()]);
        }
        FORMATTED.with(|cache| {
            let language = self as usize;
            if let Some(text) = cache.borrow()[language].get(id) {
                return text.clone();
            }
            let text = LOCALES.lookup(self.langid(), id);
            cache.borrow_mut()[language].insert(id.to_owned(), text.clone());
            text
        })
    }

    /// The message `id` with Fluent arguments.
    pub fn t_args(self, id: &str, args: &[(&'static str, FluentArg)]) -> String {
        let map: HashMap<Cow<'static, str>, FluentValue> = args
            .iter()
            .map(|(k, v)| {
                let value = match v {
                    FluentArg::Str(s) => FluentValue::from(s.clone()),
                    FluentArg::Num(n) => FluentValue::from(*n),
                };
                (Cow::Borrowed(*k), value)
            })
            .collect();
        LOCALES.lookup_with_args(self.langid(), id, &map)
    }

    /// Whether the message exists in this language (without falling back). A message whose
    /// arguments were not given still exists; the loader only reports that as a formatting
    /// error, and its error type is private, hence the text match.
    pub fn has(self, id: &str) -> bool {
        match LOCALES.lookup_single_language::<&str>(self.langid(), id, None) {
            Ok(_) => true,
            Err(e) => !e.to_string().starts_with("Couldn't retrieve message"),
        }
    }
}

/// An argument for a Fluent message.
#[derive(Clone, Debug)]
pub enum FluentArg {
    Str(String),
    Num(i64),
}

impl From<&str> for FluentArg {
    fn from(s: &str) -> Self {
        FluentArg::Str(s.to_owned())
    }
}

impl From<String> for FluentArg {
    fn from(s: String) -> Self {
        FluentArg::Str(s)
    }
}

impl From<i64> for FluentArg {
    fn from(n: i64) -> Self {
        FluentArg::Num(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;
    use std::path::Path;

    fn ids(locale: &str) -> BTreeSet<String> {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../locales")
            .join(locale);
        let mut ids = BTreeSet::new();
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "ftl") {
                for line in std::fs::read_to_string(&path).unwrap().lines() {
                    if let Some((id, _)) = line.split_once('=') {
                        let id = id.trim();
                        if !line.starts_with([' ', '#', '-']) && !id.is_empty() {
                            assert!(ids.insert(id.to_owned()), "duplicate id {id} in {locale}");
                        }
                    }
                }
            }
        }
        ids
    }

    #[test]
    fn both_locales_have_the_same_message_ids() {
        let tr = ids("tr");
        let en = ids("en");
        let only_tr: Vec<_> = tr.difference(&en).collect();
        let only_en: Vec<_> = en.difference(&tr).collect();
        assert!(only_tr.is_empty(), "only in Turkish: {only_tr:?}");
        assert!(only_en.is_empty(), "only in English: {only_en:?}");
        for id in &tr {
            assert!(
                Locale::Tr.has(id) && Locale::En.has(id),
                "{id} does not load"
            );
        }
    }

    #[test]
    fn looks_up_spec_messages() {
        assert_eq!(Locale::Tr.t("not-found-title"), "Sayfa Bulunamadı");
        assert_eq!(Locale::En.t("not-found-title"), "Page Not Found");
        assert_eq!(
            Locale::Tr.t("validation-email"),
            "Lütfen geçerli bir e-posta girin"
        );
        assert_eq!(
            Locale::En.t("validation-email"),
            "Please enter a valid email address."
        );
        assert_eq!(Locale::Tr.t("validation-required"), "Bu alan zorunludur");
        assert_eq!(
            Locale::En.t_args(
                "footer-copyright",
                &[("year", 2026.into()), ("name", "Ortak A.Ş.".into())]
            ),
            "© 2026 Ortak A.Ş. · All rights reserved."
        );
    }

    #[test]
    fn reads_accept_language() {
        assert_eq!(
            Locale::from_accept_language("en-US,en;q=0.9"),
            Some(Locale::En)
        );
        assert_eq!(
            Locale::from_accept_language("de-DE, en;q=0.5, tr;q=0.8"),
            Some(Locale::Tr)
        );
        assert_eq!(Locale::from_accept_language("de, fr"), None);
        assert_eq!(
            Locale::from_accept_language("en;q=0, tr-TR"),
            Some(Locale::Tr)
        );
    }
}
