-- Startups' history (accelerators, earlier rounds), presentation pages and quarterly reports.

CREATE TABLE startup_accelerators (
    id INTEGER PRIMARY KEY,
    startup_id INTEGER NOT NULL REFERENCES startups (id) ON DELETE CASCADE,
    attended_on TEXT NOT NULL,
    program TEXT NOT NULL,
    country TEXT NOT NULL
);
CREATE INDEX startup_accelerators_startup ON startup_accelerators (startup_id);

CREATE TABLE startup_prior_rounds (
    id INTEGER PRIMARY KEY,
    startup_id INTEGER NOT NULL REFERENCES startups (id) ON DELETE CASCADE,
    raised_on TEXT NOT NULL,
    investors TEXT NOT NULL,
    amount_usd INTEGER NOT NULL
);
CREATE INDEX startup_prior_rounds_startup ON startup_prior_rounds (startup_id);

-- Presentation pages: images under DATA/presentations, shown to members only.
CREATE TABLE startup_pages (
    startup_id INTEGER NOT NULL REFERENCES startups (id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    file_name TEXT NOT NULL,
    content_type TEXT NOT NULL,
    PRIMARY KEY (startup_id, position)
);

-- Quarterly reports: a PDF under DATA/reports and a summary in both languages.
CREATE TABLE reports (
    id INTEGER PRIMARY KEY,
    startup_id INTEGER NOT NULL REFERENCES startups (id) ON DELETE CASCADE,
    quarter TEXT NOT NULL,
    title_tr TEXT NOT NULL,
    title_en TEXT NOT NULL,
    summary_tr TEXT NOT NULL,
    summary_en TEXT NOT NULL,
    file_name TEXT NOT NULL,
    published_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);
CREATE INDEX reports_startup ON reports (startup_id, published_at DESC);
