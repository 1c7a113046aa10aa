//! A startup's page (`/startups/{slug}`): its figures and offer, the analysis sections, the
//! founders, the fund team's updates, its history and the presentation.

use leptos::prelude::*;

use super::story::{founders, history, slides, updates};
use super::{
    StartupCard, closing_soon, days_left, favorite_toggle, media_url, progress, startup_logo,
};
use crate::domain::money::{MINIMUM_INVESTMENT, Money};
use crate::domain::startups::{FundingStatus, Offer, SECTIONS};
use crate::i18n::FluentArg;
use crate::markdown;
use crate::shell::{Page, PageContext};

/// The round's figures beyond the card's: what is committed but not yet received, the lead
/// fund's own commitment and what was raised outside the platform (labelled, never added to
/// the raised amount), and whether new requests join the waitlist.
#[derive(Clone, Debug, Default)]
pub struct RoundFigures {
    pub committed: Money,
    pub lead_commitment: Money,
    pub outside_raised: Money,
    /// Who raised it outside the platform and when, as staff wrote it.
    pub outside_note: String,
    pub waitlist: bool,
}

/// Everything a startup's page shows.
pub struct StartupDetail {
    pub card: StartupCard,
    /// The uploaded cover's stored name, if any.
    pub cover: Option<String>,
    pub round: RoundFigures,
    pub description: String,
    pub website: String,
    pub stage: String,
    pub team_size: i64,
    pub offer: Offer,
    /// `(section code, Markdown)` in the page's language.
    pub sections: Vec<(String, String)>,
    /// `(name, title, the photo's stored name)`.
    pub founders: Vec<(String, String, Option<String>)>,
    /// Positions of the presentation pages, shown as images.
    pub pages: Vec<i64>,
    /// `(date, programme, country)`.
    pub accelerators: Vec<(String, String, String)>,
    /// `(date, investors, amount in USD)`.
    pub prior_rounds: Vec<(String, String, i64)>,
    /// The fund team's updates, `(date, text in the page's language)`, newest first.
    pub updates: Vec<(String, String)>,
    /// The round's documents: `(id, kind code, upload date)`.
    pub documents: Vec<(i64, String, String)>,
    /// The offer as the committee approved it, when the campaign states one.
    pub terms: Option<crate::pages::campaign::TermsCard>,
    /// The yearly limit's figures, explained under the invest button.
    pub limits: crate::domain::limits::LimitRules,
}

/// What the viewer may do now: invest, pre-invest, or why neither.
fn offer_action(ctx: &PageContext, offer: Offer, slug: &str) -> AnyView {
    match offer {
        Offer::Invest => view! {
            <a class="button button--primary button--block" href=format!("/investmentFlow?startup={slug}")>{ctx.t("startup-invest")}</a>
        }
        .into_any(),
        Offer::PreInvest => view! {
            <a class="button button--primary button--block" href=format!("/investmentFlow?startup={slug}")>{ctx.t("startup-pre-invest")}</a>
        }
        .into_any(),
        Offer::VipOnly => view! { <p class="muted">{ctx.t("startup-vip-only")}</p> }.into_any(),
        Offer::Closed => view! { <p class="muted">{ctx.t("startup-closed")}</p> }.into_any(),
    }
}

/// The facts beside the round: stage, team, what is committed, the lead fund's and outside
/// money, and the website (its host shown, never broken mid-word).
fn key_facts(ctx: &PageContext, d: &StartupDetail) -> impl IntoView + use<> {
    let r = &d.round;
    let lead = (r.lead_commitment.kurus() > 0).then(|| {
        view! { <div><dt>{ctx.t("startup-lead-commitment")}</dt><dd>{r.lead_commitment.format(ctx.locale)}</dd></div> }
    });
    let outside = (r.outside_raised.kurus() > 0).then(|| {
        let note = (!r.outside_note.is_empty()).then(|| format!(" ({})", r.outside_note));
        view! { <div><dt>{ctx.t("startup-outside-raised")}</dt><dd>{r.outside_raised.format(ctx.locale)}{note}</dd></div> }
    });
    let website = (!d.website.is_empty()).then(|| {
        let host = d.website.trim_start_matches("https://").trim_start_matches("http://").trim_end_matches('/').to_owned();
        view! { <div><dt>{ctx.t("startup-website")}</dt><dd class="key-facts__url"><a href=d.website.clone() rel="noopener noreferrer">{host}</a></dd></div> }
    });
    view! {
        <section class="key-facts" aria-labelledby="key-facts-title">
            <h2 class="visually-hidden" id="key-facts-title">{ctx.t("startup-key-facts")}</h2>
            <dl>
                <div><dt>{ctx.t("startup-stage")}</dt><dd>{ctx.t(&format!("stage-{}", d.stage))}</dd></div>
                <div><dt>{ctx.t("startup-team-size")}</dt><dd>{d.team_size}</dd></div>
                <div><dt>{ctx.t("startup-committed")}</dt><dd>{r.committed.format(ctx.locale)}</dd></div>
                {lead}
                {outside}
                {website}
            </dl>
        </section>
    }
}

