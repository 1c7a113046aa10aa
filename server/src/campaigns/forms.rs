//! The documents an approval makes: the information form (Bilgi Formu) of the approved version,
//! under the Board's headings, in Turkish and then English in one PDF; and the committee's
//! minutes (who sat, how each voted and why, the outcome). Both go into the round's document
//! vault.

use ortak_app::domain::campaign::Campaign;
use ortak_app::domain::issuer::Issuer;
use ortak_app::domain::money::{MINIMUM_INVESTMENT, Money};
use ortak_app::domain::time_fmt::format_date_short;
use ortak_app::domain::timeline::format_moment;
use ortak_app::i18n::{FluentArg, Locale};
use ortak_app::markdown::plain_text;
use sha2::{Digest, Sha256};
use time::Date;

use super::queries::{Startup, Vote};
use crate::documents::pdf::Line;

/// What the information form states beside the campaign itself.
pub struct FormFacts<'a> {
    pub startup: &'a Startup,
    pub campaign: &'a Campaign,
    pub issuer: &'a Issuer,
    pub version_number: i64,
    pub approved_on: Date,
    /// The service fee, in basis points of the investment.
    pub fee_bp: i64,
    pub cancel_window_hours: i64,
    pub success_bp: i64,
    pub escrow_bank: &'a str,
}

fn money(l: Locale, kurus: i64) -> String {
    Money::from_kurus(kurus).format(l)
}

/// Basis points as the locale writes a percent (`%2,50`, `2.50%`).
fn percent(l: Locale, bp: i64) -> String {
    ortak_app::domain::rounds::format_share(bp.saturating_mul(100), l)
}

/// A section of the campaign in `l`, as plain text (empty when there is none).
fn section(c: &Campaign, id: &str, l: Locale) -> String {
    c.sections
        .get(id)
        .map(|(tr, en)| {
            let text = if l == Locale::Tr || en.is_empty() {
                tr
            } else {
                en
            };
            plain_text(text)
        })
        .unwrap_or_default()
}

fn texts(lines: &mut Vec<Line>, text: &str) {
    for paragraph in text.split("\n\n").filter(|p| !p.trim().is_empty()) {
        lines.push(Line::Text(paragraph.trim().to_owned()));
    }
}

