-- Rounds for real (issue 13) and a money path the database enforces (issue 12, items 3 and 5).
--
-- * investment_requests is rebuilt for its new states (waitlisted ... lapsed; paid -> funded,
--   completed -> allocated), the cancellation window and the payment deadlines.
-- * money_events is the ledger: one row per money move, append-only.
-- * A trigger refuses every status move the state machine does not allow, and the moves that
--   the ledger does not back (fee_paid without the fee, funded without the transfer in escrow,
--   an ended request still holding escrowed money).
-- * A round's raised amount and investor count are kept by triggers from the ledger.
-- * Rounds close (round_status), valuations, MKK identity uniqueness, the payer's IBAN.
--
-- sqlx runs SQLite migrations inside a transaction (0.8 ignores `-- no-transaction` there), where
-- `PRAGMA foreign_keys` cannot change. So the rebuild defers the foreign keys to the commit
-- instead: payments and bank transfers point at request ids that exist again by then, and the
-- history (which would cascade away with the old table) is set aside and put back.
PRAGMA defer_foreign_keys = ON;
CREATE TEMP TABLE saved_requests AS SELECT * FROM investment_requests;
CREATE TEMP TABLE saved_events AS SELECT * FROM request_events;
DELETE FROM request_events;
DROP TABLE investment_requests;

CREATE TABLE investment_requests (
    id INTEGER PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users (id),
    startup_id INTEGER NOT NULL REFERENCES startups (id),
    kind TEXT NOT NULL CHECK (kind IN ('investment', 'pre_investment')),
    amount_kurus INTEGER NOT NULL CHECK (amount_kurus > 0),
    fee_kurus INTEGER NOT NULL CHECK (fee_kurus >= 0),
    fee_added INTEGER NOT NULL,
    investment_kurus INTEGER NOT NULL,
    total_kurus INTEGER NOT NULL,
    status TEXT NOT NULL DEFAULT 'submitted'
        CHECK (status IN ('waitlisted', 'submitted', 'under_review', 'approved', 'fee_paid', 'funded',
                          'allocated', 'refunded', 'rejected', 'cancelled', 'lapsed')),
    risk_accepted_at TEXT NOT NULL,
    -- One request per submitted form, however often it is sent.
    idempotency_key TEXT NOT NULL UNIQUE,
    rejection_reason TEXT,
    fee_paid_at TEXT,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    -- The investor may withdraw until then (the cancellation window, from sending or promotion).
    cancel_until TEXT NOT NULL,
    -- Payment deadlines, set when the request is approved and when the fee is paid.
    fee_due_at TEXT,
    transfer_due_at TEXT,
    -- Parts per million of the round, set at allocation.
    share_ppm INTEGER
);

INSERT INTO investment_requests (id, user_id, startup_id, kind, amount_kurus, fee_kurus, fee_added,
    investment_kurus, total_kurus, status, risk_accepted_at, idempotency_key, rejection_reason,
    fee_paid_at, created_at, updated_at, cancel_until)
SELECT r.id, r.user_id, r.startup_id, r.kind, r.amount_kurus, r.fee_kurus, r.fee_added,
    r.investment_kurus, r.total_kurus,
    CASE
        WHEN r.status = 'completed' THEN 'allocated'
        WHEN r.status IN ('paid', 'approved') AND r.fee_paid_at IS NOT NULL AND EXISTS (
            SELECT 1 FROM bank_transfers b WHERE b.request_id = r.id
              AND b.received_amount_kurus = r.investment_kurus) THEN 'funded'
        WHEN r.status IN ('paid', 'approved') AND r.fee_paid_at IS NOT NULL THEN 'fee_paid'
        -- "Paid" by hand with nothing paid: back to where the money is.
        WHEN r.status = 'paid' THEN 'approved'
        ELSE r.status
    END,
    r.risk_accepted_at, r.idempotency_key, r.rejection_reason, r.fee_paid_at, r.created_at,
    r.updated_at, strftime('%Y-%m-%dT%H:%M:%SZ', r.created_at, '+48 hours')
FROM saved_requests r;
INSERT INTO request_events SELECT * FROM saved_events;
DROP TABLE saved_requests;
DROP TABLE saved_events;

CREATE INDEX investment_requests_user ON investment_requests (user_id, status, created_at DESC);
CREATE INDEX investment_requests_status ON investment_requests (status, created_at);
CREATE INDEX investment_requests_startup ON investment_requests (startup_id, status);

UPDATE request_events SET status = 'funded' WHERE status = 'paid';
UPDATE request_events SET status = 'allocated' WHERE status = 'completed';