/// The page's header: logo, name, description, and the sector, fund and city.
fn header(ctx: &PageContext, d: &StartupDetail) -> impl IntoView + use<> {
    let c = &d.card;
    // The cover is above the fold: loaded at once, the width the layout gives it.
    let cover = d.cover.as_ref().map(|cover| {
        view! {
            <img
                class="startup__cover"
                src=media_url(cover, 640)
                srcset=format!("{} 640w, {} 1280w", media_url(cover, 640), media_url(cover, 1280))
                sizes="(min-width: 1024px) 46rem, 100vw"
                width="1280"
                height="720"
                alt=""
            />
        }
    });
    view! {
        <header class="startup__header">
            <p class="startup__back"><a href="/startups">{ctx.t("startups-back")}</a></p>
            {cover}
            <div class="startup__id">
                {startup_logo(c, "lg")}
                <div>
                    <h1>{c.name.clone()}</h1>
                    <p class="lead">{d.description.clone()}</p>
                </div>
            </div>
            <ul class="chips">
                <li><span class="visually-hidden">{ctx.t("filter-sector")} ": "</span>{ctx.t(&format!("interest-{}", c.sector))}</li>
                <li><span class="visually-hidden">{ctx.t("filter-fund")} ": "</span>{c.fund.clone()}</li>
                <li><span class="visually-hidden">{ctx.t("filter-city")} ": "</span>{c.city.clone()}</li>
            </ul>
        </header>
    }
}

/// The invest card (sticky beside the page on a desktop, under the header on a phone): the
/// round's status, raised against the goal, investors, time left, the minimum and the offer.
fn invest_card(ctx: &PageContext, d: &StartupDetail) -> impl IntoView + use<> {
    let c = &d.card;
    let favorite = c
        .favorite
        .map(|f| favorite_toggle(ctx, &c.slug, f, &format!("/startups/{}", c.slug)));
    let waitlist = (d.round.waitlist && matches!(d.offer, Offer::Invest | Offer::PreInvest)).then(
        || view! { <p class="flash flash--info" role="status">{ctx.t("startup-waitlist")}</p> },
    );
    let of_goal_id = if c.status == FundingStatus::Failed {
        "startup-failed-of-goal"
    } else {
        "startup-raised-of-goal"
    };
    let of_goal = ctx.locale.t_args(
        of_goal_id,
        &[("goal", FluentArg::Str(c.goal.format(ctx.locale)))],
    );
    view! {
        <aside class="invest-card" aria-labelledby="invest-card-title">
            <h2 class="visually-hidden" id="invest-card-title">{ctx.t("startup-round-title")}</h2>
            <p class="invest-card__status">
                <span class=format!("badge badge--{}", c.status.code())>{ctx.t(&format!("status-{}", c.status.code()))}</span>
                {closing_soon(ctx, c)}
            </p>
            <p class="invest-card__raised">
                <span class="invest-card__amount">{c.raised.format(ctx.locale)}</span>
                <span class="muted">{of_goal}</span>
            </p>
            {progress(ctx, c)}
            <dl class="invest-card__figures">
                <div><dt>{ctx.t("startup-completion")}</dt><dd>{ctx.locale.t_args("percent", &[("pct", FluentArg::Num(c.completion_pct))])}</dd></div>
                <div><dt>{ctx.t("startup-investors")}</dt><dd>{c.investors}</dd></div>
                <div><dt>{ctx.t("startup-minimum")}</dt><dd>{MINIMUM_INVESTMENT.format(ctx.locale)}</dd></div>
            </dl>
            <p class="startup-card__days">{days_left(ctx, c)}</p>
            {waitlist}
            <div class="invest-card__actions">{offer_action(ctx, d.offer, &c.slug)} {favorite}</div>
            {(c.status == FundingStatus::BeingFunded).then(|| crate::pages::limits::limit_note(ctx, &d.limits))}
        </aside>
    }
}

/// Whether an analysis section has something to show.
fn filled(body: &str) -> bool {
    !body.trim().is_empty()
}

