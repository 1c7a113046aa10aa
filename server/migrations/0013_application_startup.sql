-- The startup staff made from an application, so that one click makes one startup.
ALTER TABLE startup_applications ADD COLUMN startup_id INTEGER REFERENCES startups (id) ON DELETE SET NULL;
