//! Mobile phone numbers, stored as E.164 (`+905321234567`).

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PhoneError {
    Required,
    DigitsOnly,
    Incomplete,
}

impl PhoneError {
    pub fn message_id(self) -> &'static str {
        match self {
            PhoneError::Required => "validation-required",
            PhoneError::DigitsOnly => "validation-digits-only",
            PhoneError::Incomplete => "validation-phone-incomplete",
        }
    }
}

/// Accepts a Turkish mobile as `+90 5XX XXX XX XX`, `0 5XX…` or `5XX…` (spaces, dashes and
/// brackets allowed), or another country's number written with `+` and its country code.
pub fn normalize_mobile(input: &str) -> Result<String, PhoneError> {
    let input = input.trim();
    if input.is_empty() {
        return Err(PhoneError::Required);
    }
    let international = input.starts_with('+');
    let body = if international { &input[1..] } else { input };
    if body
        .chars()
        .any(|c| !(c.is_ascii_digit() || matches!(c, ' ' | '-' | '(' | ')' | '.')))
    {
        return Err(PhoneError::DigitsOnly);
    }
    let digits: String = body.chars().filter(char::is_ascii_digit).collect();
    let national = if international {
        match digits.strip_prefix("90") {
            Some(rest) => rest,
            None if (8..=15).contains(&digits.len()) => return Ok(format!("+{digits}")),
            None => return Err(PhoneError::Incomplete),
        }
    } else {
        digits.strip_prefix('0').unwrap_or(&digits)
    };
    if national.len() == 10 && national.starts_with('5') {
        Ok(format!("+90{national}"))
    } else {
        Err(PhoneError::Incomplete)
    }
}

/// A stored number as people read it: a Turkish mobile as `+90 532 123 45 67`; any other as
/// stored.
pub fn format_phone(stored: &str) -> String {
    match stored.strip_prefix("+90") {
        Some(n) if n.len() == 10 && n.bytes().all(|b| b.is_ascii_digit()) => {
            format!("+90 {} {} {} {}", &n[..3], &n[3..6], &n[6..8], &n[8..])
        }
        _ => stored.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_a_turkish_mobile_in_groups() {
        assert_eq!(format_phone("+905321234567"), "+90 532 123 45 67");
        assert_eq!(format_phone("+4915112345678"), "+4915112345678");
        assert_eq!(format_phone(""), "");
    }

    #[test]
    fn normalizes_turkish_mobiles() {
        for ok in [
            "+90 532 123 45 67",
            "0532 123 45 67",
            "5321234567",
            "(0532) 123-45-67",
        ] {
            assert_eq!(normalize_mobile(ok), Ok("+905321234567".into()), "{ok}");
        }
        assert_eq!(
            normalize_mobile("+44 7911 123456"),
            Ok("+447911123456".into())
        );
    }

    #[test]
    fn reports_each_problem() {
        assert_eq!(normalize_mobile(" "), Err(PhoneError::Required));
        assert_eq!(
            normalize_mobile("0532 abc 45 67"),
            Err(PhoneError::DigitsOnly)
        );
        assert_eq!(normalize_mobile("0532 123 45"), Err(PhoneError::Incomplete));
        assert_eq!(
            normalize_mobile("0212 123 45 67"),
            Err(PhoneError::Incomplete)
        );
        assert_eq!(
            normalize_mobile("+90 532 123 45 678"),
            Err(PhoneError::Incomplete)
        );
    }
}
