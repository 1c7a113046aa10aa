//! The clearing bank's statements, read into lines: ISO 20022 camt.053 (001.02 to 001.08, by
//! quick-xml into the few elements a line needs) and SWIFT MT940 (the `mt940` crate). Amounts
//! become kuruş exactly (no floats); anything not in Turkish lira is refused, not converted.

use serde::Deserialize;
use time::{Date, Month};

/// A statement's format, as `bank_statements.format` stores it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Camt053,
    Mt940,
}

impl Format {
    pub fn code(self) -> &'static str {
        match self {
            Format::Camt053 => "camt053",
            Format::Mt940 => "mt940",
        }
    }
}

/// One statement of one account.
#[derive(Debug, PartialEq, Eq)]
pub struct Statement {
    pub format: Format,
    /// The bank's own identifier of the statement.
    pub reference: String,
    /// The account it is of (an IBAN, or the bank's account number).
    pub account: String,
    pub lines: Vec<Line>,
}

/// One entry: money in (positive) or out (negative).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    pub booked_on: Date,
    pub amount_kurus: i64,
    /// The remittance information (where the payer wrote our reference).
    pub remittance: String,
    pub payer_name: String,
    pub payer_iban: String,
    /// The bank's reference of the entry.
    pub bank_reference: String,
}

/// Why a file cannot be imported, as a Fluent id.
pub type Refusal = &'static str;

/// The statements in `bytes`: camt.053 when it is XML, MT940 otherwise.
pub fn parse(bytes: &[u8]) -> Result<Vec<Statement>, Refusal> {
    let text = std::str::from_utf8(bytes).map_err(|_| "statement-unreadable")?;
    let text = text.trim_start_matches('\u{feff}').trim_start();
    let statements = if text.starts_with('<') {
        camt053(text)?
    } else {
        mt940(text)?
    };
    if statements.is_empty() {
        return Err("statement-unreadable");
    }
    Ok(statements)
}

/// `1234.56`, `1234,5` or `1234` as kuruş; `None` for anything else (more than two decimals,
/// signs, spaces, thousands separators).
pub fn kurus_of(text: &str) -> Option<i64> {
    let text = text.trim();
    let (whole, fraction) = match text.split_once(['.', ',']) {
        Some((w, f)) => (w, f),
        None => (text, ""),
    };
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !digits(whole) || fraction.len() > 2 || (!fraction.is_empty() && !digits(fraction)) {
        return None;
    }
    let cents = format!("{fraction:0<2}").parse::<i64>().ok()?;
    whole
        .parse::<i64>()
        .ok()?
        .checked_mul(100)?
        .checked_add(cents)
}

fn date_of(text: &str) -> Option<Date> {
    let day = text.get(..10)?;
    let mut parts = day.split('-');
    let year = parts.next()?.parse().ok()?;
    let month = Month::try_from(parts.next()?.parse::<u8>().ok()?).ok()?;
    let day = parts.next()?.parse().ok()?;
    Date::from_calendar_date(year, month, day).ok()
}

// ---- camt.053 -------------------------------------------------------------------------------

#[derive(Deserialize)]
struct Document {
    #[serde(rename = "BkToCstmrStmt")]
    report: Report,
}

#[derive(Deserialize)]
struct Report {
    #[serde(rename = "Stmt", default)]
    statements: Vec<CamtStatement>,
}

#[derive(Deserialize)]
struct CamtStatement {
    #[serde(rename = "Id")]
    id: String,
    #[serde(rename = "Acct")]
    account: Account,
    #[serde(rename = "Ntry", default)]
    entries: Vec<Entry>,
}

#[derive(Deserialize, Default)]
struct Account {
    #[serde(rename = "Id", default)]
    id: AccountId,
}

#[derive(Deserialize, Default)]
struct AccountId {
    #[serde(rename = "IBAN")]
    iban: Option<String>,
    #[serde(rename = "Othr")]
    other: Option<OtherId>,
}

#[derive(Deserialize, Default)]
struct OtherId {
    #[serde(rename = "Id", default)]
    id: String,
}

#[derive(Deserialize)]
struct Entry {
    #[serde(rename = "Amt")]
    amount: Amount,
    #[serde(rename = "CdtDbtInd")]
    direction: String,
    #[serde(rename = "BookgDt")]
    booked: When,
    #[serde(rename = "AcctSvcrRef", default)]
    bank_reference: String,
    #[serde(rename = "NtryDtls", default)]
    details: Vec<EntryDetails>,
    #[serde(rename = "AddtlNtryInf", default)]
    additional: String,
}

#[derive(Deserialize)]
struct Amount {
    #[serde(rename = "@Ccy")]
    currency: String,
    #[serde(rename = "$text")]
    value: String,
}

#[derive(Deserialize)]
struct When {
    #[serde(rename = "Dt")]
    date: Option<String>,
    #[serde(rename = "DtTm")]
    moment: Option<String>,
}

