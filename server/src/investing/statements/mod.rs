//! Escrow receipts come from the clearing bank's statement, never from a typed figure alone
//! (issue 26, item 5). A superadmin imports the day's statement (`parse`: camt.053 or MT940);
//! each line is judged on its own:
//!
//! - a credit whose remittance holds a request's reference, of exactly the expected amount,
//!   from the investor (the IBAN they declared their own, and the name verified in their MKK
//!   data) is recorded as received (`receipts::record`): the request is funded, or the money
//!   goes back when the request or its round can no longer take it;
//! - anything else (no or unknown reference, another amount, another payer, an entry already
//!   imported, money going out) is kept with its outcome and flagged for a person. It moves no
//!   money.
//!
//! The whole file is one transaction: it is imported entirely or not at all, and the same file
//! twice is refused.

pub mod parse;

use ortak_app::domain::money::Money;
use sha2::{Digest, Sha256};

use super::queries::statements::{self as queries, Expected};
use super::receipts::{self, Receipt};
use crate::error::AppError;
use crate::state::AppState;
use parse::{Line, Refusal};

/// What became of a statement line, as `statement_lines.outcome` stores it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Recorded as received: the request is funded.
    Matched,
    /// Recorded as received and sent back (the request or its round could not take it).
    Returned,
    UnknownReference,
    AmountMismatch,
    PayerMismatch,
    /// Money going out (refunds): recorded for the reconciliation, nothing to do.
    Debit,
    /// The bank's entry was imported before, from another file.
    Duplicate,
}

impl Outcome {
    pub fn code(self) -> &'static str {
        match self {
            Outcome::Matched => "matched",
            Outcome::Returned => "returned",
            Outcome::UnknownReference => "unknown_reference",
            Outcome::AmountMismatch => "amount_mismatch",
            Outcome::PayerMismatch => "payer_mismatch",
            Outcome::Debit => "debit",
            Outcome::Duplicate => "duplicate",
        }
    }

    /// Whether a person must look at the line.
    pub fn flagged(self) -> bool {
        matches!(
            self,
            Outcome::UnknownReference | Outcome::AmountMismatch | Outcome::PayerMismatch
        )
    }
}

/// The request reference (`ORT` + six digits + six hex digits) in a remittance text, however
/// the payer spaced or cased it.
pub fn reference_in(remittance: &str) -> Option<String> {
    let squeezed: String = remittance
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect::<String>()
        .to_ascii_uppercase();
    let bytes = squeezed.as_bytes();
    (0..bytes.len().saturating_sub(14)).find_map(|i| {
        let candidate = &bytes[i..i + 15];
        let ok = candidate.starts_with(b"ORT")
            && candidate[3..9].iter().all(u8::is_ascii_digit)
            && candidate[9..].iter().all(u8::is_ascii_hexdigit);
        ok.then(|| String::from_utf8_lossy(candidate).into_owned())
    })
}

