-- Times are UTC, stored as RFC 3339 text ("2026-11-21T09:30:00Z").

CREATE TABLE users (
    id INTEGER PRIMARY KEY,
    email TEXT NOT NULL UNIQUE,
    password_hash TEXT,
    first_name TEXT NOT NULL DEFAULT '',
    last_name TEXT NOT NULL DEFAULT '',
    position TEXT NOT NULL DEFAULT '',
    role TEXT NOT NULL DEFAULT 'investor' CHECK (role IN ('investor', 'admin', 'superadmin')),
    language TEXT NOT NULL DEFAULT 'tr' CHECK (language IN ('tr', 'en')),
    email_verified_at TEXT,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);

-- Policies and other standalone pages, both languages side by side.
CREATE TABLE pages (
    slug TEXT PRIMARY KEY,
    kind TEXT NOT NULL CHECK (kind IN ('policy', 'page')),
    title_tr TEXT NOT NULL,
    title_en TEXT NOT NULL,
    description_tr TEXT NOT NULL,
    description_en TEXT NOT NULL,
    body_tr TEXT NOT NULL,
    body_en TEXT NOT NULL,
    updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);

CREATE TABLE faqs (
    id INTEGER PRIMARY KEY,
    position INTEGER NOT NULL,
    question_tr TEXT NOT NULL,
    question_en TEXT NOT NULL,
    answer_tr TEXT NOT NULL,
    answer_en TEXT NOT NULL,
    published INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX faqs_position ON faqs (published, position);

CREATE TABLE blog_posts (
    id INTEGER PRIMARY KEY,
    slug TEXT NOT NULL UNIQUE,
    title_tr TEXT NOT NULL,
    title_en TEXT NOT NULL,
    description_tr TEXT NOT NULL,
    description_en TEXT NOT NULL,
    body_tr TEXT NOT NULL,
    body_en TEXT NOT NULL,
    -- NULL while a draft.
    published_at TEXT,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);
CREATE INDEX blog_posts_published ON blog_posts (published_at);

-- Marketing consent (Law 6563) is recorded with its time and the version of the text shown.
CREATE TABLE newsletter_subscribers (
    id INTEGER PRIMARY KEY,
    email TEXT NOT NULL UNIQUE,
    language TEXT NOT NULL CHECK (language IN ('tr', 'en')),
    consent_text_version TEXT NOT NULL,
    consented_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    source TEXT NOT NULL,
    unsubscribed_at TEXT
);
