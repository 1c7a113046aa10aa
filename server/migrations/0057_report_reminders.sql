-- Issue 17 (reports due): an overdue quarterly report is mailed once to the startup's team, its
-- investors and staff; each (startup, quarter) told is kept, so a restart tells nobody twice.
CREATE TABLE report_reminders (
    startup_id INTEGER NOT NULL REFERENCES startups (id),
    quarter TEXT NOT NULL,
    sent_at TEXT NOT NULL,
    PRIMARY KEY (startup_id, quarter)
) WITHOUT ROWID;
