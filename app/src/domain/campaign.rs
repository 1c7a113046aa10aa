//! A campaign as its founders draft it, staff review it and the investment committee approves
//! it (SPK III-35/A.2): the story (description and the analysis sections, both languages), the
//! offer's terms, the use of funds, the key figures, the pitch video and the period. A version
//! is this, stored as JSON; the approved version is what the startup's page shows.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use time::Date;

use crate::domain::money::Money;
use crate::domain::profile::parse_lira;
use crate::domain::startups::SECTIONS;
use crate::forms::FieldErrors;

/// How many use-of-funds rows the editor offers.
pub const FUND_ROWS: usize = 6;

/// One line of the plan for the money raised.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FundUse {
    pub tr: String,
    pub en: String,
    pub kurus: i64,
}

/// The offer.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Terms {
    pub pre_money_valuation_kurus: i64,
    pub share_price_kurus: i64,
    pub shares_offered: i64,
    pub minimum_raise_kurus: i64,
    pub maximum_raise_kurus: i64,
    pub use_of_funds: Vec<FundUse>,
}

/// The key figures and the period they are of (`2025`, `2026 H1`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Financials {
    pub period: String,
    pub revenue_kurus: Option<i64>,
    pub net_income_kurus: Option<i64>,
}

/// A campaign version.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Campaign {
    pub description_tr: String,
    pub description_en: String,
    /// Section id → (Turkish, English) Markdown.
    pub sections: BTreeMap<String, (String, String)>,
    /// The target (the round's goal).
    pub goal_kurus: i64,
    pub starts_on: Date,
    pub ends_on: Date,
    pub terms: Terms,
    pub financials: Financials,
    /// A YouTube or Vimeo address, or empty.
    pub pitch_video: String,
}

impl Campaign {
    /// Days the campaign runs, its first and last day included.
    pub fn days(&self) -> i64 {
        campaign_days(self.starts_on, self.ends_on)
    }
}

/// Days from `starts` to `ends`, both included.
pub fn campaign_days(starts: Date, ends: Date) -> i64 {
    (ends - starts).whole_days() + 1
}

/// The campaign editor's fields as typed, by name (`s_{section}_{tr|en}`, `fund_tr_{i}`, ...).
pub type CampaignForm = BTreeMap<String, String>;

/// The form a campaign shows in the editor.
/// A campaign as its editor's fields, amounts grouped as `locale` writes them (both forms are
/// read back).
pub fn form_of(c: &Campaign, locale: crate::i18n::Locale) -> CampaignForm {
    let lira = |k: i64| Money::from_kurus(k).format(locale).replace(" TL", "");
    let signed_lira = |k: i64| signed_lira(k, locale);
    let mut f = CampaignForm::new();
    let mut put = |k: &str, v: String| {
        f.insert(k.to_owned(), v);
    };
    put("description_tr", c.description_tr.clone());
    put("description_en", c.description_en.clone());
    for (section, (tr, en)) in &c.sections {
        put(&format!("s_{section}_tr"), tr.clone());
        put(&format!("s_{section}_en"), en.clone());
    }
    put("goal", lira(c.goal_kurus));
    put("starts_on", c.starts_on.to_string());
    put("ends_on", c.ends_on.to_string());
    let t = &c.terms;
    put("pre_money_valuation", lira(t.pre_money_valuation_kurus));
    put("share_price", lira(t.share_price_kurus));
    put("shares_offered", group(t.shares_offered, locale));
    put("minimum_raise", lira(t.minimum_raise_kurus));
    put("maximum_raise", lira(t.maximum_raise_kurus));
    for (i, row) in t.use_of_funds.iter().enumerate() {
        put(&format!("fund_tr_{i}"), row.tr.clone());
        put(&format!("fund_en_{i}"), row.en.clone());
        put(&format!("fund_amount_{i}"), lira(row.kurus));
    }
    put("financials_period", c.financials.period.clone());
    put(
        "revenue",
        c.financials
            .revenue_kurus
            .map(signed_lira)
            .unwrap_or_default(),
    );
    put(
        "net_income",
        c.financials
            .net_income_kurus
            .map(signed_lira)
            .unwrap_or_default(),
    );
    put("pitch_video", c.pitch_video.clone());
    f
}