/// Links to every section the page shows, in its order; they wrap, so none is cut off.
fn section_tabs(ctx: &PageContext, d: &StartupDetail) -> impl IntoView + use<> {
    let analysis = SECTIONS
        .iter()
        .copied()
        .filter(|s| d.sections.iter().any(|(k, b)| k == s && filled(b)))
        .map(|s| (s.to_owned(), ctx.t(&format!("section-{s}"))));
    let others = [
        ("founders", "startup-founders", !d.founders.is_empty()),
        ("updates", "startup-updates", !d.updates.is_empty()),
        (
            "documents",
            "round-documents-title",
            !d.documents.is_empty(),
        ),
        ("questions", "questions-link-title", true),
        (
            "history",
            "startup-history",
            !d.accelerators.is_empty() || !d.prior_rounds.is_empty(),
        ),
        ("presentation", "startup-presentation", !d.pages.is_empty()),
    ]
    .into_iter()
    .filter(|(_, _, shown)| *shown)
    .map(|(id, label, _)| (id.to_owned(), ctx.t(label)));
    let tabs = analysis
        .chain(others)
        .map(|(id, label)| view! { <li><a href=format!("#{id}")>{label}</a></li> })
        .collect_view();
    // A disclosure on phones (the list would fill the screen); open on wider screens.
    view! {
        <details class="section-tabs">
            <summary class="filters-panel__summary">{ctx.t("sections-label")}</summary>
            <nav aria-label=ctx.t("sections-label")><ul>{tabs}</ul></nav>
        </details>
    }
}

/// Each analysis section with something in it, its Markdown rendered.
fn analysis_sections(ctx: &PageContext, sections: &[(String, String)]) -> impl IntoView + use<> {
    sections
        .iter()
        .filter(|(_, body)| filled(body))
        .map(|(key, body)| {
            let html = markdown::render(body);
            view! {
                <section class="analysis" id=key.clone() aria-labelledby=format!("{key}-title")>
                    <h2 id=format!("{key}-title")>{ctx.t(&format!("section-{key}"))}</h2>
                    <div class="prose" inner_html=html></div>
                </section>
            }
        })
        .collect_view()
}

/// The round's documents, if staff attached any.
fn round_documents(ctx: &PageContext, d: &StartupDetail) -> Option<impl IntoView + use<>> {
    (!d.documents.is_empty()).then(|| round_document_list(ctx, d))
}

fn round_document_list(ctx: &PageContext, d: &StartupDetail) -> impl IntoView + use<> {
    let items = d
        .documents
        .iter()
        .map(|(id, kind, at)| {
            let href = format!("/startups/{}/documents/{id}", d.card.slug);
            view! { <li><a href=href>{ctx.t(&format!("documents-kind-{kind}"))}</a> " · " {at.clone()}</li> }
        })
        .collect_view();
    view! {
        <section class="analysis" id="documents" aria-labelledby="round-documents-title">
            <h2 id="round-documents-title">{ctx.t("round-documents-title")}</h2>
            <ul>{items}</ul>
        </section>
    }
}

fn questions(ctx: &PageContext, slug: &str) -> impl IntoView + use<> {
    view! {
        <section class="analysis" id="questions" aria-labelledby="questions-title">
            <h2 id="questions-title">{ctx.t("questions-link-title")}</h2>
            <p>{ctx.t("questions-link-text")}</p>
            <p><a class="button button--ghost" href=format!("/startups/{slug}/questions")>{ctx.t("questions-link")}</a></p>
        </section>
    }
}

pub fn startup_page(ctx: &PageContext, d: StartupDetail) -> Page {
    let body = view! {
        <article class="startup">
            {header(ctx, &d)}
            {invest_card(ctx, &d)}
            {d.terms.as_ref().map(|t| crate::pages::campaign::terms_card(ctx, t))}
            <div class="startup__body">
                {key_facts(ctx, &d)}
                {section_tabs(ctx, &d)}
                {analysis_sections(ctx, &d.sections)}
                {founders(ctx, &d.founders)}
                {updates(ctx, &d.updates)}
                {round_documents(ctx, &d)}
                {questions(ctx, &d.card.slug)}
                {history(ctx, &d)}
                {slides(ctx, &d)}
            </div>
        </article>
    }
    .into_any();
    // No `noindex`: the page is for members only, so a crawler never reaches it (a visitor is
    // sent to sign in); it needs no robots rule of its own.
    Page::new(d.card.name.clone(), d.description.clone(), body)
}
