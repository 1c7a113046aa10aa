//! The documents staff attach to a round. Each upload is a new version; the newest of a kind
//! is the current one (side letters add up instead).

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DocumentKind {
    /// The information form SPK requires on a campaign page: an investor opens the current
    /// one before sending a request.
    InformationForm,
    ShareholderAgreement,
    SideLetter,
}

impl DocumentKind {
    pub const ALL: [DocumentKind; 3] = [
        DocumentKind::InformationForm,
        DocumentKind::ShareholderAgreement,
        DocumentKind::SideLetter,
    ];

    pub fn code(self) -> &'static str {
        match self {
            DocumentKind::InformationForm => "information-form",
            DocumentKind::ShareholderAgreement => "shareholder-agreement",
            DocumentKind::SideLetter => "side-letter",
        }
    }

    pub fn from_code(code: &str) -> Option<DocumentKind> {
        DocumentKind::ALL.into_iter().find(|k| k.code() == code)
    }

    /// The upload form's file field (each kind has its own form on the editor).
    pub fn field(self) -> &'static str {
        match self {
            DocumentKind::InformationForm => "information_form",
            DocumentKind::ShareholderAgreement => "shareholder_agreement",
            DocumentKind::SideLetter => "side_letter",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip() {
        for kind in DocumentKind::ALL {
            assert_eq!(DocumentKind::from_code(kind.code()), Some(kind));
        }
        assert_eq!(DocumentKind::from_code("report"), None);
    }
}