/// A count with `locale`'s thousands separator (`36.000`, `36,000`).
pub fn group(n: i64, locale: crate::i18n::Locale) -> String {
    let digits = n.unsigned_abs().to_string();
    let sep = if locale == crate::i18n::Locale::En {
        ','
    } else {
        '.'
    };
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(sep);
        }
        out.push(c);
    }
    if n < 0 { format!("-{out}") } else { out }
}

fn signed_lira(kurus: i64, locale: crate::i18n::Locale) -> String {
    let shown = Money::from_kurus(kurus.abs())
        .format(locale)
        .replace(" TL", "");
    if kurus < 0 {
        format!("-{shown}")
    } else {
        shown
    }
}

/// `-1.250.000` or `300.000` as kuruş.
fn parse_signed_lira(text: &str) -> Option<i64> {
    let text = text.trim();
    match text.strip_prefix('-') {
        Some(rest) => parse_lira(rest).map(|m| -m.kurus()),
        None => parse_lira(text).map(Money::kurus),
    }
}

fn field<'a>(f: &'a CampaignForm, key: &str) -> &'a str {
    f.get(key).map_or("", |v| v.as_str())
}

/// Whether `url` is a YouTube or Vimeo video address (https only).
pub fn is_video_link(url: &str) -> bool {
    let Some(rest) = url.strip_prefix("https://") else {
        return false;
    };
    let id_ok = |id: &str, digits: bool| {
        !id.is_empty()
            && id.len() <= 20
            && id.bytes().all(|b| {
                if digits {
                    b.is_ascii_digit()
                } else {
                    b.is_ascii_alphanumeric() || b == b'-' || b == b'_'
                }
            })
    };
    if let Some(id) = rest
        .strip_prefix("www.youtube.com/watch?v=")
        .or_else(|| rest.strip_prefix("youtube.com/watch?v="))
        .or_else(|| rest.strip_prefix("youtu.be/"))
    {
        return id_ok(id, false);
    }
    rest.strip_prefix("vimeo.com/")
        .is_some_and(|id| id_ok(id, true))
}

/// A one-line or multi-line text, trimmed, with line breaks as LF.
fn text(
    f: &CampaignForm,
    e: &mut FieldErrors,
    key: &'static str,
    required: bool,
    max: usize,
) -> String {
    let v = field(f, key).trim().replace("\r\n", "\n");
    if required && v.is_empty() {
        e.add(key, "validation-required");
    } else if v.chars().count() > max {
        e.add(key, "validation-too-long");
    }
    v
}

/// The analysis sections typed, in either language.
fn sections(f: &CampaignForm, e: &mut FieldErrors) -> BTreeMap<String, (String, String)> {
    let mut sections = BTreeMap::new();
    for section in SECTIONS {
        let tr = field(f, &format!("s_{section}_tr"))
            .trim()
            .replace("\r\n", "\n");
        let en = field(f, &format!("s_{section}_en"))
            .trim()
            .replace("\r\n", "\n");
        if tr.chars().count() > 20_000 || en.chars().count() > 20_000 {
            e.add("sections", "validation-too-long");
        }
        if !tr.is_empty() || !en.is_empty() {
            sections.insert(section.to_owned(), (tr, en));
        }
    }
    sections
}

/// The offer: the target and the terms, each consistent with the others.
fn offer(f: &CampaignForm, e: &mut FieldErrors) -> (i64, Terms) {
    let money = |e: &mut FieldErrors, key: &'static str| match parse_lira(field(f, key)) {
        Some(m) if m.kurus() > 0 => m.kurus(),
        _ => {
            e.add(key, "validation-number");
            0
        }
    };
    let goal = money(e, "goal");
    let pre_money = money(e, "pre_money_valuation");
    let share_price = money(e, "share_price");
    let minimum = money(e, "minimum_raise");
    let maximum = money(e, "maximum_raise");
    let shares = match field(f, "shares_offered")
        .trim()
        .replace(['.', ',', ' '], "")
        .parse::<i64>()
    {
        Ok(n) if n > 0 => n,
        _ => {
            e.add("shares_offered", "validation-number");
            0
        }
    };
    if goal > 0 && minimum > 0 && maximum > 0 && !(minimum <= goal && goal <= maximum) {
        e.add("goal", "validation-campaign-goal-between");
    }
    if maximum > 0 && shares > 0 && share_price > 0 {
        let offered = i128::from(shares) * i128::from(share_price);
        if offered < i128::from(maximum) {
            e.add("shares_offered", "validation-campaign-shares");
        }
    }
    let use_of_funds = fund_rows(f, e);
    let planned: i64 = use_of_funds.iter().map(|r| r.kurus).sum();
    if use_of_funds.is_empty() {
        e.add("fund_tr_0", "validation-required");
    } else if goal > 0 && planned != goal {
        e.add("fund_amount_0", "validation-campaign-funds-sum");
    }
    let terms = Terms {
        pre_money_valuation_kurus: pre_money,
        share_price_kurus: share_price,
        shares_offered: shares,
        minimum_raise_kurus: minimum,
        maximum_raise_kurus: maximum,
        use_of_funds,
    };
    (goal, terms)
}

