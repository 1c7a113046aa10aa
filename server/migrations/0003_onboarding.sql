-- Onboarding answers (boardingFlow 1-5) and the corporate investor's details.

ALTER TABLE users ADD COLUMN company_name TEXT NOT NULL DEFAULT '';
ALTER TABLE users ADD COLUMN tax_office TEXT NOT NULL DEFAULT '';
ALTER TABLE users ADD COLUMN registration_purpose TEXT;
ALTER TABLE users ADD COLUMN budget_range TEXT;
-- Comma-separated interest codes, in the order of the list.
ALTER TABLE users ADD COLUMN interests TEXT NOT NULL DEFAULT '';
ALTER TABLE users ADD COLUMN how_heard TEXT;
ALTER TABLE users ADD COLUMN prior_experience INTEGER;
ALTER TABLE users ADD COLUMN specific_investment INTEGER;
ALTER TABLE users ADD COLUMN specific_startup TEXT NOT NULL DEFAULT '';
-- The first step not yet saved (1-5); 6 once every step is done.
ALTER TABLE users ADD COLUMN onboarding_step INTEGER NOT NULL DEFAULT 1;
ALTER TABLE users ADD COLUMN onboarding_completed_at TEXT;