-- The ledger: every move of money, with who (NULL: the system), when and why, written in the
-- same transaction as the state it changes. Nothing here is ever changed or deleted.
CREATE TABLE money_events (
    id INTEGER PRIMARY KEY,
    request_id INTEGER NOT NULL REFERENCES investment_requests (id),
    kind TEXT NOT NULL CHECK (kind IN ('fee_paid', 'fee_refunded', 'transfer_instructed',
                                       'transfer_received', 'allocated', 'escrow_refunded')),
    amount_kurus INTEGER NOT NULL CHECK (amount_kurus >= 0),
    -- The payment's id, the transfer's reference or the provider's refund reference.
    reference TEXT NOT NULL DEFAULT '',
    actor_user_id INTEGER REFERENCES users (id),
    note TEXT NOT NULL DEFAULT '',
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);
CREATE INDEX money_events_request ON money_events (request_id, kind);
-- Moves that happen once per request; a retry (a replayed callback, a restarted close) finds
-- its row and changes nothing. Transfers may arrive in parts, and each part that cannot join
-- the round is returned on its own.
CREATE UNIQUE INDEX money_events_once ON money_events (request_id, kind)
    WHERE kind IN ('fee_paid', 'fee_refunded', 'transfer_instructed', 'allocated');
CREATE TRIGGER money_events_no_update BEFORE UPDATE ON money_events
BEGIN SELECT RAISE(ABORT, 'the ledger cannot be changed'); END;
CREATE TRIGGER money_events_no_delete BEFORE DELETE ON money_events
BEGIN SELECT RAISE(ABORT, 'the ledger cannot be changed'); END;

-- What was paid before the ledger existed, so the ledger tells the whole story.
INSERT INTO money_events (request_id, kind, amount_kurus, note, created_at)
SELECT id, 'fee_paid', fee_kurus, 'recorded before the ledger', fee_paid_at
FROM investment_requests WHERE fee_paid_at IS NOT NULL;
INSERT INTO money_events (request_id, kind, amount_kurus, reference, note, created_at)
SELECT request_id, 'transfer_instructed', amount_kurus, reference, 'recorded before the ledger', created_at
FROM bank_transfers;
INSERT INTO money_events (request_id, kind, amount_kurus, reference, note, created_at)
SELECT request_id, 'transfer_received', received_amount_kurus, reference, 'recorded before the ledger',
    received_at || 'T09:00:00Z'
FROM bank_transfers WHERE received_amount_kurus IS NOT NULL;
INSERT INTO money_events (request_id, kind, amount_kurus, note, created_at)
SELECT id, 'allocated', investment_kurus, 'recorded before the ledger', updated_at
FROM investment_requests WHERE status = 'allocated';
-- Money that reached escrow for a request that then ended (the attack of issue 12, item 3):
-- it goes on the clearing bank's refund list.
INSERT INTO money_events (request_id, kind, amount_kurus, reference, note, created_at)
SELECT b.request_id, 'escrow_refunded', b.received_amount_kurus, b.reference,
    'received for a request that had ended', r.updated_at
FROM bank_transfers b JOIN investment_requests r ON r.id = b.request_id
WHERE b.received_amount_kurus > 0 AND r.status IN ('cancelled', 'rejected');
-- And what did not match on a request still waiting for its transfer stays as received.

-- New requests start sent or on the waitlist; they move only as the state machine allows,
-- and only as far as the ledger backs them.
CREATE TRIGGER investment_requests_start BEFORE INSERT ON investment_requests
WHEN NEW.status NOT IN ('submitted', 'waitlisted')
BEGIN SELECT RAISE(ABORT, 'a request starts submitted or waitlisted'); END;

