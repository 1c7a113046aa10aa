//! Who may use a route. Each router is mounted with one [`Access`] level and guarded by
//! [`guard`] (see `web::routes`); handlers take the typed user ([`Member`], [`Staff`],
//! [`SuperAdmin`], [`FundMember`], [`CommitteeMember`]) instead of checking roles themselves.

use std::convert::Infallible;

use axum::extract::{FromRequestParts, OptionalFromRequestParts, Request};
use axum::http::StatusCode;
use axum::http::request::Parts;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use serde::Serialize;

use super::Ctx;
use super::session::{CurrentUser, Role};
use crate::error::AppError;
use crate::state::AppState;

/// The access levels routes are mounted with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Access {
    /// Anyone, signed in or not.
    Public,
    /// Any signed-in member (investors, staff, fund teams).
    Member,
    /// Admins and superadmins.
    Staff,
    SuperAdmin,
    /// Those who work for a startup (`/vc-dashboard`), whatever their role: its fund's team and
    /// its founders.
    Fund,
    /// Staff marked as members of the investment committee.
    Committee,
}

impl Access {
    /// Allows `user` through, or refuses: visitors are asked to sign in, others forbidden.
    pub fn admit(self, user: Option<&CurrentUser>) -> Result<(), AppError> {
        let allowed = match (self, user) {
            (Access::Public, _) => true,
            (_, None) => return Err(AppError::SignInRequired),
            (Access::Member, Some(_)) => true,
            (Access::Staff, Some(u)) => u.role >= Role::Admin,
            (Access::SuperAdmin, Some(u)) => u.role >= Role::SuperAdmin,
            (Access::Fund, Some(u)) => u.fund_member,
            (Access::Committee, Some(u)) => u.role >= Role::Admin && u.committee_member,
        };
        if allowed {
            Ok(())
        } else {
            Err(AppError::Forbidden)
        }
    }
}

/// The refusal's message when a member has not accepted the current terms: pages go to
/// `/signin/terms` and come back (see `web::errors`).
pub const TERMS_REQUIRED: &str = "terms-required";

/// Member routes open without the current terms: KVKK rights do not wait on a contract.
const TERMS_EXEMPT: [&str; 2] = ["/profile/export", "/profile/delete"];

/// The route layer of a router mounted with `access`: refuses before any extractor runs. A
/// member who has not accepted the current terms (a new version, or signed in by link or
/// provider) is asked to first, on every route that is not public.
pub async fn guard(access: Access, request: Request, next: Next) -> Response {
    let user = request
        .extensions()
        .get::<Ctx>()
        .and_then(|ctx| ctx.user.as_ref());
    if let Err(refusal) = access.admit(user) {
        return refusal.into_response();
    }
    let exempt = TERMS_EXEMPT.contains(&request.uri().path());
    if access != Access::Public && user.is_some_and(|u| !u.terms_current) && !exempt {
        return AppError::Refused(StatusCode::FORBIDDEN, TERMS_REQUIRED).into_response();
    }
    next.run(request).await
}

fn user_with(parts: &Parts, access: Access) -> Result<CurrentUser, AppError> {
    let ctx = parts
        .extensions
        .get::<Ctx>()
        .ok_or_else(|| AppError::Internal(anyhow::anyhow!("request context missing")))?;
    access.admit(ctx.user.as_ref())?;
    ctx.user.clone().ok_or(AppError::SignInRequired)
}

/// The signed-in member.
pub struct Member(pub CurrentUser);

/// A signed-in admin or superadmin.
pub struct Staff {
    pub user: CurrentUser,
    pub superadmin: bool,
}

/// A signed-in superadmin.
pub struct SuperAdmin(pub CurrentUser);

/// A signed-in member of a fund's team.
pub struct FundMember(pub CurrentUser);

/// A signed-in member of the investment committee.
pub struct CommitteeMember(pub CurrentUser);

impl FromRequestParts<AppState> for CommitteeMember {
    type Rejection = AppError;
    async fn from_request_parts(parts: &mut Parts, _: &AppState) -> Result<Self, AppError> {
        user_with(parts, Access::Committee).map(CommitteeMember)
    }
}

impl FromRequestParts<AppState> for Member {
    type Rejection = AppError;
    async fn from_request_parts(parts: &mut Parts, _: &AppState) -> Result<Self, AppError> {
        user_with(parts, Access::Member).map(Member)
    }
}

impl FromRequestParts<AppState> for Staff {
    type Rejection = AppError;
    async fn from_request_parts(parts: &mut Parts, _: &AppState) -> Result<Self, AppError> {
        let user = user_with(parts, Access::Staff)?;
        let superadmin = user.role >= Role::SuperAdmin;
        Ok(Staff { user, superadmin })
    }
}

impl FromRequestParts<AppState> for SuperAdmin {
    type Rejection = AppError;
    async fn from_request_parts(parts: &mut Parts, _: &AppState) -> Result<Self, AppError> {
        user_with(parts, Access::SuperAdmin).map(SuperAdmin)
    }
}

impl FromRequestParts<AppState> for FundMember {
    type Rejection = AppError;
    async fn from_request_parts(parts: &mut Parts, _: &AppState) -> Result<Self, AppError> {
        user_with(parts, Access::Fund).map(FundMember)
    }
}

/// `Option<Staff>`: for "owner or staff" checks on routes open to every member.
impl OptionalFromRequestParts<AppState> for Staff {
    type Rejection = Infallible;
    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Option<Self>, Infallible> {
        Ok(
            <Staff as FromRequestParts<AppState>>::from_request_parts(parts, state)
                .await
                .ok(),
        )
    }
}
