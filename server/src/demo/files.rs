//! Files the demo generates: presentation slides (SVG) and quarterly report PDFs.

/// An SVG slide with a title and up to four lines.
pub fn slide(title: &str, lines: &[&str], page: usize) -> String {
    let escape = |s: &str| {
        s.replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;")
    };
    let mut body = String::new();
    for (i, line) in lines.iter().enumerate() {
        body.push_str(&format!(
            r##"<text x="80" y="{}" font-size="30" fill="#334155">• {}</text>"##,
            300 + i * 60,
            escape(line)
        ));
    }
    format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1280 720" width="1280" height="720"><rect width="1280" height="720" fill="#f8fafc"/><rect width="1280" height="14" fill="#0f766e"/><text x="80" y="180" font-family="sans-serif" font-size="56" font-weight="700" fill="#0b2540">{}</text><g font-family="sans-serif">{body}</g><text x="1200" y="680" text-anchor="end" font-family="sans-serif" font-size="24" fill="#64748b">{page}</text></svg>"##,
        escape(title)
    )
}

/// A one-page PDF with a title and lines of text (ASCII only: the built-in Helvetica has no
/// Turkish letters, so they are written without their marks).
pub fn report_pdf(title: &str, lines: &[&str]) -> Vec<u8> {
    fn ascii(s: &str) -> String {
        s.chars()
            .map(|c| match c {
                'ç' => 'c',
                'Ç' => 'C',
                'ğ' => 'g',
                'Ğ' => 'G',
                'ı' => 'i',
                'İ' => 'I',
                'ö' => 'o',
                'Ö' => 'O',
                'ş' => 's',
                'Ş' => 'S',
                'ü' => 'u',
                'Ü' => 'U',
                c if c.is_ascii() && c != '(' && c != ')' && c != '\\' => c,
                _ => ' ',
            })
            .collect()
    }
    let mut text = format!("BT /F1 20 Tf 72 760 Td ({}) Tj ET\n", ascii(title));
    for (i, line) in lines.iter().enumerate() {
        text.push_str(&format!(
            "BT /F1 12 Tf 72 {} Td ({}) Tj ET\n",
            720 - i * 20,
            ascii(line)
        ));
    }
    let objects = [
        "<< /Type /Catalog /Pages 2 0 R >>".to_owned(),
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_owned(),
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>".to_owned(),
        format!("<< /Length {} >>\nstream\n{text}endstream", text.len()),
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>".to_owned(),
    ];
    let mut pdf = b"%PDF-1.4\n".to_vec();
    let mut offsets = Vec::new();
    for (i, object) in objects.iter().enumerate() {
        offsets.push(pdf.len());
        pdf.extend_from_slice(format!("{} 0 obj\n{object}\nendobj\n", i + 1).as_bytes());
    }
    let xref = pdf.len();
    pdf.extend_from_slice(
        format!("xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1).as_bytes(),
    );
    for offset in offsets {
        pdf.extend_from_slice(format!("{offset:010} 00000 n \n").as_bytes());
    }
    pdf.extend_from_slice(
        format!(
            "trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n",
            objects.len() + 1
        )
        .as_bytes(),
    );
    pdf
}

#[cfg(test)]
mod tests {
    #[test]
    fn makes_a_pdf_and_a_slide() {
        let pdf = super::report_pdf("Çiçek Tarım 2026 Q3", &["Gelir %20 arttı"]);
        assert!(pdf.starts_with(b"%PDF-1.4") && pdf.ends_with(b"%%EOF\n"));
        let text = String::from_utf8(pdf).unwrap();
        assert!(text.contains("(Cicek Tarim 2026 Q3)"));
        assert!(super::slide("A <b>", &["x"], 1).contains("A &lt;b&gt;"));
    }
}
