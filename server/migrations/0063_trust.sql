-- Issue 28: a closed round keeps what it had raised and from how many investors (a failed
-- round's ledger moves everything back out, so its page and staff's would otherwise read
-- 0 TL from 0 investors), and a declined application keeps the reason the applicant was told.

ALTER TABLE startups ADD COLUMN closing_investors INTEGER CHECK (closing_investors >= 0);
-- Rounds closed before: the investors whose money the close allocated or sent back.
UPDATE startups SET closing_investors = (
    SELECT COUNT(DISTINCT r.user_id) FROM investment_requests r
    WHERE r.startup_id = startups.id
      AND (r.status = 'allocated'
        OR (startups.round_status = 'failed' AND r.status = 'refunded'
            AND EXISTS (SELECT 1 FROM money_events m WHERE m.request_id = r.id
                        AND m.kind = 'escrow_refunded')))
)
WHERE round_status IN ('funded', 'failed');

ALTER TABLE startup_applications ADD COLUMN decline_reason TEXT;

-- What goes to escrow meets the minimum investment (100.000 TL), whatever the form sent: with
-- the service fee taken out of the amount, the amount must cover both.
CREATE TRIGGER investment_requests_escrow_minimum BEFORE INSERT ON investment_requests
WHEN NEW.investment_kurus < 10000000
BEGIN
    SELECT RAISE(ABORT, 'the investment sent to escrow is below the minimum');
END;
