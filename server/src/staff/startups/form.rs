//! What the startup editor posts: every field as typed text (a refused form shows it again),
//! the two switches, the button pressed (`intent`), and the twelve analysis sections in both
//! languages.

use ortak_app::domain::startup_form::StartupForm;
use serde::Deserialize;

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct EditorFields {
    name: String,
    slug: String,
    sector: String,
    subcategory: String,
    fund: String,
    country: String,
    city: String,
    description_tr: String,
    description_en: String,
    website: String,
    instagram: String,
    twitter: String,
    youtube: String,
    team_size: String,
    established_on: String,
    stage: String,
    monthly_income: String,
    monthly_expense: String,
    valuation_usd: String,
    amount_sought_usd: String,
    goal: String,
    period_kind: String,
    starts_on: String,
    ends_on: String,
    vip_until: String,
    published: Option<String>,
    /// One founder a line.
    founders: String,
    /// `preview` shows the Markdown without saving.
    pub intent: String,
    #[serde(flatten)]
    sections: SectionFields,
}

/// The analysis sections, `s_{section}_{tr|en}` (see `domain::startups::SECTIONS`).
#[derive(Deserialize, Default)]
#[serde(default)]
struct SectionFields {
    #[serde(rename = "s_executive-summary_tr")]
    executive_summary_tr: String,
    #[serde(rename = "s_executive-summary_en")]
    executive_summary_en: String,
    #[serde(rename = "s_quick-view_tr")]
    quick_view_tr: String,
    #[serde(rename = "s_quick-view_en")]
    quick_view_en: String,
    #[serde(rename = "s_investment-summary_tr")]
    investment_summary_tr: String,
    #[serde(rename = "s_investment-summary_en")]
    investment_summary_en: String,
    #[serde(rename = "s_pain-point_tr")]
    pain_point_tr: String,
    #[serde(rename = "s_pain-point_en")]
    pain_point_en: String,
    #[serde(rename = "s_solution_tr")]
    solution_tr: String,
    #[serde(rename = "s_solution_en")]
    solution_en: String,
    #[serde(rename = "s_market-analysis_tr")]
    market_analysis_tr: String,
    #[serde(rename = "s_market-analysis_en")]
    market_analysis_en: String,
    #[serde(rename = "s_competitive-analysis_tr")]
    competitive_analysis_tr: String,
    #[serde(rename = "s_competitive-analysis_en")]
    competitive_analysis_en: String,
    #[serde(rename = "s_investment-conditions_tr")]
    investment_conditions_tr: String,
    #[serde(rename = "s_investment-conditions_en")]
    investment_conditions_en: String,
    #[serde(rename = "s_team_tr")]
    team_tr: String,
    #[serde(rename = "s_team_en")]
    team_en: String,
    #[serde(rename = "s_traction_tr")]
    traction_tr: String,
    #[serde(rename = "s_traction_en")]
    traction_en: String,
    #[serde(rename = "s_risks_tr")]
    risks_tr: String,
    #[serde(rename = "s_risks_en")]
    risks_en: String,
    #[serde(rename = "s_disclaimer_tr")]
    disclaimer_tr: String,
    #[serde(rename = "s_disclaimer_en")]
    disclaimer_en: String,
}

impl SectionFields {
    /// `(section, Turkish, English)`, in the order of `SECTIONS`.
    fn into_sections(self) -> [(&'static str, String, String); 12] {
        [
            (
                "executive-summary",
                self.executive_summary_tr,
                self.executive_summary_en,
            ),
            ("quick-view", self.quick_view_tr, self.quick_view_en),
            (
                "investment-summary",
                self.investment_summary_tr,
                self.investment_summary_en,
            ),
            ("pain-point", self.pain_point_tr, self.pain_point_en),
            ("solution", self.solution_tr, self.solution_en),
            (
                "market-analysis",
                self.market_analysis_tr,
                self.market_analysis_en,
            ),
            (
                "competitive-analysis",
                self.competitive_analysis_tr,
                self.competitive_analysis_en,
            ),
            (
                "investment-conditions",
                self.investment_conditions_tr,
                self.investment_conditions_en,
            ),
            ("team", self.team_tr, self.team_en),
            ("traction", self.traction_tr, self.traction_en),
            ("risks", self.risks_tr, self.risks_en),
            ("disclaimer", self.disclaimer_tr, self.disclaimer_en),
        ]
    }
}

/// Browsers send line breaks as CRLF; the stored Markdown has LF.
fn text(value: String) -> String {
    value.replace("\r\n", "\n")
}

impl EditorFields {
    /// The form as the domain checks it.
    pub fn into_form(self) -> StartupForm {
        StartupForm {
            name: text(self.name),
            slug: text(self.slug),
            sector: text(self.sector),
            subcategory: text(self.subcategory),
            fund: text(self.fund),
            country: text(self.country),
            city: text(self.city),
            description_tr: text(self.description_tr),
            description_en: text(self.description_en),
            website: text(self.website),
            instagram: text(self.instagram),
            twitter: text(self.twitter),
            youtube: text(self.youtube),
            team_size: text(self.team_size),
            established_on: text(self.established_on),
            stage: text(self.stage),
            monthly_income: text(self.monthly_income),
            monthly_expense: text(self.monthly_expense),
            valuation_usd: text(self.valuation_usd),
            amount_sought_usd: text(self.amount_sought_usd),
            goal: text(self.goal),
            period_kind: text(self.period_kind),
            starts_on: text(self.starts_on),
            ends_on: text(self.ends_on),
            vip_until: text(self.vip_until),
            published: self.published.as_deref() == Some("on"),
            founders: text(self.founders),
            sections: self
                .sections
                .into_sections()
                .into_iter()
                .map(|(s, tr, en)| (s.to_owned(), (text(tr), text(en))))
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ortak_app::domain::startups::SECTIONS;

    #[test]
    fn the_form_has_every_section_in_both_languages() {
        let ids: Vec<&str> = SectionFields::default()
            .into_sections()
            .iter()
            .map(|(s, ..)| *s)
            .collect();
        assert_eq!(ids, SECTIONS);
    }

    #[test]
    fn posted_sections_switches_and_line_breaks_arrive() {
        let body = "csrf=t&name=Ada&published=on&intent=preview\
                    &s_executive-summary_tr=a%0D%0Ab&s_disclaimer_en=z";
        let fields: EditorFields = serde_html_form::from_str(body).unwrap();
        assert_eq!(fields.intent, "preview");
        let form = fields.into_form();
        assert!(form.published);
        assert_eq!(form.name, "Ada");
        assert_eq!(form.sections["executive-summary"].0, "a\nb");
        assert_eq!(form.sections["disclaimer"], (String::new(), "z".to_owned()));
        assert_eq!(form.sections.len(), 12);
    }
}
