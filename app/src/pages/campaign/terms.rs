//! The terms card on a startup's page, beside the invest card: the offer as the committee
//! approved it (valuation, price per share, shares offered, the minimum and the target, the
//! fund's commitment on the same terms), the use of funds, the key figures with their period,
//! the information form, and the pitch video as a poster: nothing from YouTube or Vimeo loads
//! until the member opens it.

use leptos::prelude::*;

use crate::domain::campaign::FundUse;
use crate::domain::money::Money;
use crate::domain::rounds::format_share;
use crate::shell::PageContext;

/// What the card shows, in the page's language.
#[derive(Clone, Debug)]
pub struct TermsCard {
    pub slug: String,
    pub pre_money_valuation: Money,
    pub share_price: Money,
    pub shares_offered: i64,
    pub minimum: Money,
    pub target: Money,
    pub fund: String,
    pub fund_commitment: Money,
    pub use_of_funds: Vec<FundUse>,
    /// `(period, revenue, net income)`, when the founders gave figures.
    pub figures: Option<(String, Option<Money>, Option<Money>)>,
    /// The current information form's document id.
    pub information_form: Option<i64>,
    pub pitch_video: String,
}

fn money(ctx: &PageContext, m: Money) -> String {
    m.format(ctx.locale)
}

pub fn terms_card(ctx: &PageContext, t: &TermsCard) -> impl IntoView + use<> {
    let funds = t
        .use_of_funds
        .iter()
        .map(|r| {
            let label = match ctx.locale {
                crate::i18n::Locale::Tr => r.tr.clone(),
                crate::i18n::Locale::En => r.en.clone(),
            };
            let share = if t.target.kurus() > 0 {
                format_share(r.kurus.saturating_mul(1_000_000) / t.target.kurus(), ctx.locale)
            } else {
                String::new()
            };
            view! { <tr><td>{label}</td><td class="num">{money(ctx, Money::from_kurus(r.kurus))}</td><td class="num">{share}</td></tr> }
        })
        .collect_view();
    let figures = t.figures.as_ref().map(|(period, revenue, net)| {
        let shown = |m: &Option<Money>| m.map_or_else(|| "—".to_owned(), |m| money(ctx, m));
        let args = [("period", period.clone().into())];
        view! {
            <h3>{ctx.locale.t_args("terms-figures", &args)}</h3>
            <dl class="terms__figures">
                <div><dt>{super::shown_label(ctx, "campaign-revenue")}</dt><dd>{shown(revenue)}</dd></div>
                <div><dt>{super::shown_label(ctx, "campaign-net-income")}</dt><dd>{shown(net)}</dd></div>
            </dl>
        }
    });
    let form = t.information_form.map(|id| {
        view! { <p><a class="button button--ghost button--block" href=format!("/startups/{}/documents/{id}", t.slug)>{ctx.t("terms-information-form")}</a></p> }
    });
    let video = (!t.pitch_video.is_empty()).then(|| {
        view! {
            <a class="terms__video" href=t.pitch_video.clone() rel="noopener noreferrer" target="_blank">
                <span class="terms__play" aria-hidden="true">"▶"</span>
                <span>{ctx.t("terms-watch")}</span>
                <small>{ctx.t("terms-watch-note")}</small>
            </a>
        }
    });
    let commitment = (t.fund_commitment.kurus() > 0).then(|| {
        let args = [("fund", t.fund.clone().into())];
        view! { <div><dt>{ctx.locale.t_args("terms-fund-commitment", &args)}</dt><dd>{money(ctx, t.fund_commitment)}</dd></div> }
    });
    view! {
        <section class="terms card" aria-labelledby="terms-title">
            <h2 id="terms-title">{ctx.t("terms-title")}</h2>
            {video}
            <dl class="terms__offer">
                <div><dt>{super::shown_label(ctx, "campaign-pre-money")}</dt><dd>{money(ctx, t.pre_money_valuation)}</dd></div>
                <div><dt>{super::shown_label(ctx, "campaign-share-price")}</dt><dd>{money(ctx, t.share_price)}</dd></div>
                <div><dt>{super::shown_label(ctx, "campaign-shares-offered")}</dt><dd>{crate::domain::campaign::group(t.shares_offered, ctx.locale)}</dd></div>
                <div><dt>{super::shown_label(ctx, "campaign-minimum-raise")}</dt><dd>{money(ctx, t.minimum)}</dd></div>
                <div><dt>{ctx.t("terms-target")}</dt><dd>{money(ctx, t.target)}</dd></div>
                {commitment}
            </dl>
            <h3>{ctx.t("campaign-use-of-funds")}</h3>
            <table class="table terms__funds">
                <thead><tr>
                    <th scope="col">{ctx.t("terms-fund-item")}</th>
                    <th scope="col" class="num">{ctx.t("dashboard-col-amount")}</th>
                    <th scope="col" class="num">{ctx.t("terms-fund-share")}</th>
                </tr></thead>
                <tbody>{funds}</tbody>
            </table>
            {figures}
            {form}
        </section>
    }
}
