-- Issue 27: campaigns as a licensed platform runs them (SPK III-35/A.2). Founders draft the
-- campaign, staff review it section by section, an investment committee votes on each submitted
-- version, and only an approved version is published; its information form is generated from
-- it. A campaign runs at most `campaign_max_days`; a request needs the approved version's
-- information form; an early close is scheduled (or the round terminated, with a reason).
-- Issuers are checked against limits, and founders report after funding.

-- Rules the database enforces, copied from the settings at every start.
CREATE TABLE platform_rules (
    name TEXT PRIMARY KEY,
    value INTEGER NOT NULL
) WITHOUT ROWID;
INSERT INTO platform_rules (name, value) VALUES ('campaign_max_days', 60);

-- A campaign version submitted for review: the whole campaign as JSON
-- (`ortak_app::domain::campaign::Campaign`), numbered per startup.
CREATE TABLE campaign_versions (
    id INTEGER PRIMARY KEY,
    startup_id INTEGER NOT NULL REFERENCES startups (id) ON DELETE CASCADE,
    number INTEGER NOT NULL,
    content TEXT NOT NULL,
    submitted_by INTEGER REFERENCES users (id) ON DELETE SET NULL,
    submitted_at TEXT NOT NULL,
    -- submitted: staff review it; returned: back to the founder with comments; committee: the
    -- committee votes; approved / rejected: decided; superseded: a newer one was submitted.
    status TEXT NOT NULL DEFAULT 'submitted'
        CHECK (status IN ('submitted', 'returned', 'committee', 'approved', 'rejected', 'superseded')),
    reviewed_by INTEGER REFERENCES users (id) ON DELETE SET NULL,
    reviewed_at TEXT,
    decided_at TEXT,
    UNIQUE (startup_id, number)
);
CREATE INDEX campaign_versions_status ON campaign_versions (status, id);

-- The founder's (or staff's) working draft of the next version.
CREATE TABLE campaign_drafts (
    startup_id INTEGER PRIMARY KEY REFERENCES startups (id) ON DELETE CASCADE,
    content TEXT NOT NULL,
    updated_by INTEGER REFERENCES users (id) ON DELETE SET NULL,
    updated_at TEXT NOT NULL
);

-- Staff's comments on a submitted version, one per section (`terms` for the offer).
CREATE TABLE campaign_comments (
    version_id INTEGER NOT NULL REFERENCES campaign_versions (id) ON DELETE CASCADE,
    section TEXT NOT NULL,
    body TEXT NOT NULL CHECK (length(body) BETWEEN 1 AND 2000),
    by_user INTEGER REFERENCES users (id) ON DELETE SET NULL,
    written_at TEXT NOT NULL,
    PRIMARY KEY (version_id, section)
) WITHOUT ROWID;

-- The investment committee: staff marked as members.
ALTER TABLE users ADD COLUMN committee_member INTEGER NOT NULL DEFAULT 0;

