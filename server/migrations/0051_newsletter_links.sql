-- Issue 12, item 1: the newsletter confirmation link, like account links, is issued by the mail
-- worker when the mail is sent; the stored bodies keep a placeholder. The outbox's CHECK on
-- `link_kind` gains 'newsletter' (the recipient's pending subscription is the link's subject),
-- which SQLite can only do by rebuilding the table. Nothing references `outbox`.
CREATE TABLE outbox_new (
    id INTEGER PRIMARY KEY,
    to_email TEXT NOT NULL,
    subject TEXT NOT NULL,
    text_body TEXT NOT NULL,
    html_body TEXT NOT NULL,
    language TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed')),
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    last_error TEXT,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    sent_at TEXT,
    link_kind TEXT CHECK (link_kind IN ('verify', 'signin', 'reset', 'newsletter')),
    link_user_id INTEGER REFERENCES users (id) ON DELETE CASCADE,
    link_next TEXT
);
INSERT INTO outbox_new
SELECT id, to_email, subject, text_body, html_body, language, status, attempts, next_attempt_at,
       last_error, created_at, sent_at, link_kind, link_user_id, link_next
FROM outbox;
DROP TABLE outbox;
ALTER TABLE outbox_new RENAME TO outbox;
CREATE INDEX outbox_due ON outbox (status, next_attempt_at);

-- Confirmation links written into stored mails before this migration stop working, and their
-- unsent mails are not sent: the address asks again and gets a link issued at send time.
UPDATE newsletter_subscribers SET token_hash = NULL WHERE token_hash IS NOT NULL;
UPDATE outbox SET status = 'failed', last_error = 'newsletter link stored in clear; superseded'
WHERE status = 'pending' AND text_body LIKE '%/newsletter/confirm?token=%';
