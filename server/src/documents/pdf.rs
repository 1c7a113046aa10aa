//! A4 documents as PDF, drawn with krilla in DejaVu Sans (embedded, subset to the letters used,
//! so ç, ğ, ı, İ, ö, ş and ü are exact in every reader). A document is a list of [`Line`]s laid
//! out top to bottom, on as many pages as they need.

use krilla::Document;
use krilla::geom::Point;
use krilla::metadata::Metadata;
use krilla::page::PageSettings;
use krilla::text::{Font, TextDirection};

static REGULAR: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans.ttf");
static BOLD: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans-Bold.ttf");

const WIDTH: f32 = 595.0;
const HEIGHT: f32 = 842.0;
const MARGIN: f32 = 56.0;
/// Where a row's value starts.
const VALUE_X: f32 = 250.0;
/// Characters of body text per line at 10 pt (DejaVu Sans averages about 5.5 pt a letter).
const WRAP: usize = 86;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line {
    Title(String),
    Text(String),
    /// A label and its value on one line.
    Row(String, String),
    Gap,
}

/// Splits `text` into lines of at most [`WRAP`] characters, at spaces.
fn wrap(text: &str) -> Vec<String> {
    let mut lines = Vec::new();
    let mut current = String::new();
    for word in text.split_whitespace() {
        if !current.is_empty() && current.chars().count() + 1 + word.chars().count() > WRAP {
            lines.push(std::mem::take(&mut current));
        }
        if !current.is_empty() {
            current.push(' ');
        }
        current.push_str(word);
    }
    if !current.is_empty() {
        lines.push(current);
    }
    lines
}

/// The PDF of `lines`, titled `title`, in `language` (`tr` or `en`).
/// [`render`] on a blocking thread: laying out and subsetting fonts takes milliseconds of CPU
/// that must not hold an async thread (issue 26, item 10).
pub async fn render_off_thread(
    title: String,
    language: &'static str,
    lines: Vec<Line>,
) -> anyhow::Result<Vec<u8>> {
    tokio::task::spawn_blocking(move || render(&title, language, &lines)).await?
}

pub fn render(title: &str, language: &str, lines: &[Line]) -> anyhow::Result<Vec<u8>> {
    let regular = Font::new(REGULAR.into(), 0).ok_or_else(|| anyhow::anyhow!("font"))?;
    let bold = Font::new(BOLD.into(), 0).ok_or_else(|| anyhow::anyhow!("font"))?;
    // What each line draws: (x, font, size, text), and the space it takes below it.
    let mut drawn: Vec<Vec<(f32, Font, f32, String)>> = Vec::new();
    let mut advances = Vec::new();
    for line in lines {
        match line {
            Line::Title(t) => {
                drawn.push(vec![(MARGIN, bold.clone(), 18.0, t.clone())]);
                advances.push(30.0);
            }
            Line::Text(t) => {
                for part in wrap(t) {
                    drawn.push(vec![(MARGIN, regular.clone(), 10.0, part)]);
                    advances.push(15.0);
                }
            }
            Line::Row(label, value) => {
                drawn.push(vec![
                    (MARGIN, regular.clone(), 10.0, label.clone()),
                    (VALUE_X, bold.clone(), 10.0, value.clone()),
                ]);
                advances.push(16.0);
            }
            Line::Gap => {
                drawn.push(Vec::new());
                advances.push(12.0);
            }
        }
    }
    let mut document = Document::new();
    document.set_metadata(
        Metadata::new()
            .title(title.to_owned())
            .language(language.to_owned())
            .creator("Ortak".to_owned()),
    );
    let settings = || PageSettings::from_wh(WIDTH, HEIGHT).expect("A4");
    let mut items = drawn.into_iter().zip(advances).peekable();
    while items.peek().is_some() {
        let mut page = document.start_page_with(settings());
        let mut surface = page.surface();
        let mut y = MARGIN + 18.0;
        while let Some((parts, advance)) = items.next_if(|_| y < HEIGHT - MARGIN) {
            for (x, font, size, text) in parts {
                let at = Point::from_xy(x, y);
                surface.draw_text(at, font, size, &text, false, TextDirection::Auto);
            }
            y += advance;
        }
        surface.finish();
        page.finish();
    }
    document
        .finish()
        .map_err(|e| anyhow::anyhow!("the PDF could not be made: {e:?}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_text_wraps_at_spaces_and_turkish_text_makes_a_pdf() {
        let text = "Yatırım ".repeat(30);
        let lines = wrap(&text);
        assert!(lines.len() > 1 && lines.iter().all(|l| l.chars().count() <= WRAP));
        let many: Vec<Line> = (0..120)
            .map(|i| Line::Row(format!("Satır {i}"), "ğüşıöçİ".into()))
            .collect();
        let pdf = render("Yıllık döküm", "tr", &many).unwrap();
        assert!(pdf.starts_with(b"%PDF-"));
        // 120 rows of 16 pt need three A4 pages.
        let text = String::from_utf8_lossy(&pdf);
        assert!(text.contains("/Type/Pages/Count 3"), "three pages");
        assert!(
            text.contains("/ToUnicode"),
            "the text can be copied and searched"
        );
        assert!(
            pdf.len() < 200_000,
            "the font is subset: {} bytes",
            pdf.len()
        );
    }
}
