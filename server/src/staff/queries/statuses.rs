//! Stored codes the staff sections decode whose domain enums do not derive `sqlx::Type` in
//! this branch: each stand-in maps onto its domain enum. Once app's `MkkStatus` and
//! `RequestStatus` derive it (behind app's `sqlx` feature), decode into those and delete the
//! matching stand-in here.

use ortak_app::domain::investing::RequestStatus;
use ortak_app::domain::mkk::MkkStatus;

/// `mkk_profiles.status` and `qualified_declarations.status`: a review's state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, sqlx::Type)]
#[sqlx(rename_all = "snake_case")]
pub enum ReviewStatus {
    Submitted,
    Verified,
    Rejected,
}

impl From<ReviewStatus> for MkkStatus {
    fn from(status: ReviewStatus) -> MkkStatus {
        match status {
            ReviewStatus::Submitted => MkkStatus::Submitted,
            ReviewStatus::Verified => MkkStatus::Verified,
            ReviewStatus::Rejected => MkkStatus::Rejected,
        }
    }
}

impl ReviewStatus {
    pub fn code(self) -> &'static str {
        MkkStatus::from(self).code()
    }

    /// Its Fluent id on staff pages.
    pub fn label(self) -> String {
        format!("dashboard-mkk-{}", self.code())
    }
}

/// `investment_requests.status`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, sqlx::Type)]
#[sqlx(rename_all = "snake_case")]
pub enum RequestState {
    Submitted,
    UnderReview,
    Approved,
    Paid,
    Completed,
    Rejected,
    Cancelled,
}

impl From<RequestState> for RequestStatus {
    fn from(status: RequestState) -> RequestStatus {
        match status {
            RequestState::Submitted => RequestStatus::Submitted,
            RequestState::UnderReview => RequestStatus::UnderReview,
            RequestState::Approved => RequestStatus::Approved,
            RequestState::Paid => RequestStatus::Paid,
            RequestState::Completed => RequestStatus::Completed,
            RequestState::Rejected => RequestStatus::Rejected,
            RequestState::Cancelled => RequestStatus::Cancelled,
        }
    }
}

impl RequestState {
    /// Its Fluent id.
    pub fn label(self) -> String {
        format!("request-status-{}", RequestStatus::from(self).code())
    }
}

/// `mkk_profiles.investor_type`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, sqlx::Type)]
#[sqlx(rename_all = "snake_case")]
pub enum InvestorKind {
    Individual,
    Corporate,
}

impl InvestorKind {
    /// Its Fluent id on staff pages.
    pub fn label(self) -> &'static str {
        match self {
            InvestorKind::Individual => "dashboard-investor-individual",
            InvestorKind::Corporate => "dashboard-investor-corporate",
        }
    }
}

/// `mkk_profiles.id_type`: which identity or tax number the investor gave.
#[derive(Clone, Copy, Debug, PartialEq, Eq, sqlx::Type)]
#[sqlx(rename_all = "snake_case")]
pub enum IdKind {
    Tckn,
    Ykn,
    Vkn,
}

impl IdKind {
    /// As staff read it: `TCKN`, `YKN`, `VKN`.
    pub fn abbreviation(self) -> &'static str {
        match self {
            IdKind::Tckn => "TCKN",
            IdKind::Ykn => "YKN",
            IdKind::Vkn => "VKN",
        }
    }
}
