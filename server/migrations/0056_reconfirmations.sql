-- Issue 17 (reconfirmation): a material change to a live round's terms, and each open
-- request's answer to it. A request awaiting its investor's answer does not move forward,
-- and its round does not close, whatever the code asks: the triggers below refuse.
CREATE TABLE term_changes (
    id INTEGER PRIMARY KEY,
    startup_id INTEGER NOT NULL REFERENCES startups (id),
    made_by INTEGER REFERENCES users (id) ON DELETE SET NULL,
    made_at TEXT NOT NULL,
    deadline_at TEXT NOT NULL CHECK (deadline_at > made_at)
);
CREATE INDEX term_changes_startup ON term_changes (startup_id, id);

-- Each changed term, with its value before and after as the database keeps it.
CREATE TABLE term_change_items (
    change_id INTEGER NOT NULL REFERENCES term_changes (id),
    term TEXT NOT NULL
        CHECK (term IN ('goal', 'valuation-usd', 'round-valuation', 'period', 'information-form')),
    before_value TEXT NOT NULL,
    after_value TEXT NOT NULL CHECK (after_value <> before_value),
    PRIMARY KEY (change_id, term)
) WITHOUT ROWID;

CREATE TABLE reconfirmations (
    request_id INTEGER NOT NULL REFERENCES investment_requests (id),
    change_id INTEGER NOT NULL REFERENCES term_changes (id),
    -- `closed`: the request ended another way (rejected, lapsed) before an answer came.
    answer TEXT NOT NULL DEFAULT 'pending'
        CHECK (answer IN ('pending', 'reconfirmed', 'withdrawn', 'expired', 'closed')),
    answered_at TEXT,
    CHECK ((answer = 'pending') = (answered_at IS NULL)),
    PRIMARY KEY (request_id, change_id)
) WITHOUT ROWID;
CREATE INDEX reconfirmations_pending ON reconfirmations (change_id) WHERE answer = 'pending';

-- An answer is final.
CREATE TRIGGER reconfirmations_final BEFORE UPDATE ON reconfirmations
WHEN OLD.answer <> 'pending'
BEGIN SELECT RAISE(ABORT, 'a reconfirmation answer is final'); END;
CREATE TRIGGER reconfirmations_no_delete BEFORE DELETE ON reconfirmations
BEGIN SELECT RAISE(ABORT, 'a reconfirmation is kept'); END;

-- Awaiting its investor, a request is not reviewed, approved, charged or allocated. Money the
-- investor sends meanwhile is still recorded (funded): it is refunded if the answer never comes.
CREATE TRIGGER reconfirmation_holds_request BEFORE UPDATE OF status ON investment_requests
WHEN NEW.status <> OLD.status
    AND NEW.status IN ('under_review', 'approved', 'fee_paid', 'allocated')
    AND EXISTS (SELECT 1 FROM reconfirmations WHERE request_id = NEW.id AND answer = 'pending')
BEGIN SELECT RAISE(ABORT, 'the request awaits its investor''s reconfirmation'); END;

-- A question is pending only while its request is open: whatever ends a request closes it.
CREATE TRIGGER reconfirmations_close_on_end AFTER UPDATE OF status ON investment_requests
WHEN NEW.status IN ('allocated', 'refunded', 'rejected', 'cancelled', 'lapsed')
BEGIN
    UPDATE reconfirmations SET answer = 'closed', answered_at = NEW.updated_at
    WHERE request_id = NEW.id AND answer = 'pending';
END;

-- Nor does its round start closing.
CREATE TRIGGER reconfirmation_holds_close BEFORE UPDATE OF round_status ON startups
WHEN NEW.round_status = 'closing' AND OLD.round_status = 'open'
    AND EXISTS (SELECT 1 FROM reconfirmations c JOIN investment_requests r ON r.id = c.request_id
                WHERE r.startup_id = NEW.id AND c.answer = 'pending')
BEGIN SELECT RAISE(ABORT, 'the round awaits its investors'' reconfirmations'); END;
