//! E-mail address validation.

/// Why an e-mail field was refused; each maps to one of the spec's messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EmailError {
    Required,
    Invalid,
}

impl EmailError {
    /// The Fluent id of the message shown for this error.
    pub fn message_id(self) -> &'static str {
        match self {
            EmailError::Required => "validation-required",
            EmailError::Invalid => "validation-email",
        }
    }
}

/// Trims and lower-cases the address and checks its shape: one `@`, a local part, and a
/// domain with a dot and a letters-only top-level label. Deliverability is proven by mail, not
/// by parsing, so this stays deliberately simple.
pub fn normalize_email(input: &str) -> Result<String, EmailError> {
    let email = input.trim();
    if email.is_empty() {
        return Err(EmailError::Required);
    }
    if email.len() > 254 || email.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err(EmailError::Invalid);
    }
    let Some((local, domain)) = email.split_once('@') else {
        return Err(EmailError::Invalid);
    };
    let local_ok = !local.is_empty()
        && local.len() <= 64
        && !local.starts_with('.')
        && !local.ends_with('.')
        && !local.contains("..")
        && !local.contains(['<', '>', '(', ')', '[', ']', ',', ';', ':', '\\', '"', '@']);
    let labels: Vec<&str> = domain.split('.').collect();
    let domain_ok = labels.len() >= 2
        && labels.iter().all(|l| {
            !l.is_empty()
                && l.len() <= 63
                && !l.starts_with('-')
                && !l.ends_with('-')
                && l.chars().all(|c| c.is_alphanumeric() || c == '-')
        })
        && labels
            .last()
            .is_some_and(|tld| tld.len() >= 2 && tld.chars().all(char::is_alphabetic));
    if local_ok && domain_ok {
        Ok(email.to_lowercase())
    } else {
        Err(EmailError::Invalid)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_ordinary_addresses() {
        assert_eq!(
            normalize_email(" Ayse.Yilmaz@Example.com.tr "),
            Ok("ayse.yilmaz@example.com.tr".into())
        );
        assert!(normalize_email("a+tag@sub.example.org").is_ok());
        assert!(normalize_email("ali@ünlü.com.tr").is_ok());
    }

    #[test]
    fn refuses_empty_and_malformed() {
        assert_eq!(normalize_email("   "), Err(EmailError::Required));
        for bad in [
            "not-an-email",
            "a@b",
            "a@b.c",
            "@example.com",
            "a@.com",
            "a b@example.com",
            "a@@example.com",
            "a..b@example.com",
            ".a@example.com",
            "a@example.c0m",
            "a@-example.com",
            "<script>@example.com",
        ] {
            assert_eq!(normalize_email(bad), Err(EmailError::Invalid), "{bad}");
        }
        let long = format!("{}@example.com", "a".repeat(65));
        assert_eq!(normalize_email(&long), Err(EmailError::Invalid));
    }
}
