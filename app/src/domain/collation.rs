//! Alphabetical order by the page language, as sortable keys.
//!
//! The database sorts by a key whose byte order is the language's alphabetical order, so the
//! list is sorted by an index, not in memory. In Turkish the alphabet is
//! A B C Ç D E F G Ğ H I İ J K L M N O Ö P R S Ş T U Ü V Y Z (with Q, W, X placed where
//! dictionaries put them); in English the Turkish letters sort with their base letter.

use crate::domain::text::turkish_lowercase;
use crate::i18n::Locale;

const TURKISH: &str = "abcçdefgğhıijklmnoöpqrsştuüvwxyz";
const ENGLISH: &str = "abcdefghijklmnopqrstuvwxyz";

fn english_base(c: char) -> char {
    match c {
        'ç' => 'c',
        'ğ' => 'g',
        'ı' => 'i',
        'ö' => 'o',
        'ş' => 's',
        'ü' => 'u',
        'â' | 'à' | 'á' | 'ä' => 'a',
        'é' | 'è' | 'ê' | 'ë' => 'e',
        'î' | 'í' | 'ï' => 'i',
        'ô' | 'ó' => 'o',
        'û' | 'ú' => 'u',
        c => c,
    }
}

/// A key whose byte order is `name`'s alphabetical order in `locale`. Case is ignored;
/// spaces and punctuation sort before digits, digits before letters, other scripts last.
pub fn sort_key(name: &str, locale: Locale) -> String {
    let lower = match locale {
        Locale::Tr => turkish_lowercase(name.trim()),
        // English pages fold the Turkish dotted capital İ to i as well.
        Locale::En => turkish_lowercase(name.trim())
            .chars()
            .map(english_base)
            .collect(),
    };
    let alphabet: Vec<char> = match locale {
        Locale::Tr => TURKISH.chars().collect(),
        Locale::En => ENGLISH.chars().collect(),
    };
    let mut key = String::with_capacity(lower.len() * 2);
    for c in lower.chars() {
        let rank: u32 = if let Some(i) = alphabet.iter().position(|a| *a == c) {
            20 + i as u32
        } else if let Some(d) = c.to_digit(10) {
            8 + d
        } else if c.is_whitespace() || c.is_ascii_punctuation() {
            1
        } else {
            // Anything else keeps its code point order after the alphabet.
            key.push('~');
            key.push(c);
            continue;
        };
        key.push(char::from_u32(u32::from(b'0') + rank).unwrap());
    }
    key
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sorted(names: &[&str], locale: Locale) -> Vec<String> {
        let mut v: Vec<String> = names.iter().map(|s| (*s).to_owned()).collect();
        v.sort_by_key(|n| sort_key(n, locale));
        v
    }

    #[test]
    fn turkish_letters_follow_their_base_letters() {
        assert_eq!(
            sorted(
                &[
                    "Çiçek", "Zeytin", "Cemre", "İnci", "Irmak", "Şahin", "Sarp", "Öykü", "Ozan",
                    "Ümit", "Ulus"
                ],
                Locale::Tr
            ),
            [
                "Cemre", "Çiçek", "Irmak", "İnci", "Ozan", "Öykü", "Sarp", "Şahin", "Ulus", "Ümit",
                "Zeytin"
            ]
        );
    }

    #[test]
    fn english_sorts_by_base_letters_ignoring_case() {
        assert_eq!(
            sorted(&["zeta", "Çiçek", "cemre", "İnci", "Irmak"], Locale::En),
            ["cemre", "Çiçek", "İnci", "Irmak", "zeta"]
        );
    }

    #[test]
    fn spaces_and_digits_come_first() {
        assert_eq!(
            sorted(&["Ali Veli", "Alibaba", "Ali2"], Locale::Tr),
            ["Ali Veli", "Ali2", "Alibaba"]
        );
    }
}
