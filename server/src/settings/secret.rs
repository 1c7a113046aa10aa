//! A secret setting (issue 31): the iyzico keys, the OIDC client secret, the SMTP URL (it
//! carries the credentials) and the metrics token. `Debug` prints `[redacted]`, so neither a
//! logged `Settings` nor a provider's state ever shows one; the code that needs the value asks
//! for it by name.

use std::fmt;

#[derive(Clone, PartialEq, Eq)]
pub struct Secret(String);

impl Secret {
    /// The value itself, for the one place that signs, authenticates or connects with it.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[redacted]")
    }
}

impl From<&str> for Secret {
    fn from(value: &str) -> Secret {
        Secret(value.to_owned())
    }
}

/// What clap parses a flag or environment variable with.
impl std::str::FromStr for Secret {
    type Err = std::convert::Infallible;

    fn from_str(value: &str) -> Result<Secret, Self::Err> {
        Ok(Secret(value.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::Secret;
    use crate::settings::Cli;

    #[test]
    fn debug_never_prints_a_secret() {
        assert_eq!(format!("{:?}", Secret::from("sk-live-123")), "[redacted]");
        let cli = Cli::try_parse_from([
            "ortak",
            "--smtp-url",
            "smtps://ortak:parola-42@mail.example.com:465",
            "--oidc-client-secret",
            "oidc-secret-42",
            "--metrics-token",
            "metrics-token-42",
            "--iyzico-api-key",
            "iyzico-api-42",
            "--iyzico-secret-key",
            "iyzico-secret-42",
            "serve",
        ])
        .unwrap();
        let shown = format!("{cli:?}");
        for secret in [
            "parola-42",
            "oidc-secret-42",
            "metrics-token-42",
            "iyzico-api-42",
            "iyzico-secret-42",
        ] {
            assert!(!shown.contains(secret), "{secret} shows in {shown}");
        }
        assert!(shown.contains("[redacted]"));
    }
}
