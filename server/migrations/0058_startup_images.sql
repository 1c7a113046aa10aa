-- A startup's logo and cover (issue 14): the name their WebP variants share under
-- DATA/startup-images ({name}-{width}.webp). NULL: the page shows designed initials and no
-- cover. Names are random hex, never a path.
ALTER TABLE startups ADD COLUMN logo TEXT CHECK (logo IS NULL OR (length(logo) = 32 AND logo NOT GLOB '*[^0-9a-f]*'));
ALTER TABLE startups ADD COLUMN cover TEXT CHECK (cover IS NULL OR (length(cover) = 32 AND cover NOT GLOB '*[^0-9a-f]*'));
