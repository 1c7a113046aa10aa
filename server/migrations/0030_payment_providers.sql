-- Card payments through a chosen provider (the sandbox or iyzico): at most one open payment
-- per request (enforced here), the provider's own payment id and state, charges whose answer
-- is not known yet, and refunds. `payments` is rebuilt for its new statuses; no table refers to
-- it by foreign key.

CREATE TABLE payments_new (
    id INTEGER PRIMARY KEY,
    -- Random id the provider (iyzico's conversationId) and the browser see.
    public_id TEXT NOT NULL UNIQUE,
    request_id INTEGER NOT NULL REFERENCES investment_requests (id),
    provider TEXT NOT NULL CHECK (provider IN ('sandbox', 'iyzico')),
    amount_kurus INTEGER NOT NULL,
    -- challenge: waiting for 3-D Secure; authorizing: the charge was asked for and its answer
    -- is not known yet (the job resolves it by retrieval); succeeded: charged and counted as
    -- the request's fee; failed: nothing charged; void: closed without counting (the request
    -- stopped being payable, the challenge expired, or the provider's answer was not ours).
    status TEXT NOT NULL
        CHECK (status IN ('challenge', 'authorizing', 'succeeded', 'failed', 'void')),
    -- Only the brand and last four digits of a card are ever kept.
    card_brand TEXT NOT NULL,
    card_last4 TEXT NOT NULL,
    failure_reason TEXT,
    -- The provider's id for the payment (iyzico's paymentId) and its latest word on it.
    provider_payment_id TEXT,
    provider_state TEXT,
    -- The provider took the money. A charged payment that is not `succeeded` is owed back.
    charged INTEGER NOT NULL DEFAULT 0 CHECK (charged IN (0, 1)),
    -- The bank's 3-D Secure page while the challenge is open (cleared when it ends).
    three_ds_page TEXT,
    -- refunding: asked for, answer not recorded yet; refunded; failed: refused, staff settle.
    refund_status TEXT CHECK (refund_status IN ('refunding', 'refunded', 'failed')),
    refund_reference TEXT,
    refund_error TEXT,
    refund_started_at TEXT,
    refunded_at TEXT,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    completed_at TEXT
);

INSERT INTO payments_new (id, public_id, request_id, provider, amount_kurus, status, card_brand,
    card_last4, failure_reason, charged, created_at, updated_at, completed_at)
SELECT id, public_id, request_id, provider, amount_kurus, status, card_brand, card_last4,
    failure_reason, status = 'succeeded', created_at, COALESCE(completed_at, created_at),
    completed_at
FROM payments;

-- What the old code let happen cannot stay under the new index: a second charge of one
-- request is kept as charged but not counted (the refund job gives it back), open challenges
-- of requests no longer payable are voided, and of several open challenges the newest stays.
UPDATE payments_new SET status = 'void',
    failure_reason = 'a second charge for a request already paid: refund due'
WHERE status = 'succeeded' AND EXISTS (
    SELECT 1 FROM payments_new earlier WHERE earlier.request_id = payments_new.request_id
        AND earlier.status = 'succeeded' AND earlier.id < payments_new.id);
UPDATE payments_new SET status = 'void', failure_reason = 'the request is no longer payable'
WHERE status = 'challenge' AND NOT EXISTS (
    SELECT 1 FROM investment_requests r WHERE r.id = payments_new.request_id
        AND r.status = 'approved' AND r.fee_paid_at IS NULL);
UPDATE payments_new SET status = 'void', failure_reason = 'replaced by a newer challenge'
WHERE status = 'challenge' AND EXISTS (
    SELECT 1 FROM payments_new newer WHERE newer.request_id = payments_new.request_id
        AND newer.status = 'challenge' AND newer.id > payments_new.id);

DROP TABLE payments;
ALTER TABLE payments_new RENAME TO payments;

CREATE INDEX payments_request ON payments (request_id);
-- One open (or succeeded) payment per request: a second card post reuses the open one.
CREATE UNIQUE INDEX payments_one_open ON payments (request_id)
    WHERE status IN ('challenge', 'authorizing', 'succeeded');
CREATE UNIQUE INDEX payments_provider_payment ON payments (provider, provider_payment_id)
    WHERE provider_payment_id IS NOT NULL;
-- What the background jobs look for.
CREATE INDEX payments_open ON payments (status, updated_at)
    WHERE status IN ('challenge', 'authorizing');
CREATE INDEX payments_refunds ON payments (refund_status, charged);

-- Cancel and reject void open challenges at once, whichever code path moves the request (the
-- investing layer knows nothing of payments). Only `challenge` rows: an `authorizing` charge is
-- in flight and its outcome lands as `void` + charged (refunded) if the request ended. The time
-- is the request's `updated_at`, written from the injectable clock by every status move.
CREATE TRIGGER payments_void_when_request_ends
AFTER UPDATE OF status ON investment_requests
WHEN NEW.status <> OLD.status AND NEW.status <> 'approved'
BEGIN
    UPDATE payments SET status = 'void', failure_reason = 'the request is no longer payable',
        three_ds_page = NULL, completed_at = NEW.updated_at, updated_at = NEW.updated_at
    WHERE request_id = NEW.id AND status = 'challenge';
END;

-- The sandbox's challenges live in `payments` (status `challenge`); this table was never used.
DROP TABLE sandbox_challenges;
