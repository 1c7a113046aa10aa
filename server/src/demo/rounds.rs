//! Demo rounds in every state: open ones with money in escrow and commitments under way,
//! one closing soon, one oversubscribed with a waitlist, funded ones with their allocations
//! and valuations, and a failed one with its refunds. Demo investors (accounts that cannot
//! sign in) send requests that step through the same states, ledger rows and history the
//! platform writes, so the database's triggers check every step and every figure comes from
//! the ledger.

use ortak_app::domain::iban::tr_iban;
use ortak_app::domain::money::Money;
use ortak_app::domain::rounds::{RoundRules, share_ppm};
use ortak_app::domain::time_fmt::istanbul_date;
use sqlx::SqliteConnection;
use time::{Date, Duration, OffsetDateTime};

use super::queries::{self, DemoMove, DemoRequest};

/// What happens to a demo round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scenario {
    /// Taking requests: money in escrow, and commitments under way.
    Open,
    /// Full: commitments reached the goal plus the margin, and two requests wait in line.
    Waitlist,
    /// Closed successfully: every request allocated.
    Funded,
    /// Closed below its goal: escrowed money and fees refunded.
    Failed,
}

/// A demo round to fill.
pub struct DemoRound {
    pub startup: i64,
    pub index: usize,
    pub kind: &'static str,
    pub goal_lira: i64,
    pub raised_lira: i64,
    pub investors: i64,
    pub starts: OffsetDateTime,
    pub ends_on: Date,
    pub scenario: Scenario,
}

const FIRST: [&str; 12] = [
    "Ahmet", "Elif", "Murat", "Seda", "Kerem", "Derya", "Okan", "Gizem", "Tolga", "Pınar",
    "Serkan", "Ebru",
];
const LAST: [&str; 5] = ["Yıldız", "Aksoy", "Polat", "Karaca", "Erdoğan"];

/// How many demo investors there are.
const INVESTORS: usize = 60;

/// The demo investors' ids. Each is a qualified investor with verified MKK data (a TCKN of
/// their own) and a verified declaration whose evidence is one demo PDF under
/// `data_dir/qualified`, so every request carries the verified snapshot a real one does.
pub async fn insert_investors(
    conn: &mut SqliteConnection,
    data_dir: &std::path::Path,
    now: OffsetDateTime,
) -> anyhow::Result<Vec<(i64, String)>> {
    let evidence_dir = data_dir.join(crate::investing::QUALIFIED_FOLDER);
    std::fs::create_dir_all(&evidence_dir)?;
    // One fixed name: a restarted demo writes the same file again.
    let evidence = "demo-qualified-evidence.pdf";
    let pdf = super::files::report_pdf(
        "Nitelikli yatirimci beyani (demo)",
        &["Demo evidence: no real person."],
    );
    std::fs::write(evidence_dir.join(evidence), pdf)?;
    let mut ids = Vec::with_capacity(INVESTORS);
    for n in 0..INVESTORS {
        let (first, last) = (FIRST[n % FIRST.len()], LAST[n / FIRST.len() % LAST.len()]);
        let email = format!("yatirimci{:02}@demo.ortak.local", n + 1);
        let id = queries::insert_investor(conn, &email, first, last, now).await?;
        let identity = demo_tckn(n as u32);
        queries::insert_verified_investor(conn, id, &identity, evidence, now).await?;
        ids.push((id, format!("{first} {last}")));
    }
    Ok(ids)
}

/// A valid TCKN for demo investor `n` (90000000… onwards: distinct, and far from the numbers
/// people type in the demo).
fn demo_tckn(n: u32) -> String {
    let base = format!("{}", 900_000_000 + n);
    let d: Vec<i64> = base.bytes().map(|b| i64::from(b - b'0')).collect();
    let odd = d[0] + d[2] + d[4] + d[6] + d[8];
    let even = d[1] + d[3] + d[5] + d[7];
    let d10 = (odd * 7 - even).rem_euclid(10);
    let d11 = (d.iter().sum::<i64>() + d10) % 10;
    format!("{base}{d10}{d11}")
}

/// `total` lira in `count` parts of at least 100.000 TL (round tens of thousands), summing to
/// it exactly; fewer parts when the total cannot hold that many.
fn split(total: i64, count: i64) -> Vec<i64> {
    let n = count.min(total / 100_000);
    if n <= 0 {
        return Vec::new();
    }
    let base = total / n / 10_000 * 10_000;
    let mut parts = vec![base; n as usize];
    parts[0] += total - base * n;
    parts
}

/// The moment a fraction `f` of the way from `from` to `to`.
fn between(from: OffsetDateTime, to: OffsetDateTime, f: f64) -> OffsetDateTime {
    let span = (to - from).whole_seconds() as f64;
    from + Duration::seconds((span * f) as i64)
}

