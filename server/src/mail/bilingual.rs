//! One mail in both languages, for an address whose language is not known yet (a founder staff
//! invited before they joined): Turkish first, then English, under one subject.

use super::Mail;

/// What is inside `<body …>…</body>` of a mail's HTML.
fn body_of(html: &str) -> &str {
    let start = html
        .find("<body")
        .and_then(|at| html[at..].find('>').map(|end| at + end + 1))
        .unwrap_or(0);
    let end = html.rfind("</body>").unwrap_or(html.len());
    &html[start..end.max(start)]
}

/// `tr` and `en` (the same mail in each language) as one mail: both subjects, both texts.
pub(super) fn join(tr: &Mail, en: &Mail) -> Mail {
    let subject = format!("{} / {}", tr.subject, en.subject);
    let text = format!("{}\n— English —\n\n{}", tr.text, en.text);
    let html = format!(
        "<!DOCTYPE html><html lang=\"tr\"><body style=\"font-family:system-ui,sans-serif;color:#0f1b2d;line-height:1.5\">\
         {}<hr style=\"margin:24px 0;border:0;border-top:1px solid #d7dee6\"><div lang=\"en\">{}</div></body></html>",
        body_of(&tr.html),
        body_of(&en.html)
    );
    Mail {
        subject,
        text,
        html,
        automatic: None,
        ..tr.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ortak_app::i18n::Locale;

    #[test]
    fn both_languages_in_one_mail() {
        let tr = Mail::compose(
            "a@b.co",
            Locale::Tr,
            "",
            "founder-invite",
            "https://x/signup",
            "Konu".into(),
            "Merhaba",
        );
        let en = Mail::compose(
            "a@b.co",
            Locale::En,
            "",
            "founder-invite",
            "https://x/signup",
            "Subject".into(),
            "Hello",
        );
        let both = join(&tr, &en);
        assert_eq!(both.subject, "Konu / Subject");
        assert!(both.text.contains("Merhaba") && both.text.contains("Hello"));
        assert!(both.html.contains("<p>Merhaba</p>") && both.html.contains("<div lang=\"en\">"));
        assert_eq!(both.html.matches("<body").count(), 1);
        assert_eq!(both.to, "a@b.co");
    }
}