CREATE TRIGGER investment_requests_moves BEFORE UPDATE OF status ON investment_requests
WHEN NEW.status <> OLD.status
BEGIN
    SELECT RAISE(ABORT, 'illegal request status move') WHERE NOT (
           (OLD.status = 'waitlisted' AND NEW.status IN ('submitted', 'cancelled', 'lapsed'))
        OR (OLD.status = 'submitted' AND NEW.status IN ('under_review', 'approved', 'rejected', 'cancelled', 'lapsed'))
        OR (OLD.status = 'under_review' AND NEW.status IN ('approved', 'rejected', 'cancelled', 'lapsed'))
        OR (OLD.status = 'approved' AND NEW.status IN ('fee_paid', 'rejected', 'cancelled', 'lapsed'))
        OR (OLD.status = 'fee_paid' AND NEW.status IN ('funded', 'rejected', 'cancelled', 'lapsed', 'refunded'))
        OR (OLD.status = 'funded' AND NEW.status IN ('allocated', 'refunded', 'rejected', 'cancelled')));
    SELECT RAISE(ABORT, 'fee_paid needs the fee in the ledger')
    WHERE NEW.status = 'fee_paid' AND (NEW.fee_paid_at IS NULL OR NOT EXISTS (
        SELECT 1 FROM money_events WHERE request_id = NEW.id AND kind = 'fee_paid'));
    SELECT RAISE(ABORT, 'funded needs the investment received in escrow')
    WHERE NEW.status = 'funded' AND NEW.investment_kurus <> (
        SELECT COALESCE(SUM(CASE kind WHEN 'transfer_received' THEN amount_kurus
                                      WHEN 'escrow_refunded' THEN -amount_kurus ELSE 0 END), 0)
        FROM money_events WHERE request_id = NEW.id);
    SELECT RAISE(ABORT, 'allocated needs the allocation in the ledger')
    WHERE NEW.status = 'allocated' AND NOT EXISTS (
        SELECT 1 FROM money_events WHERE request_id = NEW.id AND kind = 'allocated');
    SELECT RAISE(ABORT, 'an ended request cannot keep money in escrow')
    WHERE NEW.status IN ('refunded', 'rejected', 'cancelled', 'lapsed') AND 0 <> (
        SELECT COALESCE(SUM(CASE kind WHEN 'transfer_received' THEN amount_kurus
                                      WHEN 'escrow_refunded' THEN -amount_kurus ELSE 0 END), 0)
        FROM money_events WHERE request_id = NEW.id);
END;

-- The payer's transfer details are the instruction: the ledger notes it, with the reference.
ALTER TABLE bank_transfers ADD COLUMN payer_iban TEXT NOT NULL DEFAULT '';
CREATE TRIGGER bank_transfers_instructed AFTER INSERT ON bank_transfers
BEGIN
    INSERT INTO money_events (request_id, kind, amount_kurus, reference, actor_user_id, note, created_at)
    SELECT NEW.request_id, 'transfer_instructed', NEW.amount_kurus, NEW.reference, r.user_id,
        'transfer details given', NEW.created_at
    FROM investment_requests r WHERE r.id = NEW.request_id;
END;

-- Rounds: how they close, and the figures staff record beside the ledger's.
ALTER TABLE startups ADD COLUMN round_status TEXT NOT NULL DEFAULT 'open'
    CHECK (round_status IN ('open', 'closing', 'funded', 'failed'));
-- Decided when the close starts, so a restarted close finishes the same way.
ALTER TABLE startups ADD COLUMN close_outcome TEXT CHECK (close_outcome IN ('funded', 'failed'));
-- What was received in escrow when the close started: the base of every share of the round.
ALTER TABLE startups ADD COLUMN closing_total_kurus INTEGER;
ALTER TABLE startups ADD COLUMN closing_started_at TEXT;
ALTER TABLE startups ADD COLUMN closed_at TEXT;
-- The superadmin who closed the round early; NULL when it closed at the end of its period.
ALTER TABLE startups ADD COLUMN closed_by INTEGER REFERENCES users (id);
ALTER TABLE startups ADD COLUMN lead_commitment_kurus INTEGER NOT NULL DEFAULT 0
    CHECK (lead_commitment_kurus >= 0);
ALTER TABLE startups ADD COLUMN outside_raised_kurus INTEGER NOT NULL DEFAULT 0
    CHECK (outside_raised_kurus >= 0);
ALTER TABLE startups ADD COLUMN outside_raised_note TEXT NOT NULL DEFAULT '';
-- The round's post-money valuation: holdings are valued against it.
ALTER TABLE startups ADD COLUMN round_valuation_kurus INTEGER CHECK (round_valuation_kurus > 0);
UPDATE startups SET round_status = 'funded', close_outcome = 'funded' WHERE funded = 1;
CREATE INDEX startups_closing ON startups (round_status, period_ends_on);

-- Raised amounts typed by staff before the ledger are kept, labelled as raised outside the
-- platform; from now on the raised amount and the investor count come from the ledger only.
UPDATE startups SET
    outside_raised_kurus = MAX(0, raised_kurus - (
        SELECT COALESCE(SUM(CASE m.kind WHEN 'transfer_received' THEN m.amount_kurus
                                        WHEN 'escrow_refunded' THEN -m.amount_kurus ELSE 0 END), 0)
        FROM money_events m JOIN investment_requests r ON r.id = m.request_id
        WHERE r.startup_id = startups.id AND r.status IN ('funded', 'allocated'))),
    outside_raised_note = 'recorded before the ledger'
