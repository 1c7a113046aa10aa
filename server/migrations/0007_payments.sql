-- Card payments of the service fee and the escrow (clearing-bank) transfer step.

CREATE TABLE payments (
    id INTEGER PRIMARY KEY,
    -- Random id the provider and the browser see.
    public_id TEXT NOT NULL UNIQUE,
    request_id INTEGER NOT NULL REFERENCES investment_requests (id),
    provider TEXT NOT NULL,
    amount_kurus INTEGER NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('challenge', 'succeeded', 'failed')),
    -- Only the brand and last four digits of a card are ever kept.
    card_brand TEXT NOT NULL,
    card_last4 TEXT NOT NULL,
    failure_reason TEXT,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    completed_at TEXT
);
CREATE INDEX payments_request ON payments (request_id);

-- The built-in sandbox provider's pending 3-D Secure challenges.
CREATE TABLE sandbox_challenges (
    payment_public_id TEXT PRIMARY KEY,
    return_url TEXT NOT NULL,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);

CREATE TABLE bank_transfers (
    request_id INTEGER PRIMARY KEY REFERENCES investment_requests (id),
    reference TEXT NOT NULL UNIQUE,
    payer_name TEXT NOT NULL,
    address TEXT NOT NULL,
    country TEXT NOT NULL,
    city TEXT NOT NULL,
    post_code TEXT NOT NULL,
    phone TEXT NOT NULL,
    amount_kurus INTEGER NOT NULL,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    received_at TEXT,
    received_amount_kurus INTEGER
);

-- Secrets generated on first start (e.g. the key that signs payment callbacks).
CREATE TABLE app_secrets (
    name TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
