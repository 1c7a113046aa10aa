//! Turkish-aware text handling: case folding for search, and what a person's name may hold.

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

/// Whether `name` (trimmed, not empty) is what a person's name looks like: letters in any
/// script, spaces, and the hyphen, apostrophes and dot names carry (`Ayşe-Nur`, `O'Neill`,
/// `Dr.`). Digits, slashes, colons and the like are refused, so a name cannot carry a link or
/// a message into the mails and pages that show it (issue 26, item 7).
pub fn is_person_name(name: &str) -> bool {
    name.chars()
        .all(|c| c.is_alphabetic() || matches!(c, ' ' | '-' | '\'' | '’' | '.'))
        && name.chars().any(char::is_alphabetic)
}

#[cfg(test)]
mod name_tests {
    use super::is_person_name;

    #[test]
    fn names_hold_letters_spaces_and_name_punctuation_only() {
        for ok in [
            "Ayşe",
            "Ayşe Nur",
            "Çağrı-Öztürk",
            "O'Neill",
            "D’Arcy",
            "Dr. Şule",
            "İĞÜŞÖÇ",
        ] {
            assert!(is_person_name(ok), "{ok}");
        }
        for bad in [
            "your Ortak account is suspended. Reactivate at https://x.example/giris",
            "Ali2",
            "a/b",
            "x:y",
            "<b>",
            "...",
            "",
        ] {
            assert!(!is_person_name(bad), "{bad}");
        }
    }
}
