//! Investment requests: amounts, the service fee, and the request's life.

use crate::domain::money::{MINIMUM_INVESTMENT, Money};
use crate::domain::profile::parse_lira;

/// The most a single request may ask for; larger rounds are arranged with staff.
pub const MAXIMUM_INVESTMENT: Money = Money::from_lira(50_000_000);

/// Quick picks on the amount page, in lira.
pub const QUICK_AMOUNTS: [i64; 4] = [100_000, 250_000, 500_000, 1_000_000];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AmountError {
    Required,
    NotANumber,
    BelowMinimum,
    AboveMaximum,
}

impl AmountError {
    pub fn message_id(self) -> &'static str {
        match self {
            AmountError::Required => "validation-required",
            AmountError::NotANumber => "validation-number",
            AmountError::BelowMinimum => "validation-minimum-investment",
            AmountError::AboveMaximum => "validation-maximum-investment",
        }
    }
}

/// Reads the amount typed or picked (whole lira) and checks the limits.
pub fn parse_amount(input: &str) -> Result<Money, AmountError> {
    if input.trim().is_empty() {
        return Err(AmountError::Required);
    }
    let amount = parse_lira(input).ok_or(AmountError::NotANumber)?;
    if amount < MINIMUM_INVESTMENT {
        Err(AmountError::BelowMinimum)
    } else if amount > MAXIMUM_INVESTMENT {
        Err(AmountError::AboveMaximum)
    } else {
        Ok(amount)
    }
}

/// What the investor pays: the investment goes to escrow (the clearing bank), the service fee
/// is paid by card. With the fee added it comes on top of the amount; otherwise it is taken
/// out of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Breakdown {
    pub amount: Money,
    pub fee: Money,
    /// Paid to escrow.
    pub investment: Money,
    pub total: Money,
}

pub fn breakdown(amount: Money, fee_rate_bp: i64, fee_added: bool) -> Breakdown {
    let fee = amount.percent_bp(fee_rate_bp).unwrap_or_default();
    if fee_added {
        Breakdown {
            amount,
            fee,
            investment: amount,
            total: amount.checked_add(fee).unwrap_or(amount),
        }
    } else {
        Breakdown {
            amount,
            fee,
            investment: Money::from_kurus(amount.kurus() - fee.kurus()),
            total: amount,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "sqlx", derive(sqlx::Type), sqlx(rename_all = "snake_case"))]
pub enum RequestStatus {
    Submitted,
    UnderReview,
    /// Approved and awaiting payment.
    Approved,
    /// Payment received (fee and escrow transfer).
    Paid,
    Completed,
    Rejected,
    Cancelled,
}

impl RequestStatus {
    pub const ALL: [RequestStatus; 7] = [
        RequestStatus::Submitted,
        RequestStatus::UnderReview,
        RequestStatus::Approved,
        RequestStatus::Paid,
        RequestStatus::Completed,
        RequestStatus::Rejected,
        RequestStatus::Cancelled,
    ];

    pub fn code(self) -> &'static str {
        match self {
            RequestStatus::Submitted => "submitted",
            RequestStatus::UnderReview => "under_review",
            RequestStatus::Approved => "approved",
            RequestStatus::Paid => "paid",
            RequestStatus::Completed => "completed",
            RequestStatus::Rejected => "rejected",
            RequestStatus::Cancelled => "cancelled",
        }
    }

    pub fn from_code(code: &str) -> Option<RequestStatus> {
        RequestStatus::ALL.into_iter().find(|s| s.code() == code)
    }

    /// The investor may cancel until the payment is received.
    pub fn cancellable(self) -> bool {
        matches!(
            self,
            RequestStatus::Submitted | RequestStatus::UnderReview | RequestStatus::Approved
        )
    }

    /// Staff moves: review, approve or reject, confirm payment, complete.
    /// Not yet finished one way or the other.
    pub fn is_open(self) -> bool {
        !matches!(
            self,
            RequestStatus::Completed | RequestStatus::Rejected | RequestStatus::Cancelled
        )
    }

    /// Ended without an investment: a service fee paid for it is owed back (the payments job
    /// refunds it through the provider). INTERIM for the payments work: the rounds work owns
    /// this rule (its states add lapsed and refunded); the coordinator keeps theirs at merge.
    pub fn owes_fee_refund(self) -> bool {
        matches!(self, RequestStatus::Cancelled | RequestStatus::Rejected)
    }

    pub fn staff_can_move_to(self, to: RequestStatus) -> bool {
        use RequestStatus::*;
        matches!(
            (self, to),
            (Submitted, UnderReview)
                | (Submitted | UnderReview, Approved | Rejected)
                | (Approved, Paid | Rejected)
                | (Paid, Completed)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn amounts_respect_the_minimum() {
        assert_eq!(parse_amount("100.000"), Ok(Money::from_lira(100_000)));
        assert_eq!(parse_amount("99.999"), Err(AmountError::BelowMinimum));
        assert_eq!(parse_amount("yüz bin"), Err(AmountError::NotANumber));
        assert_eq!(parse_amount(""), Err(AmountError::Required));
        assert_eq!(parse_amount("60.000.000"), Err(AmountError::AboveMaximum));
    }

    #[test]
    fn the_fee_is_added_or_taken_out() {
        let added = breakdown(Money::from_lira(200_000), 250, true);
        assert_eq!(added.fee, Money::from_lira(5_000));
        assert_eq!(added.investment, Money::from_lira(200_000));
        assert_eq!(added.total, Money::from_lira(205_000));
        let inside = breakdown(Money::from_lira(200_000), 250, false);
        assert_eq!(inside.investment, Money::from_lira(195_000));
        assert_eq!(inside.total, Money::from_lira(200_000));
    }

    #[test]
    fn requests_move_only_forward() {
        use RequestStatus::*;
        assert!(Submitted.staff_can_move_to(Approved));
        assert!(Approved.staff_can_move_to(Paid));
        assert!(Paid.staff_can_move_to(Completed));
        assert!(!Submitted.staff_can_move_to(Paid));
        assert!(!Completed.staff_can_move_to(Rejected));
        assert!(!Cancelled.staff_can_move_to(Approved));
        assert!(Approved.cancellable() && !Paid.cancellable());
    }
}
