//! Markdown to sanitized HTML for content written by staff.

use pulldown_cmark::{Options, Parser, html};

/// Renders Markdown and strips anything unsafe (scripts, event handlers, `javascript:` links).
/// Links to other sites get `rel="noopener noreferrer"`.
pub fn render(markdown: &str) -> String {
    let parser = Parser::new_ext(
        markdown,
        Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH,
    );
    let mut unsafe_html = String::with_capacity(markdown.len() * 3 / 2);
    html::push_html(&mut unsafe_html, parser);
    ammonia::Builder::default()
        .link_rel(Some("noopener noreferrer"))
        .clean(&unsafe_html)
        .to_string()
}

/// The text of Markdown, paragraphs separated by blank lines (for documents that are not HTML,
/// such as the information form's PDF).
pub fn plain_text(markdown: &str) -> String {
    use pulldown_cmark::{Event, Tag, TagEnd};
    let mut out = String::with_capacity(markdown.len());
    for event in Parser::new(markdown) {
        match event {
            Event::Text(t) | Event::Code(t) => out.push_str(&t),
            Event::SoftBreak | Event::HardBreak => out.push(' '),
            Event::Start(Tag::Item) => out.push_str("• "),
            Event::End(TagEnd::Paragraph | TagEnd::Heading(_) | TagEnd::Item) => {
                out.push_str("\n\n")
            }
            _ => {}
        }
    }
    out.trim().to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_text_keeps_the_words() {
        assert_eq!(
            plain_text("## Başlık\n\n**kalın** metin\n\n- bir\n- iki"),
            "Başlık\n\nkalın metin\n\n• bir\n\n• iki"
        );
    }

    #[test]
    fn renders_and_sanitizes() {
        let html = render(
            "## Başlık\n\n**kalın** [bağlantı](/faq)\n\n<script>alert(1)</script>\n\n[x](javascript:alert(1))",
        );
        assert!(html.contains("<h2>Başlık</h2>"));
        assert!(html.contains("<strong>kalın</strong>"));
        assert!(html.contains("href=\"/faq\""));
        assert!(!html.contains("<script"));
        assert!(!html.contains("javascript:"));
    }
}
