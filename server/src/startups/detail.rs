//! A startup's page (`/startups/{slug}`) and its presentation pages, for signed-in members
//! (visitors are sent to join or sign in by the route table). Staff also see drafts.

use axum::extract::Path;
use axum::response::Response;
use ortak_app::domain::money::Money;
use ortak_app::domain::startups::SECTIONS;
use ortak_app::domain::time_fmt::{format_date_long, format_day};
use ortak_app::i18n::Locale;
use ortak_app::pages::campaign::TermsCard;
use ortak_app::pages::startups::{RoundFigures, StartupDetail, startup_page};
use ortak_app::shell::PageContext;
use sqlx::{SqliteConnection, SqlitePool};
use std::sync::{Arc, LazyLock};

use super::kept;
use super::queries::{self, CardRow};
use crate::db::snapshot::{RECORD_BYTES, Reads, Snapshot};
use crate::error::AppError;
use crate::web::session::CurrentUser;
use crate::web::{Ctx, Member, Staff};

/// The text in the page's language, or the other one when it is empty.
fn pick(locale: Locale, tr: String, en: String) -> String {
    match locale {
        Locale::En if !en.trim().is_empty() => en,
        Locale::Tr if tr.trim().is_empty() => en,
        _ => tr,
    }
}

/// The analysis sections in the page's language, in their fixed order.
async fn sections(
    db: &mut SqliteConnection,
    startup: i64,
    locale: Locale,
) -> Result<Vec<(String, String)>, AppError> {
    let mut sections: Vec<(String, String)> = queries::sections(db, startup)
        .await?
        .into_iter()
        .map(|s| (s.section, pick(locale, s.body_tr, s.body_en)))
        .collect();
    let order = |k: &str| SECTIONS.iter().position(|s| *s == k).unwrap_or(usize::MAX);
    sections.sort_by_key(|(k, _)| order(k));
    Ok(sections)
}

/// The fund team's latest updates, dated as the Turkish calendar shows them.
async fn updates(
    db: &mut SqliteConnection,
    startup: i64,
    locale: Locale,
) -> Result<Vec<(String, String)>, AppError> {
    Ok(queries::latest_updates(db, startup)
        .await?
        .into_iter()
        .map(|u| {
            let day = format_day(u.created_at, locale);
            (day, pick(locale, u.body_tr, u.body_en))
        })
        .collect())
}

/// The offer as the approved version set it; `None` for a campaign that states none (one
/// approved before campaigns had terms).
async fn terms(db: &mut SqliteConnection, id: i64) -> Result<Option<TermsCard>, AppError> {
    let t = super::queries::terms::terms(db, id).await?;
    let (Some(pre_money), Some(price), Some(shares), Some(minimum)) = (
        t.pre_money_valuation_kurus,
        t.share_price_kurus,
        t.shares_offered,
        t.minimum_raise_kurus,
    ) else {
        return Ok(None);
    };
    let figures = (!t.financials_period.is_empty()).then(|| {
        (
            t.financials_period.clone(),
            t.revenue_kurus.map(Money::from_kurus),
            t.net_income_kurus.map(Money::from_kurus),
        )
    });
    Ok(Some(TermsCard {
        slug: String::new(),
        pre_money_valuation: Money::from_kurus(pre_money),
        share_price: Money::from_kurus(price),
        shares_offered: shares,
        minimum: Money::from_kurus(minimum),
        target: Money::from_kurus(t.funding_goal_kurus),
        fund: t.fund,
        fund_commitment: Money::from_kurus(t.lead_commitment_kurus),
        use_of_funds: serde_json::from_str(&t.use_of_funds).unwrap_or_default(),
        figures,
        information_form: t.information_form,
        pitch_video: t.pitch_video,
    }))
}

/// What every member sees the same way on a startup's page, in one language: kept in memory
/// between writes (`db::snapshot`), so a page view reads only the member's own parts and the
/// round's figures, which follow the money on every request.
#[derive(Clone)]
struct Profile {
    description: String,
    website: String,
    stage: String,
    team_size: i64,
    sections: Vec<(String, String)>,
    founders: Vec<(String, String, Option<String>)>,
    pages: Vec<i64>,
    accelerators: Vec<(String, String, String)>,
    prior_rounds: Vec<(String, String, i64)>,
    updates: Vec<(String, String)>,
    documents: Vec<(i64, String, String)>,
    terms: Option<TermsCard>,
}

static PROFILES: LazyLock<Snapshot<(i64, Locale), Arc<Profile>>> =
    LazyLock::new(|| Snapshot::new(Reads::SharedTables, 8 << 20, |_, p| p.weight()));

impl Profile {
    /// What it takes in memory: its texts, and a record's worth per listed item.
    fn weight(&self) -> usize {
        let texts = self.description.len()
            + self
                .sections
                .iter()
                .map(|(a, b)| a.len() + b.len())
                .sum::<usize>()
            + self
                .updates
                .iter()
                .map(|(a, b)| a.len() + b.len())
                .sum::<usize>();
        let items = self.founders.len()
            + self.pages.len()
            + self.accelerators.len()
            + self.prior_rounds.len()
            + self.documents.len()
            + 2;
        texts + RECORD_BYTES * items
    }
}

