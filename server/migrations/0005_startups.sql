-- Funds, startups and what investors keep of them.

CREATE TABLE funds (
    id INTEGER PRIMARY KEY,
    slug TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    description_tr TEXT NOT NULL DEFAULT '',
    description_en TEXT NOT NULL DEFAULT '',
    website TEXT NOT NULL DEFAULT ''
);

CREATE TABLE startups (
    id INTEGER PRIMARY KEY,
    slug TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    -- Byte order of these keys is the alphabetical order in each language (app::domain::collation).
    sort_key_tr TEXT NOT NULL,
    sort_key_en TEXT NOT NULL,
    sector TEXT NOT NULL,
    subcategory TEXT NOT NULL DEFAULT '',
    fund_id INTEGER NOT NULL REFERENCES funds (id),
    country TEXT NOT NULL DEFAULT 'Türkiye',
    city TEXT NOT NULL,
    description_tr TEXT NOT NULL,
    description_en TEXT NOT NULL,
    website TEXT NOT NULL DEFAULT '',
    instagram TEXT NOT NULL DEFAULT '',
    twitter TEXT NOT NULL DEFAULT '',
    youtube TEXT NOT NULL DEFAULT '',
    team_size INTEGER NOT NULL DEFAULT 0,
    established_on TEXT,
    stage TEXT NOT NULL,
    monthly_income_kurus INTEGER,
    monthly_expense_kurus INTEGER,
    valuation_usd INTEGER,
    amount_sought_usd INTEGER,
    funding_goal_kurus INTEGER NOT NULL CHECK (funding_goal_kurus > 0),
    raised_kurus INTEGER NOT NULL DEFAULT 0 CHECK (raised_kurus >= 0),
    investor_count INTEGER NOT NULL DEFAULT 0,
    -- Whole percent of the goal raised, kept in step with raised_kurus for filtering.
    completion_pct INTEGER NOT NULL DEFAULT 0,
    funded INTEGER NOT NULL DEFAULT 0,
    period_kind TEXT NOT NULL CHECK (period_kind IN ('investment', 'pre_investment')),
    period_starts_on TEXT NOT NULL,
    period_ends_on TEXT NOT NULL,
    published INTEGER NOT NULL DEFAULT 1,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);
CREATE INDEX startups_recent ON startups (published, created_at DESC, id DESC);
CREATE INDEX startups_name_tr ON startups (published, sort_key_tr, id);
CREATE INDEX startups_name_en ON startups (published, sort_key_en, id);
CREATE INDEX startups_fund ON startups (fund_id);
CREATE INDEX startups_sector ON startups (sector);

-- The twelve analysis sections, Markdown in both languages.
CREATE TABLE startup_sections (
    startup_id INTEGER NOT NULL REFERENCES startups (id) ON DELETE CASCADE,
    section TEXT NOT NULL,
    body_tr TEXT NOT NULL,
    body_en TEXT NOT NULL,
    PRIMARY KEY (startup_id, section)
);

CREATE TABLE founders (
    id INTEGER PRIMARY KEY,
    startup_id INTEGER NOT NULL REFERENCES startups (id) ON DELETE CASCADE,
    position_order INTEGER NOT NULL,
    name TEXT NOT NULL,
    title TEXT NOT NULL,
    linkedin TEXT NOT NULL DEFAULT ''
);
CREATE INDEX founders_startup ON founders (startup_id, position_order);

CREATE TABLE favorites (
    user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    startup_id INTEGER NOT NULL REFERENCES startups (id) ON DELETE CASCADE,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    PRIMARY KEY (user_id, startup_id)
);
CREATE INDEX favorites_startup ON favorites (startup_id);
