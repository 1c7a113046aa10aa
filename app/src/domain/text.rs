//! Turkish-aware text handling: case folding for search.

/// Lower-cases with Turkish rules (`I` → `ı`, `İ` → `i`) so that a search for `istanbul`
/// finds `İSTANBUL` and `ısparta` finds `ISPARTA`.
pub fn turkish_lowercase(s: &str) -> String {
    s.chars()
        .flat_map(|c| match c {
            'I' => vec!['ı'],
            'İ' => vec!['i'],
            c => c.to_lowercase().collect(),
        })
        .collect()
}

/// Upper-cases with Turkish rules (`i` → `İ`, `ı` → `I`).
pub fn turkish_uppercase(s: &str) -> String {
    s.chars()
        .flat_map(|c| match c {
            'i' => vec!['İ'],
            'ı' => vec!['I'],
            c => c.to_uppercase().collect(),
        })
        .collect()
}

/// Whether `haystack` contains `needle`, ignoring case by Turkish rules.
pub fn contains_turkish_ci(haystack: &str, needle: &str) -> bool {
    turkish_lowercase(haystack).contains(&turkish_lowercase(needle))
}

/// Up to two initials, Turkish upper case: "Aile Hekimim" → "AH", "ılık su" → "IS". The
/// designed stand-in for a logo or photo.
pub fn initials(name: &str) -> String {
    name.split_whitespace()
        .filter_map(|word| word.chars().find(|c| c.is_alphanumeric()))
        .take(2)
        .map(|c| turkish_uppercase(&c.to_string()))
        .collect()
}

/// A stable palette index (0..n) for `key`, so a startup keeps its colours between pages.
pub fn palette_index(key: &str, n: u32) -> u32 {
    key.bytes()
        .fold(0u32, |h, b| h.wrapping_mul(31).wrapping_add(u32::from(b)))
        % n
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn initials_follow_turkish_case() {
        assert_eq!(initials("Aile Hekimim"), "AH");
        assert_eq!(initials("ılık su deposu"), "IS");
        assert_eq!(initials("istanbul"), "İ");
        assert_eq!(initials("  Ünlü  Tarifler "), "ÜT");
        assert_eq!(initials("(Veri) Kalesi"), "VK");
        assert_eq!(
            palette_index("aile-hekimim", 6),
            palette_index("aile-hekimim", 6)
        );
        assert!(palette_index("x", 6) < 6);
    }

    #[test]
    fn folds_dotted_and_dotless_i() {
        assert_eq!(turkish_uppercase("istanbul"), "İSTANBUL");
        assert_eq!(turkish_lowercase("ISPARTA"), "ısparta");
        assert!(contains_turkish_ci("İSTANBUL", "istanbul"));
        assert!(contains_turkish_ci("ISPARTA", "ısparta"));
        assert!(!contains_turkish_ci("ISPARTA", "isparta"));
        assert!(contains_turkish_ci("Çiçek Tarım", "ÇİÇEK"));
    }
}