#[derive(Deserialize, Default)]
struct EntryDetails {
    #[serde(rename = "TxDtls", default)]
    transactions: Vec<Transaction>,
}

#[derive(Deserialize, Default)]
struct Transaction {
    #[serde(rename = "RltdPties", default)]
    parties: Parties,
    #[serde(rename = "RmtInf", default)]
    remittance: Remittance,
}

#[derive(Deserialize, Default)]
struct Parties {
    #[serde(rename = "Dbtr", default)]
    debtor: Party,
    #[serde(rename = "DbtrAcct", default)]
    debtor_account: Account,
}

/// A party's name: directly (001.02) or under `Pty` (001.08).
#[derive(Deserialize, Default)]
struct Party {
    #[serde(rename = "Nm")]
    name: Option<String>,
    #[serde(rename = "Pty")]
    party: Option<Box<Party>>,
}

impl Party {
    fn name(&self) -> String {
        self.name
            .clone()
            .or_else(|| self.party.as_ref().map(|p| p.name()))
            .unwrap_or_default()
    }
}

#[derive(Deserialize, Default)]
struct Remittance {
    #[serde(rename = "Ustrd", default)]
    unstructured: Vec<String>,
}

fn camt053(text: &str) -> Result<Vec<Statement>, Refusal> {
    let document: Document = quick_xml::de::from_str(text).map_err(|_| "statement-unreadable")?;
    document
        .report
        .statements
        .into_iter()
        .map(|s| {
            let account = s
                .account
                .id
                .iban
                .or(s.account.id.other.map(|o| o.id))
                .unwrap_or_default();
            let lines = s
                .entries
                .into_iter()
                .map(camt_line)
                .collect::<Result<_, _>>()?;
            Ok(Statement {
                format: Format::Camt053,
                reference: s.id,
                account,
                lines,
            })
        })
        .collect()
}

fn camt_line(entry: Entry) -> Result<Line, Refusal> {
    if entry.amount.currency != "TRY" {
        return Err("statement-not-lira");
    }
    let amount = kurus_of(&entry.amount.value).ok_or("statement-unreadable")?;
    let booked = entry
        .booked
        .date
        .or(entry.booked.moment)
        .unwrap_or_default();
    let booked_on = date_of(&booked).ok_or("statement-unreadable")?;
    let transactions: Vec<Transaction> = entry
        .details
        .into_iter()
        .flat_map(|d| d.transactions)
        .collect();
    // A batch of several transfers in one entry names no single payer: a person looks at it.
    let (payer_name, payer_iban) = match transactions.as_slice() {
        [one] => (
            one.parties.debtor.name(),
            one.parties
                .debtor_account
                .id
                .iban
                .clone()
                .unwrap_or_default(),
        ),
        _ => (String::new(), String::new()),
    };
    let mut remittance: Vec<String> = transactions
        .iter()
        .flat_map(|t| t.remittance.unstructured.iter().cloned())
        .collect();
    if !entry.additional.is_empty() {
        remittance.push(entry.additional);
    }
    Ok(Line {
        booked_on,
        amount_kurus: match entry.direction.as_str() {
            "DBIT" => -amount,
            _ => amount,
        },
        remittance: remittance.join(" "),
        payer_name,
        payer_iban,
        bank_reference: entry.bank_reference,
    })
}

// ---- MT940 ----------------------------------------------------------------------------------

fn mt940(text: &str) -> Result<Vec<Statement>, Refusal> {
    let messages = mt940::parse_mt940(&mt940::sanitizers::sanitize(text))
        .map_err(|_| "statement-unreadable")?;
    messages
        .into_iter()
        .map(|m| {
            if m.opening_balance.iso_currency_code != "TRY" {
                return Err("statement-not-lira");
            }
            let lines = m
                .statement_lines
                .into_iter()
                .map(mt940_line)
                .collect::<Result<_, _>>()?;
            Ok(Statement {
                format: Format::Mt940,
                reference: format!("{}/{}", m.transaction_ref_no, m.statement_no),
                account: m.account_id,
                lines,
            })
        })
        .collect()
}

