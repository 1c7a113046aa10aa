-- `startup_teams` as UNION ALL: with UNION (which removes duplicates) SQLite could not push a
-- caller's `user_id = ?` into the view and built the whole of it, scanning every user, on every
-- signed-in request (25 ms at 100,000 users). Callers ask EXISTS or IN, or remove duplicates
-- themselves (a fund's team member who is also a founder of one of its startups).
DROP VIEW startup_teams;
CREATE VIEW startup_teams AS
SELECT m.user_id, s.id AS startup_id
FROM fund_members m JOIN startups s ON s.fund_id = m.fund_id
UNION ALL
SELECT u.id, fa.startup_id
FROM founder_accounts fa JOIN users u ON u.email = fa.email
WHERE u.email_verified_at IS NOT NULL AND u.deactivated_at IS NULL;
