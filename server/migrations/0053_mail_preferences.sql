-- Issue 17 (notifications): the mails a member may switch off, their choices, the scheduled
-- mails already sent, and the kind a queued mail belongs to (for its one-click unsubscribe).

-- A member's choice for one kind; no row means the kind's default (`MailKind::on_by_default`).
-- Turning a kind on is the recorded consent (its time and where it was given).
CREATE TABLE mail_preferences (
    user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    kind TEXT NOT NULL CHECK (kind IN ('new-startups', 'closing-soon', 'updates', 'answers', 'digest')),
    enabled INTEGER NOT NULL CHECK (enabled IN (0, 1)),
    changed_via TEXT NOT NULL CHECK (changed_via IN ('profile', 'unsubscribe')),
    changed_at TEXT NOT NULL,
    PRIMARY KEY (user_id, kind)
) WITHOUT ROWID;

-- Scheduled mails already queued, so each goes out once: a saved startup's closing-soon mail
-- (`subject`: the startup's id) and the weekly digest (`subject`: the ISO week, `2026-W48`).
CREATE TABLE scheduled_mails (
    user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    kind TEXT NOT NULL CHECK (kind IN ('closing-soon', 'digest')),
    subject TEXT NOT NULL,
    queued_at TEXT NOT NULL,
    PRIMARY KEY (user_id, kind, subject)
) WITHOUT ROWID;

-- The worker adds the RFC 8058 one-click unsubscribe headers to a mail of one of these kinds,
-- with a link it signs when it sends (never stored).
ALTER TABLE outbox ADD COLUMN unsubscribe_kind TEXT
    CHECK (unsubscribe_kind IN ('new-startups', 'closing-soon', 'updates', 'answers', 'digest'));