fn mt940_line(line: mt940::StatementLine) -> Result<Line, Refusal> {
    use mt940::{ExtDebitOrCredit, InformationToAccountOwner};
    let amount = kurus_of(&line.amount.to_string()).ok_or("statement-unreadable")?;
    let day = line.entry_date.unwrap_or(line.value_date);
    let booked_on = date_of(&day.format("%Y-%m-%d").to_string()).ok_or("statement-unreadable")?;
    let (remittance, payer_name, payer_iban) = match line.information_to_account_owner {
        Some(InformationToAccountOwner::Plain(text)) => (text, String::new(), String::new()),
        Some(InformationToAccountOwner::Structured {
            purpose,
            additional_purpose,
            applicant_name,
            applicant_iban,
            ..
        }) => (
            [purpose, additional_purpose]
                .into_iter()
                .flatten()
                .collect::<Vec<_>>()
                .join(" "),
            applicant_name.unwrap_or_default(),
            applicant_iban.unwrap_or_default(),
        ),
        None => (String::new(), String::new(), String::new()),
    };
    let signed = match line.ext_debit_credit_indicator {
        ExtDebitOrCredit::Credit | ExtDebitOrCredit::ReverseDebit => amount,
        ExtDebitOrCredit::Debit | ExtDebitOrCredit::ReverseCredit => -amount,
    };
    let reference = line.bank_ref.unwrap_or(line.customer_ref);
    Ok(Line {
        booked_on,
        amount_kurus: signed,
        remittance,
        payer_name,
        payer_iban,
        bank_reference: reference,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::date;

    const CAMT: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02">
 <BkToCstmrStmt>
  <GrpHdr><MsgId>M1</MsgId><CreDtTm>2026-11-27T18:00:00</CreDtTm></GrpHdr>
  <Stmt>
   <Id>TAKAS-2026-11-27</Id>
   <Acct><Id><IBAN>TR330006100519786457841326</IBAN></Id><Ccy>TRY</Ccy></Acct>
   <Ntry>
    <Amt Ccy="TRY">100000.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts>BOOK</Sts>
    <BookgDt><Dt>2026-11-27</Dt></BookgDt><AcctSvcrRef>B-1</AcctSvcrRef>
    <NtryDtls><TxDtls>
     <RltdPties><Dbtr><Nm>Ayşe Yılmaz</Nm></Dbtr>
      <DbtrAcct><Id><IBAN>TR470000100100000350930001</IBAN></Id></DbtrAcct></RltdPties>
     <RmtInf><Ustrd>ORT000042ABC123</Ustrd></RmtInf>
    </TxDtls></NtryDtls>
   </Ntry>
   <Ntry>
    <Amt Ccy="TRY">2500.5</Amt><CdtDbtInd>DBIT</CdtDbtInd>
    <BookgDt><DtTm>2026-11-27T10:00:00</DtTm></BookgDt><AcctSvcrRef>B-2</AcctSvcrRef>
   </Ntry>
  </Stmt>
 </BkToCstmrStmt>
</Document>"#;

    #[test]
    fn reads_a_camt053_statement_to_the_kurus() {
        let statements = parse(CAMT.as_bytes()).unwrap();
        assert_eq!(statements.len(), 1);
        let s = &statements[0];
        assert_eq!(
            (s.format, s.reference.as_str()),
            (Format::Camt053, "TAKAS-2026-11-27")
        );
        assert_eq!(s.account, "TR330006100519786457841326");
        assert_eq!(
            s.lines[0],
            Line {
                booked_on: date!(2026 - 11 - 27),
                amount_kurus: 10_000_000,
                remittance: "ORT000042ABC123".into(),
                payer_name: "Ayşe Yılmaz".into(),
                payer_iban: "TR470000100100000350930001".into(),
                bank_reference: "B-1".into(),
            }
        );
        assert_eq!(s.lines[1].amount_kurus, -250_050);
        let euros = CAMT.replace("Ccy=\"TRY\">100000", "Ccy=\"EUR\">100000");
        assert_eq!(parse(euros.as_bytes()), Err("statement-not-lira"));
        assert_eq!(
            parse(b"<Document><nope/></Document>"),
            Err("statement-unreadable")
        );
    }

    #[test]
    fn reads_an_mt940_statement() {
        let text = ":20:TAKAS1127\r\n:25:TR330006100519786457841326\r\n:28C:00001/001\r\n\
                    :60F:C261126TRY5000000,00\r\n\
                    :61:2611271127C100000,00NTRFNONREF//B-7\r\n\
                    :86:ORT000042ABC123 AYSE YILMAZ TR470000100100000350930001\r\n\
                    :62F:C261127TRY5100000,00\r\n";
        let statements = parse(text.as_bytes()).unwrap();
        let line = &statements[0].lines[0];
        assert_eq!(statements[0].format, Format::Mt940);
        assert_eq!(statements[0].account, "TR330006100519786457841326");
        assert_eq!(line.booked_on, date!(2026 - 11 - 27));
        assert_eq!(line.amount_kurus, 10_000_000);
        assert_eq!(line.bank_reference, "B-7");
        assert!(line.remittance.contains("ORT000042ABC123"));
        let usd = text.replace("TRY5000000", "USD5000000");
        assert_eq!(parse(usd.as_bytes()), Err("statement-not-lira"));
    }

    #[test]
    fn amounts_are_exact_kurus_or_nothing() {
        assert_eq!(kurus_of("100000.00"), Some(10_000_000));
        assert_eq!(kurus_of("1234,5"), Some(123_450));
        assert_eq!(kurus_of("7"), Some(700));
        for bad in ["1.234,56", "-5", "1.005", "", "1e3", " 1 2"] {
            assert_eq!(kurus_of(bad), None, "{bad}");
        }
    }
}
