-- The startup staff made from an application, so that one click makes one startup.
ALTER TABLE startup_applications ADD COLUMN startup_id INTEGER REFERENCES startups (id) ON DELETE SET NULL;

-- When investors were told of a startup (its first publication): unpublishing and publishing
-- again does not mail them twice.
ALTER TABLE startups ADD COLUMN announced_at TEXT;
UPDATE startups SET announced_at = created_at WHERE published = 1;

-- The catalogue's common questions answered from indexes alone (counted in the benchmark
-- at 10,000 startups): a sector's page in each order, and the list of cities.
CREATE INDEX startups_sector_tr ON startups (published, sector, sort_key_tr, id);
CREATE INDEX startups_sector_en ON startups (published, sector, sort_key_en, id);
CREATE INDEX startups_sector_recent ON startups (published, sector, created_at DESC, id DESC);
CREATE INDEX startups_city ON startups (published, city);
-- The staff list of every startup, newest first.
CREATE INDEX startups_created ON startups (created_at DESC, id DESC);