/// The period's first and last day, at most `max_days` apart (both included).
fn period(f: &CampaignForm, e: &mut FieldErrors, max_days: i64) -> Option<(Date, Date)> {
    let day = |key: &'static str, e: &mut FieldErrors| {
        let format = time::macros::format_description!("[year]-[month]-[day]");
        let parsed = Date::parse(field(f, key).trim(), format).ok();
        if parsed.is_none() {
            e.add(key, "validation-date");
        }
        parsed
    };
    let (starts_on, ends_on) = (day("starts_on", e)?, day("ends_on", e)?);
    if ends_on < starts_on {
        e.add("ends_on", "validation-period-end");
    } else if campaign_days(starts_on, ends_on) > max_days {
        e.add("ends_on", "validation-campaign-too-long");
    }
    Some((starts_on, ends_on))
}

/// The key figures and their period (signed: a loss is negative).
fn figures(f: &CampaignForm, e: &mut FieldErrors) -> Financials {
    let figure = |key: &'static str, e: &mut FieldErrors| {
        let typed = field(f, key).trim();
        if typed.is_empty() {
            return None;
        }
        let parsed = parse_signed_lira(typed);
        if parsed.is_none() {
            e.add(key, "validation-number");
        }
        parsed
    };
    Financials {
        period: text(f, e, "financials_period", false, 20),
        revenue_kurus: figure("revenue", e),
        net_income_kurus: figure("net_income", e),
    }
}

/// Checks a draft for submission; `max_days` is the longest campaign allowed.
pub fn validate(f: &CampaignForm, max_days: i64) -> Result<Campaign, FieldErrors> {
    let mut e = FieldErrors::default();
    let description_tr = text(f, &mut e, "description_tr", true, 600);
    let description_en = text(f, &mut e, "description_en", true, 600);
    let sections = sections(f, &mut e);
    let (goal_kurus, terms) = offer(f, &mut e);
    let period = period(f, &mut e, max_days);
    let pitch_video = field(f, "pitch_video").trim().to_owned();
    if !pitch_video.is_empty() && !is_video_link(&pitch_video) {
        e.add("pitch_video", "validation-video-link");
    }
    let financials = figures(f, &mut e);
    match period {
        Some((starts_on, ends_on)) if e.is_empty() => Ok(Campaign {
            description_tr,
            description_en,
            sections,
            goal_kurus,
            starts_on,
            ends_on,
            terms,
            financials,
            pitch_video,
        }),
        _ => Err(e),
    }
}

