//! The investment committee's rule (SPK III-35/A.2: at least three members approve each
//! campaign and its information form): a version is approved once the approvals reach the
//! majority the settings say, of all members; rejected once enough rejections make that
//! impossible. A committee smaller than its minimum decides nothing.

/// The committee's figures, as settings give them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CommitteeRules {
    /// The fewest members the committee may have.
    pub min_members: usize,
    /// The share of all members whose approval approves, in basis points (5001: more than half).
    pub majority_bp: i64,
}

impl Default for CommitteeRules {
    fn default() -> CommitteeRules {
        CommitteeRules {
            min_members: 3,
            majority_bp: 5001,
        }
    }
}

/// Where a version's votes stand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tally {
    /// The committee has fewer members than its minimum: nothing can be decided.
    TooFewMembers,
    Open,
    Approved,
    Rejected,
}

impl CommitteeRules {
    /// Approvals needed out of `members` (rounded up).
    pub fn needed(&self, members: usize) -> usize {
        let share = members as i64 * self.majority_bp;
        (share.div_euclid(10_000) + i64::from(share.rem_euclid(10_000) > 0)) as usize
    }

    pub fn tally(&self, members: usize, approvals: usize, rejections: usize) -> Tally {
        let needed = self.needed(members).max(1);
        if members < self.min_members {
            Tally::TooFewMembers
        } else if approvals >= needed {
            Tally::Approved
        } else if rejections > members.saturating_sub(needed) {
            Tally::Rejected
        } else {
            Tally::Open
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_majority_of_all_members_decides() {
        let rules = CommitteeRules::default();
        assert_eq!(rules.needed(3), 2);
        assert_eq!(rules.needed(4), 3);
        assert_eq!(rules.needed(5), 3);
        assert_eq!(rules.tally(2, 2, 0), Tally::TooFewMembers);
        assert_eq!(rules.tally(3, 1, 0), Tally::Open);
        assert_eq!(rules.tally(3, 1, 1), Tally::Open);
        assert_eq!(rules.tally(3, 2, 1), Tally::Approved);
        assert_eq!(rules.tally(3, 0, 2), Tally::Rejected);
        assert_eq!(rules.tally(4, 2, 1), Tally::Open);
        assert_eq!(rules.tally(4, 1, 2), Tally::Rejected);
        let unanimous = CommitteeRules {
            min_members: 3,
            majority_bp: 10_000,
        };
        assert_eq!(unanimous.tally(3, 2, 0), Tally::Open);
        assert_eq!(unanimous.tally(3, 2, 1), Tally::Rejected);
        assert_eq!(unanimous.tally(3, 3, 0), Tally::Approved);
    }
}
