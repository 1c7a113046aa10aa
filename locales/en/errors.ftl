error-title = Error
not-found-title = Page Not Found
not-found-text = The page you are looking for may have been moved, removed or may never have existed.
not-found-home = Back to the homepage
server-error-text = An unexpected error occurred. If it persists, contact us with this code: { $id }
bad-request-text = The request could not be processed. Please check the details and try again.
forbidden-title = You are not allowed to view this page
forbidden-text = You do not have the permission needed to view this page.
