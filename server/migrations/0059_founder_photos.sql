-- A founder's photo (issue 14). Kept by the founder's name, so it survives the editor
-- rewriting the founders' list; its WebP variants are under DATA/startup-images like logos.
CREATE TABLE founder_photos (
    startup_id INTEGER NOT NULL REFERENCES startups (id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    photo TEXT NOT NULL CHECK (length(photo) = 32 AND photo NOT GLOB '*[^0-9a-f]*'),
    PRIMARY KEY (startup_id, name)
) WITHOUT ROWID;
