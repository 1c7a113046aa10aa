-- MKK membership data, investment requests and their history.

CREATE TABLE mkk_profiles (
    user_id INTEGER PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    investor_type TEXT NOT NULL CHECK (investor_type IN ('individual', 'corporate')),
    turkish_citizen INTEGER NOT NULL,
    id_type TEXT NOT NULL CHECK (id_type IN ('tckn', 'ykn', 'vkn')),
    first_name TEXT NOT NULL,
    last_name TEXT NOT NULL,
    email TEXT NOT NULL,
    phone TEXT NOT NULL,
    annual_income_kurus INTEGER NOT NULL,
    identity_number TEXT NOT NULL,
    organisation TEXT NOT NULL DEFAULT '',
    birth_date TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('submitted', 'verified', 'rejected')),
    -- 'edevlet' when the population registry confirmed the identity, 'staff' after review.
    verified_by TEXT,
    rejection_reason TEXT,
    submitted_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    reviewed_at TEXT
);
CREATE INDEX mkk_profiles_status ON mkk_profiles (status);

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
        CHECK (status IN ('submitted', 'under_review', 'approved', 'paid', 'completed', 'rejected', 'cancelled')),
    risk_accepted_at TEXT NOT NULL,
    -- One request per submitted form, however often it is sent.
    idempotency_key TEXT NOT NULL UNIQUE,
    rejection_reason TEXT,
    fee_paid_at TEXT,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);
CREATE INDEX investment_requests_user ON investment_requests (user_id, status, created_at DESC);
CREATE INDEX investment_requests_status ON investment_requests (status, created_at);

CREATE TABLE request_events (
    id INTEGER PRIMARY KEY,
    request_id INTEGER NOT NULL REFERENCES investment_requests (id) ON DELETE CASCADE,
    status TEXT NOT NULL,
    note TEXT NOT NULL DEFAULT '',
    actor_user_id INTEGER REFERENCES users (id),
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);
CREATE INDEX request_events_request ON request_events (request_id, id);
