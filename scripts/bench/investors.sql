-- N investors (:N) as a year on Ortak leaves them, for the capacity model's database size per
-- 1,000 investors. A scratch copy: its triggers are dropped, as rows are written in their final
-- state rather than walked through their moves.
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < :N)
INSERT INTO users (email, password_hash, first_name, last_name, position, role, language,
    email_verified_at, phone, country, city, investor_type, terms_accepted_at, last_sign_in_at,
    session_epoch, registration_purpose, budget_range, interests, how_heard, prior_experience,
    onboarding_step, onboarding_completed_at, turkish_citizen, id_type, identity_number,
    annual_income_kurus, birth_date)
SELECT printf('yatirimci-%06d@example.com', i),
    '$argon2id$v=19$m=19456,t=2,p=1$' || substr(hex(randomblob(16)), 1, 22) || '$' || substr(hex(randomblob(32)), 1, 43),
    'Ayşe', 'Yılmaz', 'Yatırımcı', 'investor', 'tr', '2026-01-02T09:00:00Z', '+905321234567',
    'Türkiye', 'İstanbul', 'individual', '2026-01-02T09:00:00Z', '2026-11-20T09:00:00Z', 0,
    'invest', '100k-500k', '["fintech","energy","healthcare"]', 'search', 'some', 6,
    '2026-01-02T09:10:00Z', 1, 'tckn', printf('%011d', 10000000000 + i), 90000000000, '1984-02-29'
FROM n;
INSERT INTO mkk_profiles (user_id, investor_type, turkish_citizen, id_type, first_name, last_name,
    email, phone, annual_income_kurus, identity_number, birth_date, status, verified_by, reviewed_at)
SELECT id, 'individual', 1, 'tckn', first_name, last_name, email, phone, annual_income_kurus,
    identity_number, birth_date, 'verified', 'edevlet', '2026-01-03T09:00:00Z'
FROM users WHERE email LIKE 'yatirimci-%';
-- Three requests each, funded: the fee paid by card, the investment transferred to escrow.
WITH RECURSIVE k(j) AS (SELECT 1 UNION ALL SELECT j + 1 FROM k WHERE j < 3)
INSERT INTO investment_requests (user_id, startup_id, kind, amount_kurus, fee_kurus, fee_added,
    investment_kurus, total_kurus, status, risk_accepted_at, idempotency_key, fee_paid_at,
    created_at, updated_at, cancel_until, fee_due_at, transfer_due_at)
SELECT u.id, (SELECT MIN(id) FROM startups) + (u.id * 7 + j) % 1000, 'investment', 25000000,
    625000, 1, 25000000, 25625000, 'funded', '2026-03-01T10:00:00Z',
    substr(hex(randomblob(16)), 1, 22), '2026-03-02T10:00:00Z', '2026-03-01T10:00:00Z',
    '2026-03-04T10:00:00Z', '2026-03-03T10:00:00Z', '2026-03-04T10:00:00Z', '2026-03-07T10:00:00Z'
FROM users u, k WHERE u.email LIKE 'yatirimci-%';
WITH RECURSIVE k(j, s) AS (SELECT 1, 'submitted' UNION ALL SELECT 2, 'under_review'
    UNION ALL SELECT 3, 'approved' UNION ALL SELECT 4, 'fee_paid' UNION ALL SELECT 5, 'funded')
INSERT INTO request_events (request_id, status, note, created_at)
SELECT r.id, k.s, CASE k.j WHEN 4 THEN 'service fee paid by card (payment ' || r.idempotency_key || ')' ELSE '' END,
    '2026-03-01T10:00:00Z' FROM investment_requests r, k;
WITH k(kind, amount) AS (VALUES ('fee_paid', 625000), ('transfer_instructed', 25000000),
    ('transfer_received', 25000000))
INSERT INTO money_events (request_id, kind, amount_kurus, reference, actor_user_id, note, created_at)
SELECT r.id, k.kind, k.amount, 'ORT-' || substr(hex(randomblob(6)), 1, 10), r.user_id,
    'recorded', '2026-03-02T10:00:00Z' FROM investment_requests r, k;
INSERT INTO payments (public_id, request_id, provider, amount_kurus, status, card_brand, card_last4,
    provider_payment_id, provider_state, charged, completed_at)
SELECT substr(hex(randomblob(16)), 1, 22), id, 'iyzico', fee_kurus, 'succeeded', 'MASTER_CARD',
    '4242', 20000000 + id, 'SUCCESS', 1, '2026-03-02T10:00:00Z' FROM investment_requests;
INSERT INTO bank_transfers (request_id, reference, payer_name, address, country, city, post_code,
    phone, amount_kurus, received_at, received_amount_kurus, payer_iban)
SELECT id, 'ORT-' || substr(hex(randomblob(6)), 1, 10), 'Ayşe Yılmaz', 'Bağdat Cd. No: 1 D: 2',
    'Türkiye', 'İstanbul', '34728', '+905321234567', investment_kurus, '2026-03-05T10:00:00Z',
    investment_kurus, 'TR330006100519786457841326' FROM investment_requests;
-- Twelve mails each (sign-up, one per request move, newsletter); bodies emptied after 30 days,
-- so one in twelve still has its body.
WITH RECURSIVE k(j) AS (SELECT 1 UNION ALL SELECT j + 1 FROM k WHERE j < 12)
INSERT INTO outbox (to_email, subject, text_body, html_body, language, status, attempts,
    next_attempt_at, created_at, sent_at)
SELECT u.email, 'Yatırım talebiniz onaylandı',
    CASE WHEN k.j = 12 THEN printf('%.300c', 'x') ELSE '' END,
    CASE WHEN k.j = 12 THEN printf('%.700c', 'x') ELSE '' END, 'tr', 'sent', 1,
    '2026-03-01T10:00:00Z', '2026-03-01T10:00:00Z', '2026-03-01T10:00:01Z'
FROM users u, k WHERE u.email LIKE 'yatirimci-%';
-- Staff decisions on each request are audited (review, approval, transfer received).
WITH RECURSIVE k(j) AS (SELECT 1 UNION ALL SELECT j + 1 FROM k WHERE j < 3)
INSERT INTO audit_log (actor_user_id, action, subject, before, after, created_at)
SELECT 1, 'request.move', 'investment_request:' || r.id, '{"status":"submitted"}',
    '{"status":"approved"}', '2026-03-02T10:00:00Z' FROM investment_requests r, k;
-- One live session each, ten favourites each.
INSERT INTO sessions (id, data, expiry_date)
SELECT substr(hex(randomblob(16)), 1, 22), randomblob(180), 1800000000 FROM users
WHERE email LIKE 'yatirimci-%';
WITH RECURSIVE k(j) AS (SELECT 1 UNION ALL SELECT j + 1 FROM k WHERE j < 10)
INSERT OR IGNORE INTO favorites (user_id, startup_id)
SELECT u.id, (SELECT MIN(id) FROM startups) + (u.id * 13 + j * 101) % 1000
FROM users u, k WHERE u.email LIKE 'yatirimci-%';
