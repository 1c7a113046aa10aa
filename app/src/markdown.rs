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

#[cfg(test)]
mod tests {
    use super::*;

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
