//! What a committee decision does, in the caller's transaction: an approved version becomes the
//! startup's live campaign (published), its information form is generated (a new one only when
//! its text changed), and the minutes go into the vault with the decision. The PDFs are written
//! before the rows that name them; the caller removes them if its transaction does not commit.

use std::path::{Path, PathBuf};

use ortak_app::domain::campaign::Campaign;
use ortak_app::domain::time_fmt::istanbul_date;
use sqlx::SqliteConnection;
use time::OffsetDateTime;

use super::forms::{self, FormFacts};
use super::queries::{self, Member, NewDocument, Version, Vote};
use crate::documents::pdf;
use crate::error::AppError;
use crate::startups::documents::FOLDER;
use crate::state::AppState;

/// What the documents state about the platform (settings).
pub struct Platform<'a> {
    pub data_dir: &'a Path,
    pub fee_bp: i64,
    pub cancel_window_hours: i64,
    pub success_bp: i64,
    pub escrow_bank: &'a str,
}

impl<'a> Platform<'a> {
    pub fn of(state: &'a AppState) -> Platform<'a> {
        let shared = state.shared();
        Platform {
            data_dir: &shared.data_dir,
            fee_bp: shared.service_fee_bp,
            cancel_window_hours: shared.rounds.cancel_window_hours,
            success_bp: shared.rounds.success_bp,
            escrow_bank: &shared.escrow.bank,
        }
    }
}

/// A version's content, as submitted.
pub fn campaign_of(version: &Version) -> Result<Campaign, AppError> {
    serde_json::from_str(&version.content)
        .map_err(|e| anyhow::anyhow!("version {}: {e}", version.id).into())
}

/// Writes `lines` as a PDF into the vault's folder; its file name.
async fn write_pdf(
    platform: &Platform<'_>,
    title: String,
    lines: Vec<pdf::Line>,
    written: &mut Vec<PathBuf>,
) -> Result<String, AppError> {
    let bytes = pdf::render_off_thread(title, "tr", lines).await?;
    let name = crate::web::files::random_name("pdf");
    let dir = platform.data_dir.join(FOLDER);
    tokio::fs::create_dir_all(&dir)
        .await
        .map_err(anyhow::Error::from)?;
    let path = dir.join(&name);
    tokio::fs::write(&path, bytes)
        .await
        .map_err(anyhow::Error::from)?;
    written.push(path);
    Ok(name)
}

/// Records the committee's `outcome` (`approved` or `rejected`) on version `v` (before the
/// committee), as `members` voted `votes`: applies an approved one and generates its information
/// form, and files the minutes. Returns the files written.
pub async fn decide(
    conn: &mut SqliteConnection,
    platform: &Platform<'_>,
    v: &Version,
    outcome: &str,
    (members, votes): (&[Member], &[Vote]),
    actor: Option<i64>,
    now: OffsetDateTime,
) -> Result<Vec<PathBuf>, AppError> {
    let mut written = Vec::new();
    let result = decide_writing(
        conn,
        platform,
        v,
        outcome,
        (members, votes),
        actor,
        now,
        &mut written,
    )
    .await;
    if result.is_err() {
        remove(&written).await;
    }
    result.map(|()| written)
}

#[allow(clippy::too_many_arguments)]
async fn decide_writing(
    conn: &mut SqliteConnection,
    platform: &Platform<'_>,
    v: &Version,
    outcome: &str,
    (members, votes): (&[Member], &[Vote]),
    actor: Option<i64>,
    now: OffsetDateTime,
    written: &mut Vec<PathBuf>,
) -> Result<(), AppError> {
    if !queries::move_version(conn, v.id, ("committee", outcome), actor, now).await? {
        let moved = "campaign-version-moved";
        return Err(AppError::Refused(axum::http::StatusCode::CONFLICT, moved));
    }
    let startup = queries::startup(conn, v.startup_id)
        .await?
        .ok_or(AppError::NotFound)?;
    if outcome == "approved" {
        publish(conn, platform, v, actor, now, written).await?;
    }
    let decided_on = istanbul_date(now);
    let (title, lines) = forms::minutes(
        &startup.name,
        v.number,
        outcome,
        decided_on,
        (members, votes),
    );
    let file = write_pdf(platform, title, lines, written).await?;
    let minutes = NewDocument {
        startup: v.startup_id,
        kind: "committee-minutes",
        file_name: &file,
        by: actor,
        version: Some(v.id),
        label: "",
    };
    let minutes = queries::insert_document(conn, &minutes, now).await?;
    let sat: Vec<serde_json::Value> = members
        .iter()
        .map(|m| {
            let vote = votes.iter().find(|x| x.user_id == m.id);
            serde_json::json!({
                "user": m.id, "name": m.name,
                "vote": vote.map(|x| x.vote.as_str()), "note": vote.map(|x| x.note.as_str()),
            })
        })
        .collect();
    let sat = serde_json::Value::Array(sat).to_string();
    queries::record_decision(conn, v.id, outcome, &sat, minutes, now).await?;
    Ok(())
}

/// Makes approved version `v` the live campaign, and generates its information form when its
/// text differs from the current one's.
async fn publish(
    conn: &mut SqliteConnection,
    platform: &Platform<'_>,
    v: &Version,
    actor: Option<i64>,
    now: OffsetDateTime,
    written: &mut Vec<PathBuf>,
) -> Result<(), AppError> {
    let campaign = campaign_of(v)?;
    queries::apply(conn, v.startup_id, v.id, &campaign).await?;
    let issuer = queries::issuer(conn, v.startup_id).await?;
    let startup = queries::startup(conn, v.startup_id)
        .await?
        .ok_or(AppError::NotFound)?;
    let facts = FormFacts {
        startup: &startup,
        campaign: &campaign,
        issuer: &issuer,
        version_number: v.number,
        approved_on: istanbul_date(now),
        fee_bp: platform.fee_bp,
        cancel_window_hours: platform.cancel_window_hours,
        success_bp: platform.success_bp,
        escrow_bank: platform.escrow_bank,
    };
    let (title, lines, hash) = forms::information_form(&facts);
    if queries::current_form_label(conn, v.startup_id)
        .await?
        .as_deref()
        == Some(&hash)
    {
        return Ok(());
    }
    let file = write_pdf(platform, title, lines, written).await?;
    let form = NewDocument {
        startup: v.startup_id,
        kind: "information-form",
        file_name: &file,
        by: actor,
        version: Some(v.id),
        label: &hash,
    };
    queries::insert_document(conn, &form, now).await?;
    Ok(())
}

/// Removes files a failed transaction named.
pub async fn remove(files: &[PathBuf]) {
    for file in files {
        let _ = tokio::fs::remove_file(file).await;
    }
}
