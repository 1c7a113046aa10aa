-- Issue 28: onboarding asks for the investment budget in lira, in bands that start at the
-- 100.000 TL minimum ticket, on a platform where every investment is in lira. Budgets given
-- before, in the spec's dollar bands, are kept and marked as dollars ('usd:0-10000'), so they
-- still read as what the member chose; the member picks a lira band when they next save
-- their preferences.
UPDATE users SET budget_range = 'usd:' || budget_range
WHERE budget_range IN ('0-10000', '10000-25000', '25000-100000', '100000-plus');

-- Issue 28: a deleted membership is confirmed by mail; the outbox forgets that mail, and with
-- it the address, once it is sent.
ALTER TABLE outbox ADD COLUMN erase_when_sent INTEGER NOT NULL DEFAULT 0;
