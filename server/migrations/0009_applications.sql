-- What visitors and members send through the forms, kept for staff.

CREATE TABLE contact_messages (
    id INTEGER PRIMARY KEY,
    user_id INTEGER REFERENCES users (id) ON DELETE SET NULL,
    name TEXT NOT NULL,
    email TEXT NOT NULL,
    phone TEXT NOT NULL,
    subject TEXT NOT NULL,
    message TEXT NOT NULL,
    language TEXT NOT NULL,
    handled_at TEXT,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);

CREATE TABLE gsyf_applications (
    id INTEGER PRIMARY KEY,
    user_id INTEGER REFERENCES users (id) ON DELETE SET NULL,
    email TEXT NOT NULL,
    first_name TEXT NOT NULL,
    last_name TEXT NOT NULL,
    phone TEXT NOT NULL,
    fund_type TEXT NOT NULL,
    investment_range TEXT NOT NULL,
    language TEXT NOT NULL,
    handled_at TEXT,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);

CREATE TABLE academy_events (
    id INTEGER PRIMARY KEY,
    title_tr TEXT NOT NULL,
    title_en TEXT NOT NULL,
    starts_at TEXT NOT NULL,
    published INTEGER NOT NULL DEFAULT 1
);

CREATE TABLE academy_applications (
    id INTEGER PRIMARY KEY,
    event_id INTEGER NOT NULL REFERENCES academy_events (id),
    email TEXT NOT NULL,
    name TEXT NOT NULL,
    institution TEXT NOT NULL,
    phone TEXT NOT NULL,
    city TEXT NOT NULL,
    linkedin TEXT NOT NULL,
    invested_before INTEGER NOT NULL,
    budget TEXT NOT NULL,
    heard_from TEXT NOT NULL,
    note TEXT NOT NULL,
    language TEXT NOT NULL,
    handled_at TEXT,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);
