//! IBANs, as payers give them at the escrow transfer step (the clearing bank refunds a failed
//! round's money to them): ISO 13616, checked with ISO 7064 MOD 97-10; a Turkish IBAN is 26
//! characters (`TR`, two check digits, a 5-digit bank code, a reserved `0`, 16 digits).

/// Why an IBAN was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IbanError {
    Required,
    Invalid,
}

impl IbanError {
    pub fn message_id(self) -> &'static str {
        match self {
            IbanError::Required => "validation-required",
            IbanError::Invalid => "validation-iban",
        }
    }
}

/// The IBAN without spaces, upper-cased, if it is valid.
pub fn normalize_iban(input: &str) -> Result<String, IbanError> {
    let iban: String = input
        .chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| c.to_ascii_uppercase())
        .collect();
    if iban.is_empty() {
        return Err(IbanError::Required);
    }
    let bytes = iban.as_bytes();
    let shaped = (15..=34).contains(&iban.len())
        && bytes[..2].iter().all(u8::is_ascii_uppercase)
        && bytes[2..4].iter().all(u8::is_ascii_digit)
        && bytes[4..].iter().all(u8::is_ascii_alphanumeric);
    if !shaped
        || (iban.starts_with("TR")
            && (iban.len() != 26 || !bytes[4..].iter().all(u8::is_ascii_digit)))
    {
        return Err(IbanError::Invalid);
    }
    // Move the first four characters to the end, letters to numbers (A = 10), mod 97 = 1.
    let mut remainder: u32 = 0;
    for c in iban[4..].chars().chain(iban[..4].chars()) {
        let value = c.to_digit(36).ok_or(IbanError::Invalid)?;
        remainder = if value >= 10 {
            (remainder * 100 + value) % 97
        } else {
            (remainder * 10 + value) % 97
        };
    }
    if remainder == 1 {
        Ok(iban)
    } else {
        Err(IbanError::Invalid)
    }
}

/// A Turkish IBAN for bank `bank` (5 digits) and account `account` (16 digits), with its check
/// digits (for demo content and tests).
pub fn tr_iban(bank: &str, account: &str) -> String {
    let body = format!("{bank}0{account}");
    // The check digits make (body + "TR00") mod 97 equal 1: 98 minus (body + "2927" + "00") mod 97.
    let mut remainder: u32 = 0;
    for c in body.chars().chain("292700".chars()) {
        remainder = (remainder * 10 + c.to_digit(10).unwrap_or(0)) % 97;
    }
    format!("TR{:02}{body}", 98 - remainder)
}

/// An IBAN as people read and type it: groups of four (`TR47 0000 1001 …`), spaces taken out
/// first, so a stored or typed one shows the same.
pub fn group_iban(iban: &str) -> String {
    let compact: Vec<char> = iban.chars().filter(|c| !c.is_whitespace()).collect();
    compact
        .chunks(4)
        .map(|c| c.iter().collect::<String>())
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_an_iban_in_fours() {
        assert_eq!(
            group_iban("TR470000100100000350930001"),
            "TR47 0000 1001 0000 0350 9300 01"
        );
        assert_eq!(group_iban("tr47 0000 10"), "tr47 0000 10");
        assert_eq!(group_iban(""), "");
    }

    #[test]
    fn checks_turkish_and_foreign_ibans() {
        assert_eq!(
            normalize_iban("tr47 0000 1001 0000 0350 9300 01"),
            Ok("TR470000100100000350930001".to_owned())
        );
        assert_eq!(
            normalize_iban("TR470000100100000350930002"),
            Err(IbanError::Invalid)
        );
        assert_eq!(normalize_iban("TR4700001001"), Err(IbanError::Invalid));
        assert_eq!(
            normalize_iban("DE89 3704 0044 0532 0130 00"),
            Ok("DE89370400440532013000".to_owned())
        );
        assert_eq!(
            normalize_iban("GB82 WEST 1234 5698 7654 32").map(|i| i.len()),
            Ok(22)
        );
        assert_eq!(normalize_iban("  "), Err(IbanError::Required));
        assert_eq!(normalize_iban("TR47-0000"), Err(IbanError::Invalid));
    }

    #[test]
    fn builds_turkish_ibans() {
        assert_eq!(
            tr_iban("00001", "0100000350930001"),
            "TR470000100100000350930001"
        );
        for n in 0..50_u64 {
            let iban = tr_iban("00062", &format!("{:016}", n * 7919));
            assert_eq!(normalize_iban(&iban), Ok(iban.clone()));
        }
    }
}
