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
    /// With the fee taken out of the amount, what goes to escrow is below the minimum.
    EscrowBelowMinimum,
}

impl AmountError {
    pub fn message_id(self) -> &'static str {
        match self {
            AmountError::Required => "validation-required",
            AmountError::NotANumber => "validation-number",
            AmountError::BelowMinimum => "validation-minimum-investment",
            AmountError::AboveMaximum => "validation-maximum-investment",
            AmountError::EscrowBelowMinimum => "validation-escrow-minimum",
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

/// The request's money for an amount typed: what goes to escrow (the investment) must itself
/// meet the minimum, so with the fee taken out of the amount, the amount must cover both.
pub fn checked_breakdown(
    input: &str,
    fee_rate_bp: i64,
    fee_added: bool,
) -> Result<Breakdown, AmountError> {
    let b = breakdown(parse_amount(input)?, fee_rate_bp, fee_added);
    if b.investment < MINIMUM_INVESTMENT {
        return Err(AmountError::EscrowBelowMinimum);
    }
    Ok(b)
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

/// Where a request stands. The states follow the money (see `MoneyKind`); the database refuses
/// any move [`RequestStatus::may_move_to`] does not allow (a trigger on
/// `investment_requests.status` mirrors it, with the ledger checks).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "sqlx", derive(sqlx::Type), sqlx(rename_all = "snake_case"))]
pub enum RequestStatus {
    /// The round's commitments reached its goal plus the overfunding margin: waiting in line.
    Waitlisted,
    Submitted,
    UnderReview,
    /// Approved; the service fee is due by card.
    Approved,
    /// Fee paid; the investment is due in escrow by transfer.
    FeePaid,
    /// The transfer reached escrow with the expected amount.
    Funded,
    /// The round succeeded: the investment and a share of the round are allocated.
    Allocated,
    /// Money had moved and went back (a failed round, or an end after payment).
    Refunded,
    Rejected,
    /// Withdrawn by the investor inside the cancellation window.
    Cancelled,
    /// A payment deadline passed, or the round closed before the request got through.
    Lapsed,
}

impl RequestStatus {
    pub const ALL: [RequestStatus; 11] = [
        RequestStatus::Waitlisted,
        RequestStatus::Submitted,
        RequestStatus::UnderReview,
        RequestStatus::Approved,
        RequestStatus::FeePaid,
        RequestStatus::Funded,
        RequestStatus::Allocated,
        RequestStatus::Refunded,
        RequestStatus::Rejected,
        RequestStatus::Cancelled,
        RequestStatus::Lapsed,
    ];

    pub fn code(self) -> &'static str {
        match self {
            RequestStatus::Waitlisted => "waitlisted",
            RequestStatus::Submitted => "submitted",
            RequestStatus::UnderReview => "under_review",
            RequestStatus::Approved => "approved",
            RequestStatus::FeePaid => "fee_paid",
            RequestStatus::Funded => "funded",
            RequestStatus::Allocated => "allocated",
            RequestStatus::Refunded => "refunded",
            RequestStatus::Rejected => "rejected",
            RequestStatus::Cancelled => "cancelled",
            RequestStatus::Lapsed => "lapsed",
        }
    }

    pub fn from_code(code: &str) -> Option<RequestStatus> {
        RequestStatus::ALL.into_iter().find(|s| s.code() == code)
    }

    /// Not yet finished one way or the other.
    pub fn is_open(self) -> bool {
        !self.is_end()
    }

    /// A final state: nothing moves it again.
    pub fn is_end(self) -> bool {
        matches!(
            self,
            RequestStatus::Allocated
                | RequestStatus::Refunded
                | RequestStatus::Rejected
                | RequestStatus::Cancelled
                | RequestStatus::Lapsed
        )
    }

    /// Holds a place in the round (counts as committed): sent and not waitlisted, not ended
    /// without allocation.
    pub fn holds_place(self) -> bool {
        matches!(
            self,
            RequestStatus::Submitted
                | RequestStatus::UnderReview
                | RequestStatus::Approved
                | RequestStatus::FeePaid
                | RequestStatus::Funded
                | RequestStatus::Allocated
        )
    }

    /// Committed but the money not yet in escrow.
    pub fn committed_not_received(self) -> bool {
        self.holds_place() && !matches!(self, RequestStatus::Funded | RequestStatus::Allocated)
    }

    /// Counts toward the investor's annual limit: it holds money or is heading there.
    pub fn counts_toward_limit(self) -> bool {
        self.holds_place() || self == RequestStatus::Waitlisted
    }

    /// Every end without an allocation: a service fee paid for such a request is owed back
    /// (the payments job refunds it through the provider).
    pub fn owes_fee_refund(self) -> bool {
        matches!(
            self,
            RequestStatus::Cancelled
                | RequestStatus::Rejected
                | RequestStatus::Lapsed
                | RequestStatus::Refunded
        )
    }

    /// The investor may withdraw from these states (inside the cancellation window; a
    /// waitlisted request at any time, as it holds no place).
    pub fn investor_may_withdraw(self) -> bool {
        matches!(
            self,
            RequestStatus::Waitlisted
                | RequestStatus::Submitted
                | RequestStatus::UnderReview
                | RequestStatus::Approved
                | RequestStatus::FeePaid
                | RequestStatus::Funded
        )
    }

    /// Staff moves: review, approve or reject; a request whose money moved may still be
    /// rejected before the round closes (what was paid is refunded).
    /// The states of a request whose money arrived (the service fee paid, or further): its
    /// investor reads the startup's reports. The one list of them; SQL takes it as
    /// [`RequestStatus::invested_json`].
    pub const INVESTED: [RequestStatus; 3] = [
        RequestStatus::FeePaid,
        RequestStatus::Funded,
        RequestStatus::Allocated,
    ];

    /// [`RequestStatus::INVESTED`]'s codes as a JSON array, for
    /// `status IN (SELECT value FROM json_each(?))`.
    pub fn invested_json() -> String {
        let codes: Vec<String> = RequestStatus::INVESTED
            .iter()
            .map(|s| format!("\"{}\"", s.code()))
            .collect();
        format!("[{}]", codes.join(","))
    }

    pub fn staff_can_move_to(self, to: RequestStatus) -> bool {
        use RequestStatus::*;
        matches!(
            (self, to),
            (Submitted, UnderReview)
                | (Submitted | UnderReview, Approved | Rejected)
                | (Approved | FeePaid | Funded, Rejected)
                | (Waitlisted, Rejected | Cancelled)
        )
    }

    /// Every move anyone (investor, staff, the money, the jobs) may make; the database trigger
    /// on `investment_requests.status` allows exactly these.
    pub fn may_move_to(self, to: RequestStatus) -> bool {
        use RequestStatus::*;
        matches!(
            (self, to),
            (Waitlisted, Submitted | Rejected | Cancelled | Lapsed)
                | (
                    Submitted,
                    UnderReview | Approved | Rejected | Cancelled | Lapsed
                )
                | (UnderReview, Approved | Rejected | Cancelled | Lapsed)
                | (Approved, FeePaid | Rejected | Cancelled | Lapsed)
                | (FeePaid, Funded | Rejected | Cancelled | Lapsed | Refunded)
                | (Funded, Allocated | Refunded | Rejected | Cancelled)
        )
    }
}

/// A move of money recorded in the ledger (`money_events`), in the same transaction as the
/// state it changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "sqlx", derive(sqlx::Type), sqlx(rename_all = "snake_case"))]
pub enum MoneyKind {
    /// The service fee was paid by card.
    FeePaid,
    /// The service fee went back to the card (through the provider).
    FeeRefunded,
    /// The payer's transfer details were given, with the reference.
    TransferInstructed,
    /// The clearing bank reported money received in escrow under the reference.
    TransferReceived,
    /// The round succeeded: the escrowed amount is allocated to the investor.
    Allocated,
    /// Escrowed money is to be returned by the clearing bank (its refund list).
    EscrowRefunded,
}

impl MoneyKind {
    pub fn code(self) -> &'static str {
        match self {
            MoneyKind::FeePaid => "fee_paid",
            MoneyKind::FeeRefunded => "fee_refunded",
            MoneyKind::TransferInstructed => "transfer_instructed",
            MoneyKind::TransferReceived => "transfer_received",
            MoneyKind::Allocated => "allocated",
            MoneyKind::EscrowRefunded => "escrow_refunded",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_goes_to_escrow_meets_the_minimum() {
        // 100.000 TL with the fee added: all of it to escrow.
        let b = checked_breakdown("100.000", 250, true).unwrap();
        assert_eq!(b.investment, Money::from_lira(100_000));
        // The fee taken out: 97.500 TL would go to escrow, below the minimum.
        assert_eq!(
            checked_breakdown("100.000", 250, false),
            Err(AmountError::EscrowBelowMinimum)
        );
        // 102.564 TL covers it: 2.564,10 TL fee, 99.999,90 TL... not quite; 102.565 TL does.
        assert_eq!(
            checked_breakdown("102.564", 250, false),
            Err(AmountError::EscrowBelowMinimum)
        );
        let b = checked_breakdown("102.565", 250, false).unwrap();
        assert!(b.investment >= MINIMUM_INVESTMENT);
    }

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
        assert!(FeePaid.staff_can_move_to(Rejected));
        assert!(
            !Approved.staff_can_move_to(FeePaid),
            "the fee moves it, not staff"
        );
        assert!(!Approved.staff_can_move_to(Funded), "no paid by hand");
        assert!(!Submitted.staff_can_move_to(Allocated));
        assert!(!Allocated.staff_can_move_to(Rejected));
        assert!(!Cancelled.staff_can_move_to(Approved));
        for from in RequestStatus::ALL {
            for to in RequestStatus::ALL {
                if from.staff_can_move_to(to) {
                    assert!(from.may_move_to(to), "{from:?} -> {to:?}");
                }
            }
            if from.is_end() {
                assert!(RequestStatus::ALL.iter().all(|to| !from.may_move_to(*to)));
            }
        }
    }

    #[test]
    fn fees_are_owed_back_on_every_end_without_allocation() {
        use RequestStatus::*;
        let owed: Vec<_> = RequestStatus::ALL
            .into_iter()
            .filter(|s| s.owes_fee_refund())
            .collect();
        assert_eq!(owed, [Refunded, Rejected, Cancelled, Lapsed]);
        assert!(!Allocated.owes_fee_refund() && !FeePaid.owes_fee_refund());
        assert!(Funded.investor_may_withdraw() && !Allocated.investor_may_withdraw());
        assert!(Waitlisted.counts_toward_limit() && !Waitlisted.holds_place());
        assert!(FeePaid.committed_not_received() && !Funded.committed_not_received());
    }

    #[test]
    fn the_invested_states_reach_sql_as_json() {
        assert_eq!(
            RequestStatus::invested_json(),
            r#"["fee_paid","funded","allocated"]"#
        );
    }
}
