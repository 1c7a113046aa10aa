-- Startup applications (/projectFlow/1-4): a draft that fills step by step, then a submission.

CREATE TABLE startup_applications (
    id INTEGER PRIMARY KEY,
    -- A visitor's draft is found by this random token in a cookie; a member's by user_id.
    draft_token TEXT NOT NULL UNIQUE,
    user_id INTEGER REFERENCES users (id) ON DELETE SET NULL,
    -- The answers of every step, as JSON.
    answers TEXT NOT NULL DEFAULT '{}',
    -- The first step not yet saved (1-4); 5 once all are.
    next_step INTEGER NOT NULL DEFAULT 1,
    presentation_file TEXT,
    presentation_name TEXT,
    presentation_size INTEGER,
    status TEXT NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'new', 'in_review', 'accepted', 'declined')),
    submitted_at TEXT,
    language TEXT NOT NULL DEFAULT 'tr',
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);
CREATE INDEX startup_applications_user ON startup_applications (user_id, status);
CREATE INDEX startup_applications_status ON startup_applications (status, submitted_at);