/// One language's part of the information form.
fn form_part(f: &FormFacts, l: Locale) -> Vec<Line> {
    let s = f.startup;
    let mut lines = vec![Line::Title(format!("{}: {}", l.t("if-title"), s.name))];
    let args: [(&'static str, FluentArg); 2] = [
        ("version", f.version_number.into()),
        ("date", format_date_short(f.approved_on, l).into()),
    ];
    lines.push(Line::Text(l.t_args("if-intro", &args)));
    lines.push(Line::Gap);
    issuer_part(f, l, &mut lines);
    offer_part(f, l, &mut lines);
    closing_part(f, l, &mut lines);
    lines
}

/// 1. The issuer, with its key figures.
fn issuer_part(f: &FormFacts, l: Locale, lines: &mut Vec<Line>) {
    let (c, s) = (f.campaign, f.startup);
    lines.push(Line::Title(l.t("if-issuer")));
    let form = f
        .issuer
        .legal_form
        .as_deref()
        .map_or_else(String::new, |code| {
            l.t(&format!("issuer-legal-form-{code}"))
        });
    lines.extend([
        Line::Row(l.t("if-issuer-name"), s.name.clone()),
        Line::Row(l.t("if-legal-form"), form),
        Line::Row(l.t("if-registry"), f.issuer.registry_number.clone()),
        Line::Row(l.t("if-city"), s.city.clone()),
        Line::Row(l.t("if-website"), s.website.clone()),
    ]);
    if let Some(on) = s.established_on {
        lines.push(Line::Row(l.t("if-established"), format_date_short(on, l)));
    }
    if !c.financials.period.is_empty() {
        let figure = |k: Option<i64>| k.map_or_else(|| "—".to_owned(), |k| money(l, k));
        let period = c.financials.period.clone();
        lines.push(Line::Row(l.t("if-financials-period"), period));
        lines.push(Line::Row(
            l.t("if-revenue"),
            figure(c.financials.revenue_kurus),
        ));
        lines.push(Line::Row(
            l.t("if-net-income"),
            figure(c.financials.net_income_kurus),
        ));
    }
    lines.push(Line::Gap);
}

/// 2. Capital and shareholders, 3. the offer, 4. the use of funds.
fn offer_part(f: &FormFacts, l: Locale, lines: &mut Vec<Line>) {
    let (c, s, t) = (f.campaign, f.startup, &f.campaign.terms);
    lines.push(Line::Title(l.t("if-capital")));
    let post = t
        .pre_money_valuation_kurus
        .saturating_add(t.maximum_raise_kurus);
    lines.extend([
        Line::Row(l.t("if-pre-money"), money(l, t.pre_money_valuation_kurus)),
        Line::Row(l.t("if-post-money"), money(l, post)),
        Line::Row(l.t("if-share-price"), money(l, t.share_price_kurus)),
        Line::Row(l.t("if-shares-offered"), t.shares_offered.to_string()),
        Line::Row(l.t("if-fund"), s.fund.clone()),
        Line::Row(l.t("if-fund-commitment"), money(l, s.lead_commitment_kurus)),
    ]);
    lines.push(Line::Gap);
    lines.push(Line::Title(l.t("if-offer")));
    let period = format!(
        "{} – {} ({} {})",
        format_date_short(c.starts_on, l),
        format_date_short(c.ends_on, l),
        c.days(),
        l.t("if-days")
    );
    lines.extend([
        Line::Row(l.t("if-target"), money(l, c.goal_kurus)),
        Line::Row(l.t("if-minimum-raise"), money(l, t.minimum_raise_kurus)),
        Line::Row(l.t("if-maximum-raise"), money(l, t.maximum_raise_kurus)),
        Line::Row(l.t("if-period"), period),
        Line::Row(l.t("if-minimum-ticket"), MINIMUM_INVESTMENT.format(l)),
        Line::Row(l.t("if-escrow"), f.escrow_bank.to_owned()),
    ]);
    let success = [("percent", percent(l, f.success_bp).into())];
    lines.push(Line::Text(l.t_args("if-success", &success)));
    lines.push(Line::Gap);
    lines.push(Line::Title(l.t("if-use-of-funds")));
    for row in &t.use_of_funds {
        let label = if l == Locale::Tr { &row.tr } else { &row.en };
        let share = if c.goal_kurus > 0 {
            row.kurus.saturating_mul(10_000) / c.goal_kurus
        } else {
            0
        };
        let value = format!("{} ({})", money(l, row.kurus), percent(l, share));
        lines.push(Line::Row(label.clone(), value));
    }
    lines.push(Line::Gap);
}

/// 5. Risks, 6. investors' rights, 7. fees and conflicts.
fn closing_part(f: &FormFacts, l: Locale, lines: &mut Vec<Line>) {
    let (c, s) = (f.campaign, f.startup);
    lines.push(Line::Title(l.t("if-risks")));
    texts(lines, &section(c, "risks", l));
    lines.push(Line::Text(l.t("if-risks-standard")));
    lines.push(Line::Gap);
    lines.push(Line::Title(l.t("if-rights")));
    let hours = [("hours", f.cancel_window_hours.into())];
    lines.push(Line::Text(l.t_args("if-rights-text", &hours)));
    texts(lines, &section(c, "investment-conditions", l));
    lines.push(Line::Gap);
    lines.push(Line::Title(l.t("if-fees")));
    lines.push(Line::Row(l.t("if-service-fee"), percent(l, f.fee_bp)));
    let fund = [("fund", s.fund.clone().into())];
    lines.push(Line::Text(l.t_args("if-conflicts", &fund)));
}

/// The information form: the Turkish part, then the English one; and the hash of its text,
/// which tells whether a newer version changed it.
pub fn information_form(f: &FormFacts) -> (String, Vec<Line>, String) {
    let (tr, en) = (form_part(f, Locale::Tr), form_part(f, Locale::En));
    let hash = digest(&[&tr, &en]);
    let mut lines = tr;
    lines.push(Line::Gap);
    lines.extend(en);
    let title = format!(
        "{} / {}: {}",
        Locale::Tr.t("if-title"),
        Locale::En.t("if-title"),
        f.startup.name
    );
    (title, lines, hash)
}

/// The SHA-256 of a document's parts (one per language), as `sha256:…`, ignoring each part's
/// line saying which version and day it was approved on.
fn digest(parts: &[&[Line]]) -> String {
    let mut hash = Sha256::new();
    for (i, line) in parts.iter().flat_map(|p| p.iter().enumerate()) {
        let text = match line {
            Line::Title(t) => format!("T{t}"),
            Line::Text(_) if i == 1 => continue,
            Line::Text(t) => format!("X{t}"),
            Line::Row(a, b) => format!("R{a}\u{1f}{b}"),
            Line::Gap => "G".into(),
        };
        hash.update(text.as_bytes());
        hash.update([0]);
    }
    let hex: String = hash.finalize().iter().map(|b| format!("{b:02x}")).collect();
    format!("sha256:{hex}")
}

/// The committee's minutes of its decision on version `number` of `startup`.
pub fn minutes(
    startup: &str,
    number: i64,
    outcome: &str,
    decided_on: Date,
    (members, votes): (&[super::queries::Member], &[Vote]),
) -> (String, Vec<Line>) {
    let mut lines = Vec::new();
    for l in [Locale::Tr, Locale::En] {
        lines.push(Line::Title(format!("{}: {startup}", l.t("minutes-title"))));
        lines.push(Line::Row(l.t("minutes-version"), number.to_string()));
        lines.push(Line::Row(
            l.t("minutes-date"),
            format_date_short(decided_on, l),
        ));
        lines.push(Line::Row(
            l.t("minutes-outcome"),
            l.t(&format!("minutes-outcome-{outcome}")),
        ));
        lines.push(Line::Gap);
        for v in votes {
            let choice = l.t(&format!("minutes-vote-{}", v.vote));
            let at = format_moment(v.voted_at, l);
            let said = if v.note.is_empty() {
                format!("{choice} ({at})")
            } else {
                format!("{choice} ({at}): {}", v.note)
            };
            lines.push(Line::Row(v.name.clone(), said));
        }
        for m in members
            .iter()
            .filter(|m| votes.iter().all(|v| v.user_id != m.id))
        {
            lines.push(Line::Row(m.name.clone(), l.t("minutes-no-vote")));
        }
        lines.push(Line::Gap);
    }
    let title = format!(
        "{} / {}: {startup}",
        Locale::Tr.t("minutes-title"),
        Locale::En.t("minutes-title")
    );
    (title, lines)
}
