//! Transitional: the per-handler checks the route table replaces. Deleted once no handler
//! calls them.

use axum::http::HeaderMap;
use ortak_app::shell::Flash;

use super::Ctx;
use super::session::{CurrentUser, Role};
use crate::error::AppError;

impl Ctx {
    /// Checks a submitted CSRF token (form field or header).
    pub fn verify_csrf(&self, submitted: &str, headers: &HeaderMap) -> Result<(), AppError> {
        super::csrf::verify(self.csrf_cookie.as_deref(), submitted, headers)
    }

    /// Keeps a message for the next page this browser renders.
    pub async fn set_flash(&self, flash: Flash) -> Result<(), AppError> {
        super::flash::set(self, flash).await
    }

    /// The signed-in user, if their role is at least `role`.
    pub fn require(&self, role: Role) -> Result<&CurrentUser, AppError> {
        match &self.user {
            None => Err(AppError::SignInRequired),
            Some(user) if user.role >= role => Ok(user),
            Some(_) => Err(AppError::Forbidden),
        }
    }
}
