//! Demo campaigns: every demo round runs as a real one does, through the same code. Its issuer
//! is checked, its campaign submitted, the demo investment committee (three staff members who
//! cannot sign in) approves it, and the approval publishes it, generates its information form
//! and files the minutes (`campaigns::decide`). Its requests are then sent under that form.

use std::collections::BTreeMap;

use ortak_app::domain::campaign::{Campaign, Financials, FundUse, Terms};
use ortak_app::domain::issuer::Issuer;
use sqlx::SqliteConnection;
use time::{Date, OffsetDateTime};

use crate::campaigns::{Platform, decide, queries};

/// The demo committee: `(e-mail, first name, last name)`.
const COMMITTEE: [(&str, &str, &str); 3] = [
    ("komite1@demo.ortak.local", "Aylin", "Demirtaş"),
    ("komite2@demo.ortak.local", "Kemal", "Uysal"),
    ("komite3@demo.ortak.local", "Nesrin", "Özkan"),
];

/// Inserts the demo committee's members (staff without a password: they cannot sign in).
pub async fn insert_committee(
    conn: &mut SqliteConnection,
    now: OffsetDateTime,
) -> anyhow::Result<()> {
    for (email, first, last) in COMMITTEE {
        super::queries::insert_committee_member(conn, email, first, last, now).await?;
    }
    Ok(())
}

/// What a demo campaign is made from.
pub struct DemoCampaign<'a> {
    pub index: usize,
    pub description: (&'a str, &'a str),
    pub sections: Vec<(&'static str, String, String)>,
    pub goal_lira: i64,
    pub period: (Date, Date),
}

/// The demo startup's campaign: its story, and an offer that fits its goal (20% either way, a
/// 100 TL share, the money split between development, growth and working capital).
pub fn campaign(d: &DemoCampaign) -> Campaign {
    let goal = d.goal_lira * 100;
    let (development, growth) = (goal / 2, goal * 3 / 10);
    let use_of_funds = vec![
        FundUse {
            tr: "Ürün geliştirme".into(),
            en: "Product development".into(),
            kurus: development,
        },
        FundUse {
            tr: "Satış ve pazarlama".into(),
            en: "Sales and marketing".into(),
            kurus: growth,
        },
        FundUse {
            tr: "İşletme sermayesi".into(),
            en: "Working capital".into(),
            kurus: goal - development - growth,
        },
    ];
    let maximum = goal / 5 * 6;
    let share_price = 10_000;
    let sections: BTreeMap<String, (String, String)> = d
        .sections
        .iter()
        .map(|(s, tr, en)| ((*s).to_owned(), (tr.clone(), en.clone())))
        .collect();
    Campaign {
        description_tr: d.description.0.to_owned(),
        description_en: d.description.1.to_owned(),
        sections,
        goal_kurus: goal,
        starts_on: d.period.0,
        ends_on: d.period.1,
        terms: Terms {
            pre_money_valuation_kurus: goal * 8,
            share_price_kurus: share_price,
            shares_offered: maximum / share_price,
            minimum_raise_kurus: goal / 5 * 4,
            maximum_raise_kurus: maximum,
            use_of_funds,
        },
        financials: Financials {
            period: "2025".into(),
            revenue_kurus: Some(goal * (3 + (d.index % 4) as i64) / 10),
            net_income_kurus: Some(-(goal / 10)),
        },
        pitch_video: if d.index == 0 {
            "https://vimeo.com/76979871".into()
        } else {
            String::new()
        },
    }
}

/// Checks the issuer, submits `campaign` and has the committee approve it: the startup is
/// published with its information form.
pub async fn approve(
    conn: &mut SqliteConnection,
    platform: &Platform<'_>,
    (startup, index): (i64, usize),
    campaign: &Campaign,
    now: OffsetDateTime,
) -> anyhow::Result<()> {
    let members = queries::members(conn).await?;
    let checker = members.first().map(|m| m.id).unwrap_or_default();
    let issuer = Issuer {
        legal_form: Some("anonim".into()),
        registry_number: format!("İstanbul Ticaret Sicili {}", 410_000 + index * 37),
        assets_kurus: Some(campaign.goal_kurus * 3),
        revenue_kurus: campaign.financials.revenue_kurus,
        raised_last_12m_kurus: Some(0),
    };
    queries::save_issuer(conn, startup, &issuer, checker, now).await?;
    let content = serde_json::to_string(campaign)?;
    let version = queries::submit(conn, startup, &content, checker, now).await?;
    queries::move_version(
        conn,
        version,
        ("submitted", "committee"),
        Some(checker),
        now,
    )
    .await?;
    for m in &members {
        queries::vote(conn, version, m.id, ("approve", "Koşullar uygun."), now).await?;
    }
    let votes = queries::votes(conn, version).await?;
    let v = queries::version(conn, version)
        .await?
        .ok_or_else(|| anyhow::anyhow!("demo version {version}"))?;
    decide(
        conn,
        platform,
        &v,
        "approved",
        (&members, &votes),
        None,
        now,
    )
    .await
    .map_err(|e| anyhow::anyhow!("demo campaign {startup}: {e:?}"))?;
    Ok(())
}