/// Fills the round's requests as its scenario tells.
pub async fn seed(
    conn: &mut SqliteConnection,
    round: &DemoRound,
    investors: &[(i64, String)],
    now: OffsetDateTime,
) -> anyhow::Result<()> {
    let close_at = round
        .ends_on
        .next_day()
        .unwrap_or(round.ends_on)
        .midnight()
        .assume_utc();
    // Money in escrow arrived between the round's start and now (or its close).
    let until = if round.scenario == Scenario::Open || round.scenario == Scenario::Waitlist {
        now
    } else {
        close_at
    };
    let parts = split(round.raised_lira, round.investors);
    let total: i64 = parts.iter().sum::<i64>() * 100;
    let mut seq = Seq {
        round,
        investors,
        next: 0,
    };
    let mut funded = Vec::new();
    for (k, lira) in parts.iter().enumerate() {
        let sent = between(
            round.starts,
            until,
            0.6 * (k as f64 + 1.0) / (parts.len() as f64 + 1.0),
        );
        let (id, _) = seq.request(conn, lira * 100, sent, false).await?;
        to_funded(conn, &seq, id, lira * 100, sent, until).await?;
        funded.push((id, lira * 100));
    }
    match round.scenario {
        Scenario::Open | Scenario::Waitlist => commitments(conn, &mut seq, total, now).await,
        Scenario::Funded => allocate(conn, round, &funded, total, close_at, now).await,
        Scenario::Failed => refund(conn, &mut seq, &funded, total, close_at).await,
    }
}

/// A funded round's close: each request allocated its share, the round's figures and a later
/// valuation recorded.
async fn allocate(
    conn: &mut SqliteConnection,
    round: &DemoRound,
    funded: &[(i64, i64)],
    total: i64,
    close_at: OffsetDateTime,
    now: OffsetDateTime,
) -> anyhow::Result<()> {
    for (id, amount) in funded {
        let share = share_ppm(Money::from_kurus(*amount), Money::from_kurus(total));
        queries::insert_money(conn, *id, "allocated", *amount, "", close_at).await?;
        step(conn, *id, "allocated", close_at).await?;
        let m = DemoMove {
            share_ppm: Some(share),
            ..moved(*id, "allocated", close_at)
        };
        queries::move_request(conn, &m).await?;
    }
    queries::close_round(conn, round.startup, true, total, close_at).await?;
    let valuation = round.goal_lira * 100 * 8;
    queries::round_figures(conn, round.startup, valuation, round.goal_lira * 100 / 4).await?;
    let later = istanbul_date(now) - Duration::days(2);
    let source = "Bağımsız değerleme raporu / independent valuation report";
    queries::insert_valuation(
        conn,
        round.startup,
        valuation / 100 * 135,
        later,
        source,
        now,
    )
    .await?;
    Ok(())
}

/// A failed round's close: escrow and fees refunded, and one approved request that was never
/// paid lapsed.
async fn refund(
    conn: &mut SqliteConnection,
    seq: &mut Seq<'_>,
    funded: &[(i64, i64)],
    total: i64,
    close_at: OffsetDateTime,
) -> anyhow::Result<()> {
    let round = seq.round;
    for (id, amount) in funded {
        let reference = format!("ORT{id:06}DEMO");
        queries::insert_money(conn, *id, "escrow_refunded", *amount, &reference, close_at).await?;
        step(conn, *id, "refunded", close_at).await?;
        queries::move_request(conn, &moved(*id, "refunded", close_at)).await?;
        let refunded = close_at + Duration::days(1);
        queries::insert_money(
            conn,
            *id,
            "fee_refunded",
            amount / 40,
            "demo-refund",
            refunded,
        )
        .await?;
    }
    let sent = between(round.starts, close_at, 0.7);
    let (id, _) = seq.request(conn, 100_000 * 100, sent, false).await?;
    let approved = between(sent, close_at, 0.3);
    to_approved(conn, id, approved, close_at + Duration::days(3)).await?;
    step(conn, id, "lapsed", close_at).await?;
    queries::move_request(conn, &moved(id, "lapsed", close_at)).await?;
    queries::close_round(conn, round.startup, false, total, close_at).await?;
    Ok(())
}

/// Who sends the next request, and its idempotency key.
struct Seq<'a> {
    round: &'a DemoRound,
    investors: &'a [(i64, String)],
    next: usize,
}

impl Seq<'_> {
    async fn request(
        &mut self,
        conn: &mut SqliteConnection,
        amount_kurus: i64,
        at: OffsetDateTime,
        waitlisted: bool,
    ) -> anyhow::Result<(i64, String)> {
        let (user, name) =
            &self.investors[(self.round.index * 7 + self.next) % self.investors.len()];
        let key = format!("demo-{}-{}", self.round.startup, self.next);
        self.next += 1;
        let request = DemoRequest {
            user: *user,
            startup: self.round.startup,
            kind: self.round.kind,
            amount_kurus,
            key,
            waitlisted,
            at,
        };
        let id = queries::insert_request(conn, &request).await?;
        let status = if waitlisted {
            "waitlisted"
        } else {
            "submitted"
        };
        queries::insert_event(conn, id, status, "", at).await?;
        Ok((id, name.clone()))
    }

    fn payer(&self, request: i64) -> (&str, String) {
        let n = (request as usize) % self.investors.len();
        let iban = tr_iban("00062", &format!("{:016}", 1_000_000 + request * 7919));
        (self.investors[n].1.as_str(), iban)
    }
}

