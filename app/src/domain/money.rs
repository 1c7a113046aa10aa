//! Money in integer kuruş (1 TL = 100 kuruş). Never floats.

use std::fmt::Write;

use serde::{Deserialize, Serialize};

use crate::i18n::Locale;

/// An amount of Turkish lira, held as kuruş.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct Money(i64);

impl Money {
    pub const fn from_kurus(kurus: i64) -> Money {
        Money(kurus)
    }

    pub const fn from_lira(lira: i64) -> Money {
        Money(lira * 100)
    }

    pub const fn kurus(self) -> i64 {
        self.0
    }

    pub fn checked_add(self, other: Money) -> Option<Money> {
        self.0.checked_add(other.0).map(Money)
    }

    /// `self` times `basis_points` / 10,000, rounded half away from zero to the kuruş.
    pub fn percent_bp(self, basis_points: i64) -> Option<Money> {
        let product = i128::from(self.0) * i128::from(basis_points);
        let half = if product >= 0 { 5_000 } else { -5_000 };
        i64::try_from((product + half) / 10_000).ok().map(Money)
    }

    /// `100.000 TL` in Turkish, `100,000 TL` in English; kuruş appear only when not zero
    /// (`1.234,50 TL` / `1,234.50 TL`).
    pub fn format(self, locale: Locale) -> String {
        let (thousands, decimal) = match locale {
            Locale::Tr => ('.', ','),
            Locale::En => (',', '.'),
        };
        let negative = self.0 < 0;
        let abs = self.0.unsigned_abs();
        let lira = (abs / 100).to_string();
        let kurus = abs % 100;
        let mut out = String::with_capacity(lira.len() + 8);
        if negative {
            out.push('-');
        }
        for (i, c) in lira.chars().enumerate() {
            if i > 0 && (lira.len() - i).is_multiple_of(3) {
                out.push(thousands);
            }
            out.push(c);
        }
        if kurus != 0 {
            let _ = write!(out, "{decimal}{kurus:02}");
        }
        out.push_str(" TL");
        out
    }
}

/// The smallest investment the platform accepts (spec: 100.000 TL).
pub const MINIMUM_INVESTMENT: Money = Money::from_lira(100_000);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_in_both_languages() {
        assert_eq!(MINIMUM_INVESTMENT.format(Locale::Tr), "100.000 TL");
        assert_eq!(MINIMUM_INVESTMENT.format(Locale::En), "100,000 TL");
        assert_eq!(Money::from_kurus(123_450).format(Locale::Tr), "1.234,50 TL");
        assert_eq!(Money::from_kurus(123_450).format(Locale::En), "1,234.50 TL");
        assert_eq!(Money::from_kurus(5).format(Locale::Tr), "0,05 TL");
        assert_eq!(
            Money::from_lira(6_000_000).format(Locale::Tr),
            "6.000.000 TL"
        );
        assert_eq!(Money::from_lira(-1_500).format(Locale::En), "-1,500 TL");
        assert_eq!(Money::from_lira(999).format(Locale::Tr), "999 TL");
    }

    #[test]
    fn percentages_round_to_the_kurus() {
        // 2.5% of 100.000 TL
        assert_eq!(
            MINIMUM_INVESTMENT.percent_bp(250),
            Some(Money::from_lira(2_500))
        );
        // 1.5% of 333,33 TL = 4,99995 -> 5,00
        assert_eq!(
            Money::from_kurus(33_333).percent_bp(150),
            Some(Money::from_kurus(500))
        );
        assert_eq!(Money::from_kurus(i64::MAX).percent_bp(20_000), None);
        assert_eq!(
            Money::from_kurus(i64::MAX).checked_add(Money::from_kurus(1)),
            None
        );
    }
}
