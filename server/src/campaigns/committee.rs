//! The investment committee (`/dashboard/committee`, its members only): the versions staff
//! passed to it, one version with the issuer's checks and the votes cast, and each member's one
//! vote, with a note. Once the approvals reach the majority the settings say, the version is
//! approved and applied (`approval::decide`: published, its information form generated, the
//! minutes filed); once the rejections make that impossible, it is rejected. A live round whose
//! terms changed asks its investors to reconfirm. Superadmins say who sits on the committee.

use axum::extract::Path;
use axum::http::StatusCode;
use axum::response::Response;
use ortak_app::domain::committee::Tally;
use ortak_app::domain::issuer::breaches;
use ortak_app::domain::money::Money;
use ortak_app::domain::time_fmt::istanbul_date;
use ortak_app::domain::timeline::format_moment;
use ortak_app::forms::FieldErrors;
use ortak_app::pages::campaign::{
    CommitteeList, CommitteeVersion, committee_list_page, committee_version_page,
};
use ortak_app::pages::staff_table::Cell;
use serde::Deserialize;

use super::approval::{self, Platform, campaign_of};
use super::queries;
use crate::db::audit;
use crate::error::AppError;
use crate::investing::reconfirmation;
use crate::mail::{Mail, enqueue};
use crate::web::flash::done;
use crate::web::form::Form;
use crate::web::{CommitteeMember, Ctx, SuperAdmin};

/// `GET /dashboard/committee`.
pub async fn list(ctx: Ctx, _: CommitteeMember) -> Result<Response, AppError> {
    let rules = ctx.state().shared().rounds.committee();
    let members = queries::members(&mut *ctx.state().db().acquire().await?)
        .await?
        .len();
    let queue = queries::queue(ctx.state().db())
        .await?
        .into_iter()
        .map(|q| {
            let on = istanbul_date(q.submitted_at);
            (
                q.version_id,
                q.startup,
                q.number,
                on,
                q.approvals,
                q.rejections,
            )
        })
        .collect();
    let page = CommitteeList {
        members,
        min_members: rules.min_members,
        needed: rules.needed(members).max(1),
        queue,
    };
    let page = ctx.page_ctx(|pc| committee_list_page(pc, page));
    Ok(ctx.render(StatusCode::OK, page).await)
}

async fn show(
    ctx: &Ctx,
    user: i64,
    id: i64,
    (status, errors, note): (StatusCode, FieldErrors, String),
) -> Result<Response, AppError> {
    let mut conn = ctx.state().db().acquire().await?;
    let v = queries::version(&mut conn, id)
        .await?
        .ok_or(AppError::NotFound)?;
    if v.content == r#"{"legacy":true}"# {
        return Err(AppError::NotFound);
    }
    let campaign = campaign_of(&v)?;
    let startup = queries::startup(&mut conn, v.startup_id)
        .await?
        .ok_or(AppError::NotFound)?;
    let issuer = queries::issuer(&mut conn, v.startup_id).await?;
    let rules = ctx.state().shared().rounds.issuer();
    let maximum = Money::from_kurus(campaign.terms.maximum_raise_kurus);
    let cast = queries::votes(&mut conn, id).await?;
    let votes = queries::members(&mut conn)
        .await?
        .into_iter()
        .map(|m| match cast.iter().find(|c| c.user_id == m.id) {
            Some(c) => (m.name, c.vote.clone(), c.note.clone()),
            None => (m.name, String::new(), String::new()),
        })
        .collect();
    let page = CommitteeVersion {
        id,
        startup: startup.name,
        number: v.number,
        breaches: breaches(&issuer, maximum, &rules),
        campaign,
        votes,
        voted: cast.iter().any(|c| c.user_id == user),
        open: v.status == "committee",
        note,
        errors,
    };
    let page = ctx.page_ctx(|pc| committee_version_page(pc, page));
    Ok(ctx.render(status, page).await)
}

/// `GET /dashboard/committee/{version}`.
pub async fn version(
    ctx: Ctx,
    CommitteeMember(user): CommitteeMember,
    Path(id): Path<i64>,
) -> Result<Response, AppError> {
    let shown = (StatusCode::OK, FieldErrors::default(), String::new());
    show(&ctx, user.id, id, shown).await
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct VotePost {
    /// `approve` or `reject`.
    vote: String,
    note: String,
}

/// `POST /dashboard/committee/{version}/vote`: the member's one vote on the version before the
/// committee. Rejecting needs a note; approving a version whose issuer breaks a check is
/// refused.
pub async fn vote(
    ctx: Ctx,
    CommitteeMember(user): CommitteeMember,
    Path(id): Path<i64>,
    Form(f): Form<VotePost>,
) -> Result<Response, AppError> {
    let note: String = f.note.trim().chars().take(1000).collect();
    let refuse = |message: &'static str| {
        let mut errors = FieldErrors::default();
        errors.add("note", message);
        (StatusCode::UNPROCESSABLE_ENTITY, errors, note.clone())
    };
    if !matches!(f.vote.as_str(), "approve" | "reject") {
        return Err(AppError::BadRequest("bad-request-text"));
    }
    if f.vote == "reject" && note.is_empty() {
        return show(&ctx, user.id, id, refuse("committee-reason-required")).await;
    }
    let state = ctx.state();
    let now = state.now();
    let mut tx = crate::db::write(state.db()).await?;
    let v = queries::version(&mut tx, id)
        .await?
        .ok_or(AppError::NotFound)?;
    if v.status != "committee" {
        return Err(AppError::Refused(
            StatusCode::CONFLICT,
            "committee-version-closed",
        ));
    }
    let campaign = campaign_of(&v)?;
    if f.vote == "approve" {
        let issuer = queries::issuer(&mut tx, v.startup_id).await?;
        let maximum = Money::from_kurus(campaign.terms.maximum_raise_kurus);
        if !breaches(&issuer, maximum, &state.shared().rounds.issuer()).is_empty() {
            drop(tx);
            return show(&ctx, user.id, id, refuse("committee-cannot-approve")).await;
        }
    }
    if !queries::vote(&mut tx, id, user.id, (&f.vote, &note), now).await? {
        return Err(AppError::Refused(
            StatusCode::CONFLICT,
            "committee-voted-already",
        ));
    }
    let subject = format!("campaign_version:{id}");
    let after = format!("{} {note}", f.vote);
    audit::record(
        &mut tx,
        user.id,
        "committee.vote",
        &subject,
        None,
        Some(after.trim()),
    )
    .await?;
    let written = decide_if_settled(&mut tx, state, &v, user.id).await?;
    if let Err(e) = tx.commit().await {
        approval::remove(&written).await;
        return Err(e.into());
    }
    state.wake_mailer();
    done(&ctx, &format!("/dashboard/committee/{id}")).await
}