/// A name as banks write it: Turkish letters folded to ASCII, upper case, words separated by
/// single spaces (MT940 allows no `Ş`; `A.Ş.` and `A S` are the same).
fn folded(name: &str) -> String {
    let ascii: String = name
        .chars()
        .map(|c| match c {
            'ç' | 'Ç' => 'C',
            'ğ' | 'Ğ' => 'G',
            'ı' | 'I' | 'i' | 'İ' => 'I',
            'ö' | 'Ö' => 'O',
            'ş' | 'Ş' => 'S',
            'ü' | 'Ü' => 'U',
            c if c.is_ascii_alphanumeric() => c.to_ascii_uppercase(),
            _ => ' ',
        })
        .collect();
    ascii.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn iban_of(text: &str) -> String {
    text.chars()
        .filter(|c| !c.is_whitespace())
        .collect::<String>()
        .to_ascii_uppercase()
}

/// Whether the line's money came from the investor: every payer detail the bank gave matches
/// (the IBAN they declared their own, the name verified in their MKK data), and it gave one.
/// Where the bank gave only free text (MT940), it must name the investor or their IBAN.
fn from_the_investor(line: &Line, expected: &Expected) -> bool {
    let Some(verified) = expected.verified_name.as_deref().map(folded) else {
        return false;
    };
    let declared = iban_of(&expected.payer_iban);
    let (name, iban) = (folded(&line.payer_name), iban_of(&line.payer_iban));
    if !name.is_empty() || !iban.is_empty() {
        return (iban.is_empty() || iban == declared) && (name.is_empty() || name == verified);
    }
    let squeezed = iban_of(&line.remittance);
    let ibans: Vec<&str> = squeezed
        .match_indices("TR")
        .filter_map(|(i, _)| squeezed.get(i..i + 26))
        .filter(|c| c[2..].bytes().all(|b| b.is_ascii_digit()))
        .collect();
    if ibans.iter().any(|i| *i != declared) {
        return false;
    }
    let text = format!(" {} ", folded(&line.remittance));
    !ibans.is_empty() || text.contains(&format!(" {verified} "))
}

/// The outcome of a line, before any money is recorded: `expected` is the transfer its
/// reference names (if any), `seen` whether the bank's entry was imported before.
pub fn judge(line: &Line, expected: Option<&Expected>, seen: bool) -> Outcome {
    if line.amount_kurus <= 0 {
        return Outcome::Debit;
    }
    if seen {
        return Outcome::Duplicate;
    }
    let Some(expected) = expected else {
        return Outcome::UnknownReference;
    };
    if !from_the_investor(line, expected) {
        Outcome::PayerMismatch
    } else if line.amount_kurus != expected.amount_kurus {
        Outcome::AmountMismatch
    } else {
        Outcome::Matched
    }
}

/// What an import did.
#[derive(Debug, Default)]
pub struct Imported {
    pub lines: usize,
    pub funded: usize,
    pub returned: usize,
    pub flagged: usize,
}

/// Imports the statement file `bytes` as superadmin `actor`; `Err(refusal)` (a Fluent id)
/// when the file cannot be imported, and nothing is stored then.
pub async fn import(
    state: &AppState,
    bytes: &[u8],
    actor: i64,
) -> Result<Result<Imported, Refusal>, AppError> {
    let statements = match parse::parse(bytes) {
        Ok(statements) => statements,
        Err(refusal) => return Ok(Err(refusal)),
    };
    let escrow = iban_of(&state.shared().escrow.iban);
    if statements
        .iter()
        .any(|s| !same_account(&s.account, &escrow))
    {
        return Ok(Err("statement-wrong-account"));
    }
    let sha = Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect::<String>();
    let now = state.now();
    let mut tx = crate::db::write(state.db()).await?;
    if queries::file_known(&mut tx, &sha).await? {
        return Ok(Err("statement-already-imported"));
    }
    let mut done = Imported::default();
    for (n, statement) in statements.iter().enumerate() {
        let file = format!("{sha}:{n}");
        let id = queries::insert_statement(&mut tx, statement, &file, actor, now).await?;
        for line in &statement.lines {
            let reference = reference_in(&line.remittance);
            let expected = match &reference {
                Some(r) => queries::expected(&mut tx, r).await?,
                None => None,
            };
            let seen = !line.bank_reference.is_empty()
                && queries::entry_seen(&mut tx, &line.bank_reference).await?;
            let mut outcome = judge(line, expected.as_ref(), seen);
            let request = expected.as_ref().map(|e| e.request_id);
            let line_id = queries::insert_line(&mut tx, id, line, request, outcome).await?;
            if let (Outcome::Matched, Some(e)) = (outcome, &expected) {
                let amount = (Money::from_kurus(line.amount_kurus), line.booked_on);
                let source = format!("statement {} line {line_id}", statement.reference);
                let receipt =
                    receipts::record(&mut tx, state, e.request_id, amount, actor, &source).await?;
                if receipt == Receipt::Returned {
                    outcome = Outcome::Returned;
                    queries::set_outcome(&mut tx, line_id, outcome).await?;
                }
            }
            done.lines += 1;
            match outcome {
                Outcome::Matched => done.funded += 1,
                Outcome::Returned => done.returned += 1,
                o if o.flagged() => done.flagged += 1,
                _ => {}
            }
        }
    }
    let summary = format!(
        "{} lines: {} funded, {} returned, {} flagged",
        done.lines, done.funded, done.returned, done.flagged
    );
    crate::db::audit::record(
        &mut tx,
        actor,
        "statement.import",
        &sha,
        None,
        Some(&summary),
    )
    .await?;
    tx.commit().await?;
    state.wake_mailer();
    Ok(Ok(done))
}

/// Whether a statement's account is the escrow account: its IBAN, or its account number as
/// MT940's `:25:` may give it (the IBAN's last sixteen digits).
fn same_account(account: &str, escrow_iban: &str) -> bool {
    let account = iban_of(account);
    let number = escrow_iban
        .get(escrow_iban.len().saturating_sub(16)..)
        .unwrap_or("");
    !escrow_iban.is_empty() && (account == escrow_iban || account.ends_with(number))
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::date;

    fn expected() -> Expected {
        Expected {
            request_id: 42,
            amount_kurus: 10_000_000,
            payer_iban: "TR470000100100000350930001".into(),
            verified_name: Some("Ayşe Yılmaz".into()),
        }
    }

    fn line(amount: i64, name: &str, iban: &str, remittance: &str) -> Line {
        Line {
            booked_on: date!(2026 - 11 - 27),
            amount_kurus: amount,
            remittance: remittance.into(),
            payer_name: name.into(),
            payer_iban: iban.into(),
            bank_reference: "B-1".into(),
        }
    }

    #[test]
    fn a_line_funds_only_with_the_reference_the_exact_amount_and_the_investor_as_payer() {
        let e = expected();
        let iban = "TR47 0000 1001 0000 0350 9300 01";
        let ok = line(10_000_000, "AYŞE YILMAZ", iban, "ort000042abc123");
        assert_eq!(judge(&ok, Some(&e), false), Outcome::Matched);
        assert_eq!(judge(&ok, None, false), Outcome::UnknownReference);
        assert_eq!(judge(&ok, Some(&e), true), Outcome::Duplicate);
        let short = line(9_999_900, "Ayşe Yılmaz", iban, "");
        assert_eq!(judge(&short, Some(&e), false), Outcome::AmountMismatch);
        let holding = line(10_000_000, "Başka Biri Holding", iban, "");
        assert_eq!(judge(&holding, Some(&e), false), Outcome::PayerMismatch);
        let other_iban = line(10_000_000, "Ayşe Yılmaz", "TR330006100519786457841326", "");
        assert_eq!(judge(&other_iban, Some(&e), false), Outcome::PayerMismatch);
        let nobody = line(10_000_000, "", "", "ORT000042ABC123");
        assert_eq!(judge(&nobody, Some(&e), false), Outcome::PayerMismatch);
        // MT940's free text, in the SWIFT character set.
        let free = line(10_000_000, "", "", "ORT000042ABC123 AYSE YILMAZ");
        assert_eq!(judge(&free, Some(&e), false), Outcome::Matched);
        let free_other = line(
            10_000_000,
            "",
            "",
            "ORT000042ABC123 AYSE YILMAZ TR330006100519786457841326",
        );
        assert_eq!(judge(&free_other, Some(&e), false), Outcome::PayerMismatch);
        assert_eq!(
            judge(&line(-500, "", "", ""), Some(&e), false),
            Outcome::Debit
        );
        let unverified = Expected {
            verified_name: None,
            ..expected()
        };
        assert_eq!(judge(&ok, Some(&unverified), false), Outcome::PayerMismatch);
    }

    #[test]
    fn references_are_found_however_they_were_typed() {
        assert_eq!(
            reference_in("Ödeme ORT 000042 abc123 teşekkürler").as_deref(),
            Some("ORT000042ABC123")
        );
        assert_eq!(reference_in("ORT00004"), None);
        assert_eq!(reference_in(""), None);
        assert!(same_account(
            "TR33 0006 1005 1978 6457 8413 26",
            "TR330006100519786457841326"
        ));
        assert!(same_account(
            "0061/0519786457841326",
            "TR330006100519786457841326"
        ));
        assert!(!same_account(
            "TR470000100100000350930001",
            "TR330006100519786457841326"
        ));
    }
}
