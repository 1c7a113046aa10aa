//! The signed-in user as requests see them, loaded from the session's user id and checked
//! against their row on every request (`web::session` for how sessions are made).

use std::sync::Arc;

use ortak_app::i18n::Locale;
use sqlx::SqlitePool;

use super::queries::{self, SignedInUser};
use super::session::{Role, SessionUser, needs_second_factor, unix_ms};
use crate::db::snapshot::{RECORD_BYTES, Reads, Snapshot};
use crate::db::writes::Versions;

/// The signed-in user as requests see them.
#[derive(Clone, Debug)]
pub struct CurrentUser {
    pub id: i64,
    pub email: String,
    pub first_name: String,
    pub last_name: String,
    pub position: String,
    pub role: Role,
    pub verified: bool,
    /// The language mails to the user are written in.
    pub locale: Locale,
    /// The first onboarding step not yet saved; past the last once onboarding is done.
    pub onboarding_step: i64,
    pub profile_image: Option<String>,
    /// Whether the user works for a startup (`/vc-dashboard`): on its fund's team, or a founder
    /// staff invited whose address is verified (the `startup_teams` view).
    pub fund_member: bool,
    /// Staff marked as members of the investment committee.
    pub committee_member: bool,
    /// Whether the user accepted the current membership agreement; member areas ask first
    /// (see `web::access::guard`).
    pub terms_current: bool,
    /// The member's marks on startups' cards and pages: the startups they saved, and those
    /// their VIP groups hold. Read with who they are, so a page needs no read of its own for
    /// them (issue 29).
    pub saved: Arc<[i64]>,
    pub vip: Arc<[i64]>,
}

impl CurrentUser {
    pub fn saved(&self, startup: i64) -> bool {
        self.saved.contains(&startup)
    }

    pub fn vip(&self, startup: i64) -> bool {
        self.vip.contains(&startup)
    }
}

/// A user's row with their marks read out of it.
struct Known {
    row: SignedInUser,
    saved: Arc<[i64]>,
    vip: Arc<[i64]>,
}

impl Known {
    fn new(row: SignedInUser) -> Result<Known, sqlx::Error> {
        let ids = |json: &str| -> Result<Arc<[i64]>, sqlx::Error> {
            let ids: Vec<i64> =
                serde_json::from_str(json).map_err(|e| sqlx::Error::Decode(Box::new(e)))?;
            Ok(ids.into())
        };
        Ok(Known {
            saved: ids(&row.saved_json)?,
            vip: ids(&row.vip_json)?,
            row,
        })
    }
}

/// A user's row as sessions are checked against it, kept between writes (issue 16): a page
/// view and the requests that follow it (assets, images, islands' data) read it once. Every
/// change to a user (a password, a role, a deactivation, the terms) is a write, after which it
/// is read again, so the checks below always see the row as it stands.
static USERS: std::sync::LazyLock<Snapshot<i64, Option<Arc<Known>>>> =
    std::sync::LazyLock::new(|| {
        Snapshot::new(Reads::OneMember, 4 << 20, |_, known| {
            RECORD_BYTES
                + known
                    .as_ref()
                    .map_or(0, |k| 8 * (k.saved.len() + k.vip.len()))
        })
    });

/// Loads the user a session (or bearer token's session) belongs to, if still valid. `writes`
/// is the count of writes read before (`AppState::writes`).
pub async fn load(
    db: &SqlitePool,
    writes: Versions,
    session_user: SessionUser,
    max_age: time::Duration,
) -> Result<Option<CurrentUser>, sqlx::Error> {
    if unix_ms() - session_user.signed_in_ms >= max_age.whole_milliseconds() as i64 {
        return Ok(None);
    }
    let row = USERS
        .get_or_make(
            session_user.id,
            writes.of_member(session_user.id),
            || async {
                let row = queries::signed_in_user(db, session_user.id).await?;
                row.map(|row| Known::new(row).map(Arc::new)).transpose()
            },
        )
        .await?;
    let Some(known) = row else {
        return Ok(None);
    };
    let row = &known.row;
    let valid = row.session_epoch == session_user.epoch
        && !row.deactivated
        && (session_user.two_factor || !needs_second_factor(row.role, row.has_totp));
    Ok(valid.then(|| CurrentUser {
        id: row.id,
        email: row.email.clone(),
        first_name: row.first_name.clone(),
        last_name: row.last_name.clone(),
        position: row.position.clone(),
        role: row.role,
        verified: row.verified,
        locale: row.language,
        onboarding_step: row.onboarding_step,
        profile_image: row.profile_image.clone(),
        fund_member: row.fund_member,
        committee_member: row.committee_member,
        terms_current: row.terms_current,
        saved: known.saved.clone(),
        vip: known.vip.clone(),
    }))
}
