-- Issue 26: the rules around the money follow verified data, and escrow receipts come from the
-- clearing bank's statement.
--
-- * An MKK record keeps what staff (or the e-government check) verified beside what the member
--   last typed: the class, identity and income the yearly limit follows. A change waits for
--   review and lifts nothing meanwhile.
-- * Each request keeps the verified snapshot it was made under (class, identity, limit), so the
--   limit is counted per identity across accounts.
-- * Once a request exists, the identity is locked: only a superadmin's unlock (audited) lets
--   the member send a corrected one. Every identity an account held is kept.
-- * Requests move forward only for investors whose MKK data is verified and not rejected.
-- * Staff may reject or cancel a waitlisted request.
-- * Bank statements (camt.053, MT940) are imported line by line; typed receipts need a
--   second superadmin.

ALTER TABLE mkk_profiles ADD COLUMN verified_investor_type TEXT
    CHECK (verified_investor_type IN ('individual', 'corporate'));
ALTER TABLE mkk_profiles ADD COLUMN verified_id_type TEXT;
ALTER TABLE mkk_profiles ADD COLUMN verified_identity_number TEXT;
ALTER TABLE mkk_profiles ADD COLUMN verified_income_kurus INTEGER;
-- The investor's name as verified ("first last", or the organisation): the payer must match it.
ALTER TABLE mkk_profiles ADD COLUMN verified_name TEXT;
ALTER TABLE mkk_profiles ADD COLUMN verified_at TEXT;
-- A superadmin allowed one change of a locked identity; the next save uses it up.
ALTER TABLE mkk_profiles ADD COLUMN identity_unlocked_by INTEGER REFERENCES users (id);

UPDATE mkk_profiles SET verified_investor_type = investor_type, verified_id_type = id_type,
    verified_identity_number = identity_number, verified_income_kurus = annual_income_kurus,
    verified_name = CASE investor_type WHEN 'corporate' THEN organisation
                                       ELSE first_name || ' ' || last_name END,
    verified_at = COALESCE(reviewed_at, submitted_at)
WHERE status = 'verified';

