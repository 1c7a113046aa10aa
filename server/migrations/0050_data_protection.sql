-- Issue 12 (data protection and abuse): rate-limit rows that can be purged, one pending
-- qualified-investor declaration per member, newsletter double opt-in, and the restricted
-- KVKK archive of deleted members.

-- Each counter knows when its window ends (unix seconds), so the hourly job can delete it.
ALTER TABLE rate_limits ADD COLUMN expires_at INTEGER NOT NULL DEFAULT 0;
CREATE INDEX rate_limits_expiry ON rate_limits (expires_at);

-- Abandoned startup-application drafts are purged by age.
CREATE INDEX startup_applications_stale ON startup_applications (status, updated_at);

-- A member has at most one declaration waiting for review: a new one replaces it. Older
-- duplicates from before this rule are closed as superseded (their files stay for the record).
UPDATE qualified_declarations
SET status = 'rejected', rejection_reason = 'superseded', reviewed_at = submitted_at
WHERE status = 'submitted'
  AND id NOT IN (SELECT MAX(id) FROM qualified_declarations WHERE status = 'submitted' GROUP BY user_id);
CREATE UNIQUE INDEX qualified_declarations_one_pending
    ON qualified_declarations (user_id) WHERE status = 'submitted';

-- Newsletter double opt-in: a subscription counts once its address confirmed it
-- (`confirmed_at`) and was not withdrawn since (`unsubscribed_at`). `requested_at` is the last
-- request (the confirmation link expires 7 days later, then the unconfirmed row is purged);
-- `token_hash` is the SHA-256 of the link's token while one is open. Rows from before this rule
-- were never confirmed, so they count as unconfirmed requests made when they were recorded.
ALTER TABLE newsletter_subscribers ADD COLUMN confirmed_at TEXT;
ALTER TABLE newsletter_subscribers ADD COLUMN requested_at TEXT NOT NULL DEFAULT '1970-01-01T00:00:00Z';
ALTER TABLE newsletter_subscribers ADD COLUMN token_hash TEXT;
UPDATE newsletter_subscribers SET requested_at = consented_at;
CREATE UNIQUE INDEX newsletter_subscribers_token ON newsletter_subscribers (token_hash);
CREATE INDEX newsletter_subscribers_pending ON newsletter_subscribers (confirmed_at, requested_at);

-- What the law requires to keep of a deleted member who moved money (the identity used for
-- the MKK registration, as JSON), readable by superadmins only, until `retain_until`; the daily
-- job then erases it with the payer details of their transfers and payments.
CREATE TABLE kvkk_archive (
    user_id INTEGER PRIMARY KEY REFERENCES users (id),
    identity TEXT NOT NULL,
    deleted_at TEXT NOT NULL,
    retain_until TEXT NOT NULL
);
CREATE INDEX kvkk_archive_retention ON kvkk_archive (retain_until);