/// Once the votes cast on `v` settle it (the majority approves, or can no longer), applies the
/// decision: approval publishes the version with its information form (asking investors to
/// reconfirm changed terms, announcing a first publication), the minutes are filed, the
/// decision audited and the team told. Returns the files written.
async fn decide_if_settled(
    tx: &mut sqlx::SqliteConnection,
    state: &crate::state::AppState,
    v: &queries::Version,
    actor: i64,
) -> Result<Vec<std::path::PathBuf>, AppError> {
    let now = state.now();
    let members = queries::members(&mut *tx).await?;
    let votes = queries::votes(&mut *tx, v.id).await?;
    let approvals = votes.iter().filter(|x| x.vote == "approve").count();
    let rules = state.shared().rounds.committee();
    let outcome = match rules.tally(members.len(), approvals, votes.len() - approvals) {
        Tally::Approved => "approved",
        Tally::Rejected => "rejected",
        Tally::Open | Tally::TooFewMembers => return Ok(Vec::new()),
    };
    let before = reconfirmation::terms(&mut *tx, v.startup_id).await?;
    let platform = Platform::of(state);
    let sat = (members.as_slice(), votes.as_slice());
    let written = approval::decide(&mut *tx, &platform, v, outcome, sat, Some(actor), now).await?;
    if outcome == "approved" {
        reconfirmation::after_change(&mut *tx, state, v.startup_id, before, actor).await?;
        let public_url = &state.shared().public_url;
        crate::notifications::announce(&mut *tx, public_url, v.startup_id, now).await?;
    }
    let after = format!("version #{} {outcome}", v.number);
    let subject = format!("startup:{}", v.startup_id);
    audit::record(
        &mut *tx,
        actor,
        "campaign.decided",
        &subject,
        None,
        Some(&after),
    )
    .await?;
    tell_the_team(&mut *tx, state, v.startup_id).await?;
    Ok(written)
}

/// The startup's team hears the committee decided.
async fn tell_the_team(
    conn: &mut sqlx::SqliteConnection,
    state: &crate::state::AppState,
    startup: i64,
) -> Result<(), AppError> {
    let link = format!(
        "{}/vc-dashboard/startups/{startup}/campaign",
        state.shared().public_url
    );
    for member in queries::team(conn, startup).await? {
        let mail = Mail::action(
            &member.email,
            member.language,
            &member.first_name,
            "campaign-decided",
            &link,
        );
        enqueue(conn, &mail).await?;
    }
    Ok(())
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct MemberPost {
    /// `on` to add, anything else to remove.
    member: String,
}

/// `POST /dashboard/users/{id}/committee` (superadmins): adds a staff member to the investment
/// committee or takes them off it; nobody changes themselves.
pub async fn set_member(
    ctx: Ctx,
    SuperAdmin(staff): SuperAdmin,
    Path(id): Path<i64>,
    Form(f): Form<MemberPost>,
) -> Result<Response, AppError> {
    if id == staff.id {
        return Err(AppError::Forbidden);
    }
    let member = f.member == "on";
    let mut tx = crate::db::write(ctx.state().db()).await?;
    if !queries::set_member(&mut tx, id, member).await? {
        return Err(AppError::BadRequest("committee-staff-only"));
    }
    let subject = format!("user:{id}");
    let after = if member {
        "committee member"
    } else {
        "not on the committee"
    };
    audit::record(
        &mut tx,
        staff.id,
        "committee.member",
        &subject,
        None,
        Some(after),
    )
    .await?;
    tx.commit().await?;
    done(&ctx, &format!("/dashboard/users/{id}")).await
}

/// The committee's latest decision on the startup's campaign as the staff round page shows it:
/// a sentence, and every vote (member, vote, note, when).
pub async fn record(
    conn: &mut sqlx::SqliteConnection,
    locale: ortak_app::i18n::Locale,
    startup: i64,
) -> Result<Option<(String, Vec<Vec<Cell>>)>, AppError> {
    let Some(d) = queries::latest_decision(conn, startup).await? else {
        return Ok(None);
    };
    let args = [
        ("number", d.number.into()),
        (
            "outcome",
            locale.t(&format!("minutes-outcome-{}", d.outcome)).into(),
        ),
        ("date", format_moment(d.decided_at, locale).into()),
    ];
    let sentence = locale.t_args("round-committee-decision", &args);
    let votes = queries::votes(conn, d.version_id)
        .await?
        .into_iter()
        .map(|v| {
            vec![
                Cell::Text(v.name),
                Cell::Label(format!("minutes-vote-{}", v.vote)),
                Cell::Text(v.note),
                Cell::DateTime(v.voted_at),
            ]
        })
        .collect();
    Ok(Some((sentence, votes)))
}