async fn profile(ctx: &Ctx, id: i64) -> Result<Arc<Profile>, AppError> {
    let (db, locale) = (ctx.state().db(), ctx.locale);
    PROFILES
        .get_or_make((id, locale), ctx.state().writes(), || {
            make_profile(db, id, locale)
        })
        .await
}

/// Made on one connection: its ten reads are one page's, and a connection taken and given back
/// per read costs more than the reads (issue 29).
async fn make_profile(db: &SqlitePool, id: i64, locale: Locale) -> Result<Arc<Profile>, AppError> {
    let db = &mut *db.acquire().await?;
    let profile = queries::profile(&mut *db, id).await?;
    let made = Arc::new(Profile {
        description: pick(locale, profile.description_tr, profile.description_en),
        website: profile.website,
        stage: profile.stage,
        team_size: profile.team_size,
        sections: sections(db, id, locale).await?,
        founders: queries::founders(&mut *db, id)
            .await?
            .into_iter()
            .map(|f| (f.name, f.title, f.photo))
            .collect(),
        pages: queries::page_positions(&mut *db, id).await?,
        accelerators: queries::accelerators(&mut *db, id)
            .await?
            .into_iter()
            .map(|a| {
                (
                    format_date_long(a.attended_on, locale),
                    a.program,
                    a.country,
                )
            })
            .collect(),
        prior_rounds: queries::prior_rounds(&mut *db, id)
            .await?
            .into_iter()
            .map(|r| {
                (
                    format_date_long(r.raised_on, locale),
                    r.investors,
                    r.amount_usd,
                )
            })
            .collect(),
        updates: updates(db, id, locale).await?,
        terms: terms(db, id).await?,
        documents: super::queries::documents::current(&mut *db, id)
            .await?
            .into_iter()
            .map(|d| {
                let at = format_day(d.uploaded_at, locale);
                (d.id, d.kind, at)
            })
            .collect(),
    });
    Ok(made)
}

/// Everything the page shows of `row`, for `user`.
async fn load(ctx: &Ctx, user: &CurrentUser, row: &CardRow) -> Result<StartupDetail, AppError> {
    let id = row.id;
    let profile = profile(ctx, id).await?;
    let today = ctx.state().today();
    let vip = user.vip(id);
    let figures = kept::round_figures(ctx, id).await?;
    let rules = ctx.state().shared().rounds.rules();
    let goal = Money::from_kurus(row.funding_goal_kurus);
    // Full: the next minimum investment no longer fits, or others are already in line.
    let full = figures.waitlist
        || !rules.fits(
            goal,
            Money::from_kurus(figures.held_kurus),
            ortak_app::domain::money::MINIMUM_INVESTMENT,
        );
    let Profile {
        description,
        website,
        stage,
        team_size,
        sections,
        founders,
        pages,
        accelerators,
        prior_rounds,
        updates,
        documents,
        terms,
    } = Profile::clone(&profile);
    Ok(StartupDetail {
        round: RoundFigures {
            committed: Money::from_kurus(figures.committed_kurus),
            lead_commitment: Money::from_kurus(figures.lead_commitment_kurus),
            outside_raised: Money::from_kurus(figures.outside_raised_kurus),
            outside_note: figures.outside_raised_note.clone(),
            waitlist: full,
        },
        updates,
        documents,
        pages,
        accelerators,
        prior_rounds,
        offer: row.funding().offer_for(today, vip),
        card: row.card(Some(user.saved(id)), today),
        cover: row.cover.clone(),
        description,
        website,
        stage,
        team_size,
        sections,
        founders,
        terms: terms.map(|t| TermsCard {
            slug: row.slug.clone(),
            ..t
        }),
        limits: ctx.state().shared().rounds.limits(),
    })
}

/// `GET /startups/{slug}`.
pub async fn detail(
    ctx: Ctx,
    Member(user): Member,
    staff: Option<Staff>,
    Path(slug): Path<String>,
) -> Result<Response, AppError> {
    let versions = ctx.state().writes();
    let row = kept::card(&ctx, staff.is_some(), &slug).await?;
    // All the page shows of the member: whether they saved it, whether its VIP round is theirs
    // (and, for staff, drafts too).
    let marks = [user.saved(row.id), user.vip(row.id), staff.is_some()]
        .map(|mark| if mark { '1' } else { '0' })
        .iter()
        .collect();
    ctx.render_shared(versions, marks, || async {
        let detail = load(&ctx, &user, &row).await?;
        Ok(move |pc: &PageContext| startup_page(pc, detail))
    })
    .await
}

/// `GET /startups/{slug}/pages/{n}`: a presentation page, for members only.
pub async fn presentation_page(
    ctx: Ctx,
    _: Member,
    staff: Option<Staff>,
    Path((slug, n)): Path<(String, i64)>,
) -> Result<Response, AppError> {
    let row = kept::card(&ctx, staff.is_some(), &slug).await?;
    let page = queries::presentation_page(ctx.state().db(), row.id, n)
        .await?
        .ok_or(AppError::NotFound)?;
    let file = ctx
        .state()
        .shared()
        .data_dir
        .join("presentations")
        .join(page.file_name);
    crate::web::files::serve(&file, &page.content_type).await
}
