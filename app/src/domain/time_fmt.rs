//! Dates: stored in UTC, shown in Europe/Istanbul (UTC+3 all year since 2016).

use time::{Date, OffsetDateTime, UtcOffset};

use crate::i18n::Locale;

pub const ISTANBUL: UtcOffset = match UtcOffset::from_hms(3, 0, 0) {
    Ok(offset) => offset,
    Err(_) => panic!("valid offset"),
};

const MONTHS_TR: [&str; 12] = [
    "Ocak", "Şubat", "Mart", "Nisan", "Mayıs", "Haziran", "Temmuz", "Ağustos", "Eylül", "Ekim",
    "Kasım", "Aralık",
];
const MONTHS_EN: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

/// The calendar date in Istanbul of a UTC instant.
pub fn istanbul_date(at: OffsetDateTime) -> Date {
    at.to_offset(ISTANBUL).date()
}

/// `21.11.2026` in Turkish, `21/11/2026` in English.
pub fn format_date_short(date: Date, locale: Locale) -> String {
    let sep = match locale {
        Locale::Tr => '.',
        Locale::En => '/',
    };
    format!(
        "{:02}{sep}{:02}{sep}{}",
        date.day(),
        u8::from(date.month()),
        date.year()
    )
}

/// The Istanbul day of a UTC instant, as [`format_date_short`] writes it.
pub fn format_day(at: OffsetDateTime, locale: Locale) -> String {
    format_date_short(istanbul_date(at), locale)
}

/// `21 Kasım 2026` in Turkish, `21 November 2026` in English.
pub fn format_date_long(date: Date, locale: Locale) -> String {
    let month = usize::from(u8::from(date.month())) - 1;
    let name = match locale {
        Locale::Tr => MONTHS_TR[month],
        Locale::En => MONTHS_EN[month],
    };
    format!("{} {name} {}", date.day(), date.year())
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::{date, datetime};

    #[test]
    fn shows_istanbul_dates() {
        // 22:30 UTC on the 20th is already the 21st in Istanbul.
        let at = datetime!(2026-11-20 22:30 UTC);
        assert_eq!(istanbul_date(at), date!(2026 - 11 - 21));
        assert_eq!(
            format_date_short(date!(2026 - 11 - 21), Locale::Tr),
            "21.11.2026"
        );
        assert_eq!(
            format_date_long(date!(2026 - 11 - 21), Locale::Tr),
            "21 Kasım 2026"
        );
        assert_eq!(
            format_date_long(date!(2026 - 02 - 01), Locale::En),
            "1 February 2026"
        );
    }
}
