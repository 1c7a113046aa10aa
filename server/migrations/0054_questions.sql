-- Issue 17 (questions and founders): members ask about a startup, its founders or its fund's
-- team answer, every member reads the thread, staff hide a question with a reason.
CREATE TABLE questions (
    id INTEGER PRIMARY KEY,
    startup_id INTEGER NOT NULL REFERENCES startups (id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    body TEXT NOT NULL CHECK (length(body) BETWEEN 1 AND 1000),
    asked_at TEXT NOT NULL,
    answer TEXT CHECK (length(answer) BETWEEN 1 AND 2000),
    answered_by INTEGER REFERENCES users (id) ON DELETE SET NULL,
    answered_at TEXT,
    hidden_reason TEXT,
    hidden_by INTEGER REFERENCES users (id) ON DELETE SET NULL,
    hidden_at TEXT,
    -- An answer comes with its time; a hidden question with its reason and time.
    CHECK ((answer IS NULL) = (answered_at IS NULL)),
    CHECK ((hidden_reason IS NULL) = (hidden_at IS NULL))
);
CREATE INDEX questions_startup ON questions (startup_id, id);

-- Founders staff invited: whoever holds a verified account with this address answers for the
-- startup (the address is the identity, proved by its verification).
CREATE TABLE founder_accounts (
    startup_id INTEGER NOT NULL REFERENCES startups (id) ON DELETE CASCADE,
    email TEXT NOT NULL,
    invited_by INTEGER REFERENCES users (id) ON DELETE SET NULL,
    invited_at TEXT NOT NULL,
    PRIMARY KEY (startup_id, email)
) WITHOUT ROWID;
CREATE INDEX founder_accounts_email ON founder_accounts (email);

-- Who works for a startup on Ortak: its fund's team and its founders with a verified address.
-- They answer its questions, post its updates and reports (`/vc-dashboard`) and read its reports.
CREATE VIEW startup_teams AS
SELECT m.user_id, s.id AS startup_id
FROM fund_members m JOIN startups s ON s.fund_id = m.fund_id
UNION
SELECT u.id, fa.startup_id
FROM founder_accounts fa JOIN users u ON u.email = fa.email
WHERE u.email_verified_at IS NOT NULL AND u.deactivated_at IS NULL;