fn moved(request: i64, to: &str, at: OffsetDateTime) -> DemoMove<'_> {
    DemoMove {
        request,
        to,
        at,
        fee_due_at: None,
        transfer_due_at: None,
        fee_paid_at: None,
        share_ppm: None,
    }
}

async fn step(
    conn: &mut SqliteConnection,
    request: i64,
    status: &str,
    at: OffsetDateTime,
) -> anyhow::Result<()> {
    queries::insert_event(conn, request, status, "", at).await?;
    Ok(())
}

async fn to_approved(
    conn: &mut SqliteConnection,
    id: i64,
    at: OffsetDateTime,
    fee_due: OffsetDateTime,
) -> anyhow::Result<()> {
    step(conn, id, "approved", at).await?;
    let m = DemoMove {
        fee_due_at: Some(fee_due),
        ..moved(id, "approved", at)
    };
    queries::move_request(conn, &m).await?;
    Ok(())
}

async fn to_fee_paid(
    conn: &mut SqliteConnection,
    id: i64,
    amount_kurus: i64,
    at: OffsetDateTime,
    transfer_due: OffsetDateTime,
) -> anyhow::Result<()> {
    queries::insert_money(conn, id, "fee_paid", amount_kurus / 40, "demo-payment", at).await?;
    step(conn, id, "fee_paid", at).await?;
    let m = DemoMove {
        fee_paid_at: Some(at),
        transfer_due_at: Some(transfer_due),
        ..moved(id, "fee_paid", at)
    };
    queries::move_request(conn, &m).await?;
    Ok(())
}

/// Sent at `sent`, through review, the fee and the transfer, in escrow before `until`.
async fn to_funded(
    conn: &mut SqliteConnection,
    seq: &Seq<'_>,
    id: i64,
    amount_kurus: i64,
    sent: OffsetDateTime,
    until: OffsetDateTime,
) -> anyhow::Result<()> {
    let at = |f| between(sent, until, f);
    step(conn, id, "under_review", at(0.05)).await?;
    queries::move_request(conn, &moved(id, "under_review", at(0.05))).await?;
    to_approved(conn, id, at(0.1), at(0.1) + Duration::days(3)).await?;
    to_fee_paid(
        conn,
        id,
        amount_kurus,
        at(0.15),
        at(0.15) + Duration::days(5),
    )
    .await?;
    let reference = format!("ORT{id:06}DEMO");
    let (payer, iban) = seq.payer(id);
    queries::insert_transfer(conn, id, &reference, payer, &iban, amount_kurus, at(0.16)).await?;
    queries::insert_money(
        conn,
        id,
        "transfer_received",
        amount_kurus,
        &reference,
        at(0.2),
    )
    .await?;
    queries::note_receipt(conn, id, amount_kurus, istanbul_date(at(0.2))).await?;
    step(conn, id, "funded", at(0.2)).await?;
    queries::move_request(conn, &moved(id, "funded", at(0.2))).await?;
    Ok(())
}

/// Commitments under way in an open round: one request in each state before escrow, up to the
/// round's room (a full round also gets two waitlisted requests).
async fn commitments(
    conn: &mut SqliteConnection,
    seq: &mut Seq<'_>,
    received: i64,
    now: OffsetDateTime,
) -> anyhow::Result<()> {
    let round = seq.round;
    let goal = round.goal_lira * 100;
    let capacity = RoundRules::default()
        .capacity(Money::from_kurus(goal))
        .kurus();
    let room = capacity - received;
    let (count, amount) = if round.scenario == Scenario::Waitlist {
        // Fill the round to its capacity exactly.
        (4, room / 4)
    } else {
        (4, (goal / 20).max(10_000_000))
    };
    for k in 0..count {
        let amount = if round.scenario == Scenario::Waitlist && k == 0 {
            room - amount * (count - 1)
        } else {
            amount
        };
        if amount < 10_000_000
            || (round.scenario == Scenario::Open && received + amount * (k + 1) > goal)
        {
            break;
        }
        let sent = now - Duration::hours(40 - 8 * k);
        let (id, _) = seq.request(conn, amount, sent, false).await?;
        if k >= 1 {
            step(conn, id, "under_review", sent + Duration::hours(1)).await?;
            queries::move_request(conn, &moved(id, "under_review", sent + Duration::hours(1)))
                .await?;
        }
        if k >= 2 {
            to_approved(
                conn,
                id,
                sent + Duration::hours(2),
                now + Duration::hours(60),
            )
            .await?;
        }
        if k >= 3 {
            to_fee_paid(
                conn,
                id,
                amount,
                sent + Duration::hours(3),
                now + Duration::hours(110),
            )
            .await?;
        }
    }
    if round.scenario == Scenario::Waitlist {
        for k in 0..2 {
            seq.request(conn, 15_000_000, now - Duration::hours(3 - k), true)
                .await?;
        }
    }
    Ok(())
}