-- Whatever sets a record verified (staff's review, the e-government check) verifies exactly
-- what the record holds at that moment.
CREATE TRIGGER mkk_profiles_verified_insert AFTER INSERT ON mkk_profiles
WHEN NEW.status = 'verified'
BEGIN
    UPDATE mkk_profiles SET verified_investor_type = NEW.investor_type, verified_id_type = NEW.id_type,
        verified_identity_number = NEW.identity_number, verified_income_kurus = NEW.annual_income_kurus,
        verified_name = CASE NEW.investor_type WHEN 'corporate' THEN NEW.organisation
                                               ELSE NEW.first_name || ' ' || NEW.last_name END,
        verified_at = COALESCE(NEW.reviewed_at, NEW.submitted_at)
    WHERE user_id = NEW.user_id;
END;
CREATE TRIGGER mkk_profiles_verified_update AFTER UPDATE ON mkk_profiles
WHEN NEW.status = 'verified' AND (OLD.status <> 'verified'
    OR NEW.investor_type IS NOT OLD.investor_type OR NEW.id_type IS NOT OLD.id_type
    OR NEW.identity_number IS NOT OLD.identity_number
    OR NEW.annual_income_kurus IS NOT OLD.annual_income_kurus
    OR NEW.first_name IS NOT OLD.first_name OR NEW.last_name IS NOT OLD.last_name
    OR NEW.organisation IS NOT OLD.organisation)
BEGIN
    UPDATE mkk_profiles SET verified_investor_type = NEW.investor_type, verified_id_type = NEW.id_type,
        verified_identity_number = NEW.identity_number, verified_income_kurus = NEW.annual_income_kurus,
        verified_name = CASE NEW.investor_type WHEN 'corporate' THEN NEW.organisation
                                               ELSE NEW.first_name || ' ' || NEW.last_name END,
        verified_at = COALESCE(NEW.reviewed_at, NEW.submitted_at)
    WHERE user_id = NEW.user_id;
END;

-- Every identity an account held, from the moment it was sent.
CREATE TABLE identity_history (
    id INTEGER PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    investor_type TEXT NOT NULL,
    id_type TEXT NOT NULL,
    identity_number TEXT NOT NULL,
    recorded_at TEXT NOT NULL,
    -- The superadmin whose unlock allowed this change (NULL: the first identity, or no request
    -- existed yet).
    unlocked_by INTEGER REFERENCES users (id)
);
CREATE INDEX identity_history_user ON identity_history (user_id, id);
CREATE INDEX identity_history_identity ON identity_history (id_type, identity_number);
INSERT INTO identity_history (user_id, investor_type, id_type, identity_number, recorded_at)
SELECT user_id, investor_type, id_type, identity_number, submitted_at FROM mkk_profiles;
CREATE TRIGGER identity_history_no_update BEFORE UPDATE ON identity_history
BEGIN SELECT RAISE(ABORT, 'the identity history cannot be changed'); END;

CREATE TRIGGER mkk_identity_recorded AFTER INSERT ON mkk_profiles
BEGIN
    INSERT INTO identity_history (user_id, investor_type, id_type, identity_number, recorded_at)
    VALUES (NEW.user_id, NEW.investor_type, NEW.id_type, NEW.identity_number, NEW.submitted_at);
END;
CREATE TRIGGER mkk_identity_changed AFTER UPDATE ON mkk_profiles
WHEN NEW.investor_type <> OLD.investor_type OR NEW.id_type <> OLD.id_type
    OR NEW.identity_number <> OLD.identity_number
BEGIN
    INSERT INTO identity_history (user_id, investor_type, id_type, identity_number, recorded_at, unlocked_by)
    VALUES (NEW.user_id, NEW.investor_type, NEW.id_type, NEW.identity_number, NEW.submitted_at,
            OLD.identity_unlocked_by);
END;

-- Once the account sent a request, its identity changes only after a superadmin's unlock.
CREATE TRIGGER mkk_identity_locked BEFORE UPDATE ON mkk_profiles
WHEN (NEW.investor_type <> OLD.investor_type OR NEW.id_type <> OLD.id_type
      OR NEW.identity_number <> OLD.identity_number)
    AND OLD.identity_unlocked_by IS NULL
    AND EXISTS (SELECT 1 FROM investment_requests WHERE user_id = OLD.user_id)
BEGIN SELECT RAISE(ABORT, 'the identity is locked once a request exists'); END;

-- What each request was made under: the verified class and identity, and the yearly limit
-- then (NULL: not capped).
ALTER TABLE investment_requests ADD COLUMN investor_class TEXT
    CHECK (investor_class IN ('individual', 'corporate', 'qualified'));
ALTER TABLE investment_requests ADD COLUMN identity_key TEXT;
ALTER TABLE investment_requests ADD COLUMN limit_kurus INTEGER;
CREATE INDEX investment_requests_identity ON investment_requests (identity_key, created_at);
UPDATE investment_requests SET
    identity_key = (SELECT m.id_type || ':' || m.identity_number FROM mkk_profiles m
                    WHERE m.user_id = investment_requests.user_id),
    investor_class = (SELECT CASE
        WHEN EXISTS (SELECT 1 FROM qualified_declarations q
                     WHERE q.user_id = m.user_id AND q.status = 'verified') THEN 'qualified'
        ELSE m.investor_type END
        FROM mkk_profiles m WHERE m.user_id = investment_requests.user_id);

-- An identity under which another account invested cannot be registered again.
CREATE TRIGGER mkk_identity_used_elsewhere_insert BEFORE INSERT ON mkk_profiles
WHEN EXISTS (SELECT 1 FROM investment_requests
             WHERE identity_key = NEW.id_type || ':' || NEW.identity_number AND user_id <> NEW.user_id)
BEGIN SELECT RAISE(ABORT, 'another account invested under this identity'); END;
CREATE TRIGGER mkk_identity_used_elsewhere_update BEFORE UPDATE ON mkk_profiles
WHEN (NEW.id_type <> OLD.id_type OR NEW.identity_number <> OLD.identity_number)
    AND EXISTS (SELECT 1 FROM investment_requests
                WHERE identity_key = NEW.id_type || ':' || NEW.identity_number AND user_id <> NEW.user_id)
BEGIN SELECT RAISE(ABORT, 'another account invested under this identity'); END;

-- A request moves forward to approval and to an allocation only for an investor whose MKK data
-- is verified and not rejected (a rejection holds the member's open requests).
CREATE TRIGGER investment_requests_verified_investor BEFORE UPDATE OF status ON investment_requests
WHEN NEW.status <> OLD.status AND NEW.status IN ('approved', 'allocated')
BEGIN
    SELECT RAISE(ABORT, 'the investor''s MKK data is not verified')
    WHERE NOT EXISTS (SELECT 1 FROM mkk_profiles m WHERE m.user_id = NEW.user_id
                      AND m.verified_at IS NOT NULL AND m.status <> 'rejected');
END;

-- Staff may reject a waitlisted request (the attack of issue 26, item 2): the state machine
-- gains waitlisted -> rejected. Everything else is as 0020 wrote it.
DROP TRIGGER investment_requests_moves;
CREATE TRIGGER investment_requests_moves BEFORE UPDATE OF status ON investment_requests
WHEN NEW.status <> OLD.status
BEGIN
    SELECT RAISE(ABORT, 'illegal request status move') WHERE NOT (
           (OLD.status = 'waitlisted' AND NEW.status IN ('submitted', 'rejected', 'cancelled', 'lapsed'))
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

-- The payer declared the IBAN is in their own name (refunds go back to it).
ALTER TABLE bank_transfers ADD COLUMN iban_own_declared_at TEXT;

-- The clearing bank's statements, as imported by a superadmin, and each line's outcome. A
-- line funds a request only when its reference, exact amount and payer match; anything else is
-- flagged for a person and moves no money.
CREATE TABLE bank_statements (
    id INTEGER PRIMARY KEY,
    format TEXT NOT NULL CHECK (format IN ('camt053', 'mt940')),
    -- The bank's own identifier of the statement.
    statement_ref TEXT NOT NULL,
    account TEXT NOT NULL,
    -- The same file imported twice is refused.
    sha256 TEXT NOT NULL UNIQUE,
    imported_by INTEGER REFERENCES users (id) ON DELETE SET NULL,
    imported_at TEXT NOT NULL
);
CREATE TABLE statement_lines (
    id INTEGER PRIMARY KEY,
    statement_id INTEGER NOT NULL REFERENCES bank_statements (id),
    booked_on TEXT NOT NULL,
    -- Credits positive, debits negative.
    amount_kurus INTEGER NOT NULL,
    -- The remittance text as the bank gave it.
    remittance TEXT NOT NULL DEFAULT '',
    payer_name TEXT NOT NULL DEFAULT '',
    payer_iban TEXT NOT NULL DEFAULT '',
    -- The bank's reference of the entry: one entry is recorded once, whichever file holds it.
    bank_reference TEXT NOT NULL DEFAULT '',
    request_id INTEGER REFERENCES investment_requests (id),
    outcome TEXT NOT NULL CHECK (outcome IN ('matched', 'returned', 'unknown_reference',
        'amount_mismatch', 'payer_mismatch', 'debit', 'duplicate')),
    -- A person looked at a flagged line and said what became of it.
    resolved_by INTEGER REFERENCES users (id) ON DELETE SET NULL,
    resolved_at TEXT,
    resolution TEXT
);
CREATE INDEX statement_lines_statement ON statement_lines (statement_id, id);
CREATE INDEX statement_lines_open ON statement_lines (outcome, resolved_at);
CREATE UNIQUE INDEX statement_lines_once ON statement_lines (bank_reference)
    WHERE bank_reference <> '' AND outcome <> 'duplicate';
CREATE TRIGGER statement_lines_no_delete BEFORE DELETE ON statement_lines
BEGIN SELECT RAISE(ABORT, 'statement lines cannot be deleted'); END;

-- A receipt typed by a superadmin (a statement the bank sent another way): it records nothing
-- until a second superadmin confirms it.
CREATE TABLE typed_receipts (
    id INTEGER PRIMARY KEY,
    request_id INTEGER NOT NULL REFERENCES investment_requests (id),
    amount_kurus INTEGER NOT NULL CHECK (amount_kurus > 0),
    received_on TEXT NOT NULL,
    note TEXT NOT NULL CHECK (length(note) > 0),
    proposed_by INTEGER NOT NULL REFERENCES users (id),
    proposed_at TEXT NOT NULL,
    confirmed_by INTEGER REFERENCES users (id),
    confirmed_at TEXT,
    CHECK (confirmed_by IS NULL OR confirmed_by <> proposed_by)
);
CREATE INDEX typed_receipts_request ON typed_receipts (request_id);
CREATE TRIGGER typed_receipts_confirmed_once BEFORE UPDATE ON typed_receipts
WHEN OLD.confirmed_by IS NOT NULL
BEGIN SELECT RAISE(ABORT, 'a confirmed receipt cannot change'); END;
