-- What the staff and fund dashboards keep: fund teams, VIP groups, qualified-investor
-- declarations, staff-edited automatic e-mails, and fund updates for investors.

-- Fund teams (vcGroups): members open /vc-dashboard for their fund only.
CREATE TABLE fund_members (
    fund_id INTEGER NOT NULL REFERENCES funds (id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    added_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    PRIMARY KEY (fund_id, user_id)
);
CREATE INDEX fund_members_user ON fund_members (user_id);

-- VIP groups: their members may pre-invest in the group's startups before everyone else.
CREATE TABLE vip_groups (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);
CREATE TABLE vip_group_members (
    group_id INTEGER NOT NULL REFERENCES vip_groups (id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    PRIMARY KEY (group_id, user_id)
);
CREATE TABLE vip_group_startups (
    group_id INTEGER NOT NULL REFERENCES vip_groups (id) ON DELETE CASCADE,
    startup_id INTEGER NOT NULL REFERENCES startups (id) ON DELETE CASCADE,
    PRIMARY KEY (group_id, startup_id)
);
-- Until this day (Istanbul calendar), only VIP members may pre-invest; NULL: open to all.
ALTER TABLE startups ADD COLUMN vip_until TEXT;

-- Qualified-investor declarations (SPK's "nitelikli yatırımcı"), with an evidence file.
CREATE TABLE qualified_declarations (
    id INTEGER PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    basis TEXT NOT NULL CHECK (basis IN ('assets', 'income', 'experience', 'professional')),
    evidence_file TEXT NOT NULL,
    evidence_type TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'submitted' CHECK (status IN ('submitted', 'verified', 'rejected')),
    rejection_reason TEXT,
    submitted_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    reviewed_at TEXT
);
CREATE INDEX qualified_declarations_user ON qualified_declarations (user_id, id DESC);

-- Staff edits of the automatic e-mails; a missing row means the built-in Fluent texts.
CREATE TABLE mail_templates (
    kind TEXT PRIMARY KEY,
    enabled INTEGER NOT NULL DEFAULT 1,
    subject_tr TEXT NOT NULL,
    subject_en TEXT NOT NULL,
    body_tr TEXT NOT NULL,
    body_en TEXT NOT NULL,
    updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);

-- Updates a fund team posts about its startups, shown to investors with the reports.
CREATE TABLE startup_updates (
    id INTEGER PRIMARY KEY,
    startup_id INTEGER NOT NULL REFERENCES startups (id) ON DELETE CASCADE,
    author_user_id INTEGER NOT NULL REFERENCES users (id),
    body_tr TEXT NOT NULL,
    body_en TEXT NOT NULL,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);
CREATE INDEX startup_updates_startup ON startup_updates (startup_id, created_at DESC);
