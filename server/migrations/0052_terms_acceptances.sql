-- Issue 17 (sign-in terms): every acceptance of the membership agreement and the KVKK notice is
-- kept with the text's version and its time, so sign-in can tell whether a member accepted the
-- current version and the member's documents can list what they accepted.
CREATE TABLE acceptances (
    user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    document TEXT NOT NULL CHECK (document IN ('membership-agreement', 'kvkk-notice')),
    version TEXT NOT NULL,
    accepted_at TEXT NOT NULL,
    PRIMARY KEY (user_id, document, version)
) WITHOUT ROWID;

-- Everyone who accepted before versions were recorded accepted the texts Ortak has shipped
-- since its first release, version 2026-11-21.
INSERT INTO acceptances (user_id, document, version, accepted_at)
SELECT id, d.document, '2026-11-21', terms_accepted_at
FROM users, (SELECT 'membership-agreement' AS document UNION ALL SELECT 'kvkk-notice') AS d
WHERE terms_accepted_at IS NOT NULL;
