-- Every staff action, for superadmins to read; nothing here is ever edited or deleted.

CREATE TABLE audit_log (
    id INTEGER PRIMARY KEY,
    actor_user_id INTEGER REFERENCES users (id),
    action TEXT NOT NULL,
    subject TEXT NOT NULL,
    before TEXT,
    after TEXT,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);
CREATE INDEX audit_log_created ON audit_log (created_at DESC);

CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
BEGIN SELECT RAISE(ABORT, 'the audit log cannot be changed'); END;
CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
BEGIN SELECT RAISE(ABORT, 'the audit log cannot be changed'); END;