/// The use-of-funds rows typed (a row with nothing in it is skipped).
fn fund_rows(f: &CampaignForm, e: &mut FieldErrors) -> Vec<FundUse> {
    const TR: [&str; FUND_ROWS] = [
        "fund_tr_0",
        "fund_tr_1",
        "fund_tr_2",
        "fund_tr_3",
        "fund_tr_4",
        "fund_tr_5",
    ];
    const AMOUNT: [&str; FUND_ROWS] = [
        "fund_amount_0",
        "fund_amount_1",
        "fund_amount_2",
        "fund_amount_3",
        "fund_amount_4",
        "fund_amount_5",
    ];
    let mut rows = Vec::new();
    for i in 0..FUND_ROWS {
        let tr = field(f, TR[i]).trim().to_owned();
        let en = field(f, &format!("fund_en_{i}")).trim().to_owned();
        let amount = field(f, AMOUNT[i]).trim();
        if tr.is_empty() && en.is_empty() && amount.is_empty() {
            continue;
        }
        if tr.is_empty() || en.is_empty() || tr.chars().count() > 120 || en.chars().count() > 120 {
            e.add(TR[i], "validation-campaign-fund-row");
        }
        match parse_lira(amount) {
            Some(m) if m.kurus() > 0 => rows.push(FundUse {
                tr,
                en,
                kurus: m.kurus(),
            }),
            _ => e.add(AMOUNT[i], "validation-number"),
        }
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::date;

    pub fn sample() -> Campaign {
        Campaign {
            description_tr: "Güneş enerjisi".into(),
            description_en: "Solar power".into(),
            sections: [(
                "executive-summary".to_owned(),
                ("**Özet**".to_owned(), "**Summary**".to_owned()),
            )]
            .into_iter()
            .collect(),
            goal_kurus: 500_000_000,
            starts_on: date!(2026 - 12 - 01),
            ends_on: date!(2027 - 01 - 29),
            terms: Terms {
                pre_money_valuation_kurus: 4_000_000_000,
                share_price_kurus: 10_000,
                shares_offered: 60_000,
                minimum_raise_kurus: 400_000_000,
                maximum_raise_kurus: 600_000_000,
                use_of_funds: vec![
                    FundUse {
                        tr: "Ar-Ge".into(),
                        en: "R&D".into(),
                        kurus: 300_000_000,
                    },
                    FundUse {
                        tr: "Pazarlama".into(),
                        en: "Marketing".into(),
                        kurus: 200_000_000,
                    },
                ],
            },
            financials: Financials {
                period: "2025".into(),
                revenue_kurus: Some(120_000_000),
                net_income_kurus: Some(-35_000_000),
            },
            pitch_video: "https://youtu.be/abc_DEF-123".into(),
        }
    }

    #[test]
    fn a_campaign_goes_through_its_form_and_back() {
        let c = sample();
        assert_eq!(c.days(), 60);
        assert_eq!(
            validate(&form_of(&c, crate::i18n::Locale::Tr), 60),
            Ok(c.clone())
        );
        // English grouping reads back the same.
        assert_eq!(
            validate(&form_of(&c, crate::i18n::Locale::En), 60),
            Ok(c.clone())
        );
        let json = serde_json::to_string(&c).unwrap();
        assert_eq!(serde_json::from_str::<Campaign>(&json).unwrap(), c);
    }

    #[test]
    fn each_rule_of_a_campaign_has_its_message() {
        let c = sample();
        let refused = |change: &dyn Fn(&mut CampaignForm), field: &str, id: &str| {
            let mut f = form_of(&c, crate::i18n::Locale::Tr);
            change(&mut f);
            let e = validate(&f, 60).unwrap_err();
            assert_eq!(e.get(field), Some(id), "{field}");
        };
        refused(
            &|f| {
                f.insert("ends_on".into(), "2027-01-30".into());
            },
            "ends_on",
            "validation-campaign-too-long",
        );
        refused(
            &|f| {
                f.insert("ends_on".into(), "2026-11-30".into());
            },
            "ends_on",
            "validation-period-end",
        );
        refused(
            &|f| {
                f.insert("goal".into(), "700.000".into());
            },
            "goal",
            "validation-campaign-goal-between",
        );
        refused(
            &|f| {
                f.insert("shares_offered".into(), "100".into());
            },
            "shares_offered",
            "validation-campaign-shares",
        );
        refused(
            &|f| {
                f.insert("fund_amount_1".into(), "1".into());
            },
            "fund_amount_0",
            "validation-campaign-funds-sum",
        );
        refused(
            &|f| {
                f.insert("fund_en_1".into(), "".into());
            },
            "fund_tr_1",
            "validation-campaign-fund-row",
        );
        refused(
            &|f| {
                f.insert("pitch_video".into(), "https://evil.example/v".into());
            },
            "pitch_video",
            "validation-video-link",
        );
        refused(
            &|f| {
                f.insert("description_en".into(), " ".into());
            },
            "description_en",
            "validation-required",
        );
        refused(
            &|f| {
                f.insert("net_income".into(), "abc".into());
            },
            "net_income",
            "validation-number",
        );
    }

    #[test]
    fn only_youtube_and_vimeo_links_play() {
        for ok in [
            "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
            "https://youtu.be/dQw4w9WgXcQ",
            "https://vimeo.com/76979871",
        ] {
            assert!(is_video_link(ok), "{ok}");
        }
        for bad in [
            "http://youtu.be/x",
            "https://vimeo.com/abc",
            "https://youtu.be/<script>",
            "https://www.youtube.com/watch?v=a&list=b",
            "javascript:alert(1)",
        ] {
            assert!(!is_video_link(bad), "{bad}");
        }
    }
}
