-- Issue 12: no stored mail holds a usable link, and two-factor sign-in.

-- A mail that carries a sign-in, reset or verification link stores what the link is for; the
-- mail worker issues the token when it sends the mail and writes it into the copy it sends
-- only. The stored bodies keep a placeholder.
ALTER TABLE outbox ADD COLUMN link_kind TEXT CHECK (link_kind IN ('verify', 'signin', 'reset'));
ALTER TABLE outbox ADD COLUMN link_user_id INTEGER REFERENCES users (id) ON DELETE CASCADE;
ALTER TABLE outbox ADD COLUMN link_next TEXT;

-- The outbox row a token was issued for: a retry of that mail uses the earlier token up.
ALTER TABLE auth_tokens ADD COLUMN outbox_id INTEGER;
CREATE INDEX auth_tokens_outbox ON auth_tokens (outbox_id);

-- Links issued before this migration were written into the outbox in clear (and so into every
-- backup): none of them may work any more.
UPDATE auth_tokens SET used_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now') WHERE used_at IS NULL;

-- A member's authenticator (TOTP, RFC 6238: SHA-1, 6 digits, 30 s). `last_step` is the time
-- step of the last code accepted: a code is accepted once (RFC 6238 section 5.2).
CREATE TABLE totp_factors (
    user_id INTEGER PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    secret TEXT NOT NULL,
    last_step INTEGER NOT NULL DEFAULT 0,
    enabled_at TEXT NOT NULL
);

-- Ten single-use recovery codes per enrolment, stored as SHA-256 hashes.
CREATE TABLE recovery_codes (
    id INTEGER PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    code_hash TEXT NOT NULL UNIQUE,
    used_at TEXT
);
CREATE INDEX recovery_codes_user ON recovery_codes (user_id);