WHERE raised_kurus > 0;
UPDATE startups SET outside_raised_note = '' WHERE outside_raised_kurus = 0;
UPDATE startups SET
    raised_kurus = (
        SELECT COALESCE(SUM(CASE m.kind WHEN 'transfer_received' THEN m.amount_kurus
                                        WHEN 'escrow_refunded' THEN -m.amount_kurus ELSE 0 END), 0)
        FROM money_events m JOIN investment_requests r ON r.id = m.request_id
        WHERE r.startup_id = startups.id AND r.status IN ('funded', 'allocated')),
    investor_count = (
        SELECT COUNT(DISTINCT r.user_id) FROM investment_requests r
        WHERE r.startup_id = startups.id AND r.status IN ('funded', 'allocated'));
UPDATE startups SET completion_pct = raised_kurus * 100 / funding_goal_kurus;

-- The ledger keeps each round's figures: money received in escrow by requests that are in
-- the round (funded or allocated), and how many investors sent it.
CREATE TRIGGER money_events_round_figures AFTER INSERT ON money_events
BEGIN
    UPDATE startups SET
        raised_kurus = (
            SELECT COALESCE(SUM(CASE m.kind WHEN 'transfer_received' THEN m.amount_kurus
                                            WHEN 'escrow_refunded' THEN -m.amount_kurus ELSE 0 END), 0)
            FROM money_events m JOIN investment_requests r ON r.id = m.request_id
            WHERE r.startup_id = startups.id AND r.status IN ('funded', 'allocated')),
        investor_count = (
            SELECT COUNT(DISTINCT r.user_id) FROM investment_requests r
            WHERE r.startup_id = startups.id AND r.status IN ('funded', 'allocated'))
    WHERE id = (SELECT startup_id FROM investment_requests WHERE id = NEW.request_id);
    UPDATE startups SET completion_pct = raised_kurus * 100 / funding_goal_kurus
    WHERE id = (SELECT startup_id FROM investment_requests WHERE id = NEW.request_id);
END;
CREATE TRIGGER investment_requests_round_figures AFTER UPDATE OF status ON investment_requests
WHEN NEW.status <> OLD.status
BEGIN
    UPDATE startups SET
        raised_kurus = (
            SELECT COALESCE(SUM(CASE m.kind WHEN 'transfer_received' THEN m.amount_kurus
                                            WHEN 'escrow_refunded' THEN -m.amount_kurus ELSE 0 END), 0)
            FROM money_events m JOIN investment_requests r ON r.id = m.request_id
            WHERE r.startup_id = startups.id AND r.status IN ('funded', 'allocated')),
        investor_count = (
            SELECT COUNT(DISTINCT r.user_id) FROM investment_requests r
            WHERE r.startup_id = startups.id AND r.status IN ('funded', 'allocated'))
    WHERE id = NEW.startup_id;
    UPDATE startups SET completion_pct = raised_kurus * 100 / funding_goal_kurus
    WHERE id = NEW.startup_id;
END;

-- Valuations staff record after a round, with where they come from.
CREATE TABLE startup_valuations (
    id INTEGER PRIMARY KEY,
    startup_id INTEGER NOT NULL REFERENCES startups (id) ON DELETE CASCADE,
    valuation_kurus INTEGER NOT NULL CHECK (valuation_kurus > 0),
    valued_on TEXT NOT NULL,
    source TEXT NOT NULL,
    recorded_by INTEGER REFERENCES users (id),
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);
CREATE INDEX startup_valuations_latest ON startup_valuations (startup_id, valued_on DESC, id DESC);

-- Mails sent once per request and kind that change no state (payment deadline reminders).
CREATE TABLE request_notices (
    request_id INTEGER NOT NULL REFERENCES investment_requests (id),
    kind TEXT NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (request_id, kind)
);

-- MKK: a rejection stays until the data changes, and a corrected profile after a rejection
-- waits for staff; one identity number per account.
ALTER TABLE mkk_profiles ADD COLUMN previously_rejected INTEGER NOT NULL DEFAULT 0;
ALTER TABLE mkk_profiles ADD COLUMN identity_conflict INTEGER NOT NULL DEFAULT 0;
UPDATE mkk_profiles SET previously_rejected = 1 WHERE status = 'rejected';
-- Numbers already on several accounts: the earliest account keeps it, the others are
-- rejected until staff sort it out.
UPDATE mkk_profiles SET identity_conflict = 1, status = 'rejected', previously_rejected = 1,
    rejection_reason = 'Bu kimlik numarası başka bir hesapta kayıtlı / This identity number is registered on another account'
WHERE EXISTS (SELECT 1 FROM mkk_profiles o WHERE o.id_type = mkk_profiles.id_type
              AND o.identity_number = mkk_profiles.identity_number AND o.user_id < mkk_profiles.user_id);
CREATE UNIQUE INDEX mkk_profiles_identity ON mkk_profiles (id_type, identity_number)
    WHERE identity_conflict = 0;

