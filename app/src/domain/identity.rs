//! Turkish identity and tax numbers (DOMAIN.md): TCKN, VKN and YKN.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "sqlx", derive(sqlx::Type), sqlx(rename_all = "snake_case"))]
pub enum IdType {
    /// National identity number, 11 digits.
    Tckn,
    /// Foreigner identity number, 11 digits starting with 99 (checksum unverified: format only).
    Ykn,
    /// Tax number, 10 digits.
    Vkn,
}

impl IdType {
    pub fn code(self) -> &'static str {
        match self {
            IdType::Tckn => "tckn",
            IdType::Ykn => "ykn",
            IdType::Vkn => "vkn",
        }
    }

    pub fn from_code(code: &str) -> Option<IdType> {
        match code {
            "tckn" => Some(IdType::Tckn),
            "ykn" => Some(IdType::Ykn),
            "vkn" => Some(IdType::Vkn),
            _ => None,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IdError {
    Required,
    DigitsOnly,
    /// Not 11 digits for a TCKN or YKN.
    NationalIdLength,
    /// Not 10 digits for a VKN.
    TaxNumberLength,
    Invalid,
}

impl IdError {
    pub fn message_id(self) -> &'static str {
        match self {
            IdError::Required => "validation-required",
            IdError::DigitsOnly => "validation-digits-only",
            IdError::NationalIdLength => "validation-tckn-length",
            IdError::TaxNumberLength => "validation-vkn-length",
            IdError::Invalid => "validation-id-invalid",
        }
    }
}

fn digits(s: &str) -> Vec<u32> {
    s.chars().filter_map(|c| c.to_digit(10)).collect()
}

pub fn tckn_checksum_ok(d: &[u32]) -> bool {
    if d.len() != 11 || d[0] == 0 {
        return false;
    }
    let odd = d[0] + d[2] + d[4] + d[6] + d[8];
    let even = d[1] + d[3] + d[5] + d[7];
    let d10 = ((odd * 7) as i64 - even as i64).rem_euclid(10) as u32;
    let d11 = (d[..10].iter().sum::<u32>()) % 10;
    d[9] == d10 && d[10] == d11
}

pub fn vkn_checksum_ok(d: &[u32]) -> bool {
    if d.len() != 10 {
        return false;
    }
    let mut sum = 0;
    for (i, digit) in d[..9].iter().enumerate() {
        let i = i as u32 + 1;
        let t = (digit + 10 - i) % 10;
        let v = if t == 0 {
            0
        } else {
            let v = (t * 2u32.pow(10 - i)) % 9;
            if v == 0 { 9 } else { v }
        };
        sum += v;
    }
    d[9] == (10 - sum % 10) % 10
}

/// Checks an identity or tax number of `kind`, returning its digits.
pub fn validate_id(kind: IdType, input: &str) -> Result<String, IdError> {
    let s: String = input.chars().filter(|c| !c.is_whitespace()).collect();
    if s.is_empty() {
        return Err(IdError::Required);
    }
    if !s.chars().all(|c| c.is_ascii_digit()) {
        return Err(IdError::DigitsOnly);
    }
    let d = digits(&s);
    let ok = match kind {
        IdType::Tckn | IdType::Ykn if d.len() != 11 => return Err(IdError::NationalIdLength),
        IdType::Vkn if d.len() != 10 => return Err(IdError::TaxNumberLength),
        IdType::Tckn => tckn_checksum_ok(&d),
        IdType::Ykn => s.starts_with("99"),
        IdType::Vkn => vkn_checksum_ok(&d),
    };
    if ok { Ok(s) } else { Err(IdError::Invalid) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checks_the_domain_examples() {
        assert_eq!(
            validate_id(IdType::Tckn, "10000000146"),
            Ok("10000000146".into())
        );
        assert_eq!(
            validate_id(IdType::Vkn, "4540536920"),
            Ok("4540536920".into())
        );
        assert_eq!(
            validate_id(IdType::Ykn, "99123456789"),
            Ok("99123456789".into())
        );
    }

    #[test]
    fn reports_each_problem_with_its_own_message() {
        assert_eq!(validate_id(IdType::Tckn, ""), Err(IdError::Required));
        assert_eq!(
            validate_id(IdType::Tckn, "1000000014a"),
            Err(IdError::DigitsOnly)
        );
        assert_eq!(
            validate_id(IdType::Tckn, "1000000014"),
            Err(IdError::NationalIdLength)
        );
        assert_eq!(
            validate_id(IdType::Vkn, "45405369201"),
            Err(IdError::TaxNumberLength)
        );
        assert_eq!(
            validate_id(IdType::Tckn, "10000000147"),
            Err(IdError::Invalid)
        );
        assert_eq!(
            validate_id(IdType::Tckn, "00000000146"),
            Err(IdError::Invalid)
        );
        assert_eq!(
            validate_id(IdType::Vkn, "4540536921"),
            Err(IdError::Invalid)
        );
        assert_eq!(
            validate_id(IdType::Ykn, "12345678901"),
            Err(IdError::Invalid)
        );
    }

    #[test]
    fn every_valid_tckn_check_digit_is_unique() {
        // For a fixed first nine digits exactly one of the 100 endings passes.
        let base = [1, 2, 3, 4, 5, 6, 7, 8, 9];
        let passing = (0..100)
            .filter(|n| {
                let mut d = base.to_vec();
                d.push(n / 10);
                d.push(n % 10);
                tckn_checksum_ok(&d)
            })
            .count();
        assert_eq!(passing, 1);
    }
}
