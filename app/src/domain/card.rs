//! Card details as typed on the fee payment step. They are checked here and passed to the
//! payment provider; they are never stored or logged.

use time::Date;

#[derive(Clone, Debug, Default)]
pub struct CardInput {
    pub holder: String,
    pub number: String,
    pub month: String,
    pub year: String,
    pub cvv: String,
}

/// A card that passed the checks. `Debug` shows only the brand and last four digits.
#[derive(Clone)]
pub struct Card {
    pub holder: String,
    pub number: String,
    pub month: u8,
    pub year: i32,
    pub cvv: String,
}

impl std::fmt::Debug for Card {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Card({} ****{})", self.brand(), self.last4())
    }
}

impl Card {
    pub fn last4(&self) -> &str {
        &self.number[self.number.len() - 4..]
    }

    pub fn brand(&self) -> &'static str {
        match self.number.as_bytes() {
            [b'4', ..] => "visa",
            [b'5', b'1'..=b'5', ..] | [b'2', b'2'..=b'7', ..] => "mastercard",
            [b'3', b'4' | b'7', ..] => "amex",
            [b'9', b'7', b'9', b'2', ..] => "troy",
            _ => "card",
        }
    }
}

/// A card as pages show it, by its brand code and last four digits: `Visa •••• 4242` (an unknown
/// brand shows the digits alone).
pub fn masked(brand: &str, last4: &str) -> String {
    let name = match brand {
        "visa" => "Visa ",
        "mastercard" => "Mastercard ",
        "amex" => "American Express ",
        "troy" => "Troy ",
        _ => "",
    };
    format!("{name}•••• {last4}")
}

pub fn luhn_ok(digits: &str) -> bool {
    let mut sum = 0;
    for (i, c) in digits.chars().rev().enumerate() {
        let Some(mut d) = c.to_digit(10) else {
            return false;
        };
        if i % 2 == 1 {
            d *= 2;
            if d > 9 {
                d -= 9;
            }
        }
        sum += d;
    }
    sum % 10 == 0
}

/// Checks the card; each field's error is a Fluent id (the spec's invalid number, month, year,
/// CVV messages). `today` is the Istanbul date, for the expiry check.
pub fn validate_card(input: &CardInput, today: Date) -> Result<Card, crate::forms::FieldErrors> {
    let mut errors = crate::forms::FieldErrors::default();
    let holder = input.holder.trim().to_owned();
    if holder.is_empty() {
        errors.add("holder", "validation-required");
    } else if holder.chars().count() > 100
        || holder.chars().any(|c| c.is_control() || c.is_ascii_digit())
    {
        errors.add("holder", "validation-card-holder");
    }
    let number: String = input
        .number
        .chars()
        .filter(|c| !matches!(c, ' ' | '-'))
        .collect();
    if number.is_empty() {
        errors.add("number", "validation-required");
    } else if !(12..=19).contains(&number.len())
        || !number.chars().all(|c| c.is_ascii_digit())
        || !luhn_ok(&number)
    {
        errors.add("number", "validation-card-number");
    }
    let month = input
        .month
        .trim()
        .parse::<u8>()
        .ok()
        .filter(|m| (1..=12).contains(m));
    if input.month.trim().is_empty() {
        errors.add("month", "validation-required");
    } else if month.is_none() {
        errors.add("month", "validation-card-month");
    }
    let year = input
        .year
        .trim()
        .parse::<i32>()
        .ok()
        .map(|y| if y < 100 { 2000 + y } else { y });
    let year = year.filter(|y| (today.year()..=today.year() + 20).contains(y));
    if input.year.trim().is_empty() {
        errors.add("year", "validation-required");
    } else if year.is_none() {
        errors.add("year", "validation-card-year");
    }
    if let (Some(m), Some(y)) = (month, year)
        && (y, m) < (today.year(), u8::from(today.month()))
    {
        errors.add("month", "validation-card-month");
    }
    let cvv = input.cvv.trim().to_owned();
    if cvv.is_empty() {
        errors.add("cvv", "validation-required");
    } else if !(3..=4).contains(&cvv.len()) || !cvv.chars().all(|c| c.is_ascii_digit()) {
        errors.add("cvv", "validation-card-cvv");
    }
    match (errors.is_empty(), month, year) {
        (true, Some(month), Some(year)) => Ok(Card {
            holder,
            number,
            month,
            year,
            cvv,
        }),
        _ => Err(errors),
    }
}

#[cfg(test)]
mod tests {

    #[test]
    fn a_card_is_shown_by_brand_and_last_four() {
        assert_eq!(masked("visa", "4242"), "Visa •••• 4242");
        assert_eq!(masked("troy", "0008"), "Troy •••• 0008");
        assert_eq!(masked("card", "1234"), "•••• 1234");
    }
    use super::*;
    use time::macros::date;

    fn input(number: &str, month: &str, year: &str, cvv: &str) -> CardInput {
        CardInput {
            holder: "Ayşe Yılmaz".into(),
            number: number.into(),
            month: month.into(),
            year: year.into(),
            cvv: cvv.into(),
        }
    }

    #[test]
    fn checks_each_field_with_its_message() {
        let today = date!(2026 - 11 - 21);
        let card =
            validate_card(&input("4242 4242 4242 4242", "12", "2028", "123"), today).unwrap();
        assert_eq!(card.last4(), "4242");
        assert_eq!(card.brand(), "visa");
        assert_eq!(
            format!("{card:?}"),
            "Card(visa ****4242)",
            "no number or CVV in logs"
        );
        let errors =
            validate_card(&input("4242 4242 4242 4241", "13", "2020", "12"), today).unwrap_err();
        assert_eq!(errors.get("number"), Some("validation-card-number"));
        assert_eq!(errors.get("month"), Some("validation-card-month"));
        assert_eq!(errors.get("year"), Some("validation-card-year"));
        assert_eq!(errors.get("cvv"), Some("validation-card-cvv"));
        let expired =
            validate_card(&input("4242424242424242", "10", "26", "123"), today).unwrap_err();
        assert_eq!(expired.get("month"), Some("validation-card-month"));
        let empty = validate_card(&CardInput::default(), today).unwrap_err();
        for field in ["holder", "number", "month", "year", "cvv"] {
            assert_eq!(empty.get(field), Some("validation-required"), "{field}");
        }
    }
}