CREATE TABLE committee_votes (
    version_id INTEGER NOT NULL REFERENCES campaign_versions (id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL REFERENCES users (id),
    vote TEXT NOT NULL CHECK (vote IN ('approve', 'reject')),
    note TEXT NOT NULL DEFAULT '',
    voted_at TEXT NOT NULL,
    -- One vote per member and version: a second is refused, not counted.
    PRIMARY KEY (version_id, user_id)
) WITHOUT ROWID;
CREATE TRIGGER committee_votes_by_members BEFORE INSERT ON committee_votes
BEGIN
    SELECT RAISE(ABORT, 'only committee members vote')
    WHERE NOT EXISTS (SELECT 1 FROM users WHERE id = NEW.user_id AND committee_member = 1
                      AND role IN ('admin', 'superadmin') AND deactivated_at IS NULL);
    SELECT RAISE(ABORT, 'votes are cast on a version before the committee')
    WHERE (SELECT status FROM campaign_versions WHERE id = NEW.version_id) <> 'committee';
END;
CREATE TRIGGER committee_votes_final BEFORE UPDATE ON committee_votes
BEGIN SELECT RAISE(ABORT, 'a vote cannot change'); END;
CREATE TRIGGER committee_votes_kept BEFORE DELETE ON committee_votes
BEGIN SELECT RAISE(ABORT, 'a vote cannot be deleted'); END;

-- The committee's decision on a version: who sat, how each voted (JSON), and the minutes.
CREATE TABLE committee_decisions (
    version_id INTEGER PRIMARY KEY REFERENCES campaign_versions (id),
    outcome TEXT NOT NULL CHECK (outcome IN ('approved', 'rejected')),
    members TEXT NOT NULL,
    decided_at TEXT NOT NULL,
    minutes_document_id INTEGER REFERENCES round_documents (id)
);

-- The offer, the pitch video and key figures, as the approved version set them.
ALTER TABLE startups ADD COLUMN approved_version_id INTEGER REFERENCES campaign_versions (id);
ALTER TABLE startups ADD COLUMN pre_money_valuation_kurus INTEGER CHECK (pre_money_valuation_kurus > 0);
ALTER TABLE startups ADD COLUMN share_price_kurus INTEGER CHECK (share_price_kurus > 0);
ALTER TABLE startups ADD COLUMN shares_offered INTEGER CHECK (shares_offered > 0);
ALTER TABLE startups ADD COLUMN minimum_raise_kurus INTEGER CHECK (minimum_raise_kurus > 0);
ALTER TABLE startups ADD COLUMN maximum_raise_kurus INTEGER CHECK (maximum_raise_kurus > 0);
-- JSON: [{"tr": "...", "en": "...", "kurus": 123}]
ALTER TABLE startups ADD COLUMN use_of_funds TEXT NOT NULL DEFAULT '[]';
-- A YouTube or Vimeo address; shown as a poster until the member asks to play it.
ALTER TABLE startups ADD COLUMN pitch_video TEXT NOT NULL DEFAULT '';
ALTER TABLE startups ADD COLUMN financials_period TEXT NOT NULL DEFAULT '';
ALTER TABLE startups ADD COLUMN revenue_kurus INTEGER;
ALTER TABLE startups ADD COLUMN net_income_kurus INTEGER;
-- The issuer, as staff checked it.
ALTER TABLE startups ADD COLUMN legal_form TEXT CHECK (legal_form IN ('anonim', 'limited_converting'));
ALTER TABLE startups ADD COLUMN registry_number TEXT NOT NULL DEFAULT '';
ALTER TABLE startups ADD COLUMN issuer_assets_kurus INTEGER CHECK (issuer_assets_kurus >= 0);
ALTER TABLE startups ADD COLUMN issuer_revenue_kurus INTEGER CHECK (issuer_revenue_kurus >= 0);
ALTER TABLE startups ADD COLUMN raised_last_12m_kurus INTEGER CHECK (raised_last_12m_kurus >= 0);
ALTER TABLE startups ADD COLUMN issuer_checked_by INTEGER REFERENCES users (id);
ALTER TABLE startups ADD COLUMN issuer_checked_at TEXT;
-- An early close a superadmin scheduled (when escrow held the success threshold), and a
-- termination's reason.
ALTER TABLE startups ADD COLUMN close_scheduled_at TEXT;
ALTER TABLE startups ADD COLUMN termination_reason TEXT;

-- Round documents gain the committee's minutes and the issuer's evidence (staff only), and
-- each information form names the version it was made from. sqlx runs this in a transaction,
-- so the rebuild defers the foreign keys (requests point at these ids), and sets aside who
-- opened which document (those rows would cascade away with the old table) to put them back.
PRAGMA defer_foreign_keys = ON;
CREATE TEMP TABLE saved_views AS SELECT * FROM document_views;
DELETE FROM document_views;
CREATE TABLE round_documents_new (
    id INTEGER PRIMARY KEY,
    startup_id INTEGER NOT NULL REFERENCES startups (id) ON DELETE CASCADE,
    kind TEXT NOT NULL CHECK (kind IN ('information-form', 'shareholder-agreement', 'side-letter',
                                       'committee-minutes', 'issuer-evidence')),
    file_name TEXT NOT NULL,
    uploaded_by INTEGER REFERENCES users (id) ON DELETE SET NULL,
    uploaded_at TEXT NOT NULL,
    version_id INTEGER REFERENCES campaign_versions (id),
    label TEXT NOT NULL DEFAULT '',
    -- The information form of a version: generated from it, or the signed copy staff uploaded.
    CHECK (kind <> 'information-form' OR version_id IS NOT NULL)
);
-- Existing startups: what is there becomes version 1; a published one's counts as approved
-- before the committee existed (its information form, if any, is that version's).
INSERT INTO campaign_versions (startup_id, number, content, submitted_at, status, decided_at)
SELECT id, 1, '{"legacy":true}', created_at,
    CASE published WHEN 1 THEN 'approved' ELSE 'superseded' END, created_at
FROM startups;
UPDATE startups SET approved_version_id = (
    SELECT v.id FROM campaign_versions v WHERE v.startup_id = startups.id AND v.number = 1)
WHERE published = 1;
INSERT INTO round_documents_new (id, startup_id, kind, file_name, uploaded_by, uploaded_at, version_id)
SELECT d.id, d.startup_id, d.kind, d.file_name, d.uploaded_by, d.uploaded_at,
    CASE d.kind WHEN 'information-form' THEN (
        SELECT v.id FROM campaign_versions v WHERE v.startup_id = d.startup_id AND v.number = 1) END
FROM round_documents d;
DROP TABLE round_documents;
ALTER TABLE round_documents_new RENAME TO round_documents;
CREATE INDEX round_documents_startup ON round_documents (startup_id, kind, id);
INSERT INTO document_views SELECT * FROM saved_views;
DROP TABLE saved_views;

-- Nothing is published without an approved version.
CREATE TRIGGER startups_published_approved_insert BEFORE INSERT ON startups
WHEN NEW.published = 1 AND NEW.approved_version_id IS NULL
BEGIN SELECT RAISE(ABORT, 'a campaign is published only once the committee approved it'); END;
CREATE TRIGGER startups_published_approved BEFORE UPDATE OF published, approved_version_id ON startups
WHEN NEW.published = 1 AND NEW.approved_version_id IS NULL
BEGIN SELECT RAISE(ABORT, 'a campaign is published only once the committee approved it'); END;

-- A campaign runs at most `campaign_max_days`, from the first day of its period to the last,
-- whatever extensions; its first day is fixed once anyone sent a request.
CREATE TRIGGER startups_campaign_length_insert BEFORE INSERT ON startups
WHEN julianday(NEW.period_ends_on) - julianday(NEW.period_starts_on) + 1
     > (SELECT value FROM platform_rules WHERE name = 'campaign_max_days')
BEGIN SELECT RAISE(ABORT, 'a campaign runs at most campaign_max_days'); END;
CREATE TRIGGER startups_campaign_length BEFORE UPDATE OF period_starts_on, period_ends_on ON startups
WHEN julianday(NEW.period_ends_on) - julianday(NEW.period_starts_on) + 1
     > (SELECT value FROM platform_rules WHERE name = 'campaign_max_days')
BEGIN SELECT RAISE(ABORT, 'a campaign runs at most campaign_max_days'); END;
CREATE TRIGGER startups_campaign_start_fixed BEFORE UPDATE OF period_starts_on ON startups
WHEN NEW.period_starts_on <> OLD.period_starts_on AND NEW.period_kind = OLD.period_kind
    AND EXISTS (SELECT 1 FROM investment_requests r WHERE r.startup_id = OLD.id AND r.kind = OLD.period_kind)
BEGIN SELECT RAISE(ABORT, 'a campaign''s first day is fixed once requests exist'); END;

-- A request is sent under the round's current information form (the newest: generated from an
-- approved version, or its signed copy), of a campaign the committee approved: without one, no
-- request exists.
CREATE TRIGGER investment_requests_information_form BEFORE INSERT ON investment_requests
WHEN NEW.information_form_id IS NULL
    OR NOT EXISTS (SELECT 1 FROM startups s WHERE s.id = NEW.startup_id AND s.approved_version_id IS NOT NULL)
    OR NEW.information_form_id IS NOT (SELECT MAX(id) FROM round_documents
                                       WHERE startup_id = NEW.startup_id AND kind = 'information-form')
BEGIN SELECT RAISE(ABORT, 'a request needs the approved information form'); END;

-- Founders' disclosures after funding: material events and fund-use reports against the plan,
-- shown to investors once staff approved them.
CREATE TABLE disclosures (
    id INTEGER PRIMARY KEY,
    startup_id INTEGER NOT NULL REFERENCES startups (id) ON DELETE CASCADE,
    kind TEXT NOT NULL CHECK (kind IN ('material-event', 'fund-use')),
    title_tr TEXT NOT NULL,
    title_en TEXT NOT NULL,
    body_tr TEXT NOT NULL,
    body_en TEXT NOT NULL,
    -- Fund-use reports: JSON [{"tr": "...", "en": "...", "planned": kurus, "spent": kurus}].
    spending TEXT NOT NULL DEFAULT '[]',
    posted_by INTEGER REFERENCES users (id) ON DELETE SET NULL,
    posted_at TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'submitted' CHECK (status IN ('submitted', 'approved', 'returned')),
    reviewed_by INTEGER REFERENCES users (id) ON DELETE SET NULL,
    reviewed_at TEXT,
    review_note TEXT NOT NULL DEFAULT '',
    -- The update an approved disclosure was published as.
    update_id INTEGER REFERENCES startup_updates (id) ON DELETE SET NULL
);
CREATE INDEX disclosures_startup ON disclosures (startup_id, status, id);
CREATE INDEX disclosures_status ON disclosures (status, id);
-- A disclosure is reviewed once: approved or returned, it stays so (a fix is a new one).
CREATE TRIGGER disclosures_reviewed_once BEFORE UPDATE OF status ON disclosures
WHEN OLD.status <> 'submitted'
BEGIN SELECT RAISE(ABORT, 'a disclosure is reviewed once'); END;

-- Fund-use reports the overdue job chased, once per startup and due date.
CREATE TABLE fund_use_reminders (
    startup_id INTEGER NOT NULL REFERENCES startups (id) ON DELETE CASCADE,
    due_on TEXT NOT NULL,
    sent_at TEXT NOT NULL,
    PRIMARY KEY (startup_id, due_on)
) WITHOUT ROWID;
