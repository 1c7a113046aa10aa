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

#[cfg(test)]
mod tests {
    use super::*;

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
