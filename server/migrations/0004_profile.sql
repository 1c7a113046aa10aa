-- Investor information (profile tab "investor info").

ALTER TABLE users ADD COLUMN turkish_citizen INTEGER;
ALTER TABLE users ADD COLUMN id_type TEXT CHECK (id_type IN ('tckn', 'ykn', 'vkn'));
ALTER TABLE users ADD COLUMN identity_number TEXT NOT NULL DEFAULT '';
ALTER TABLE users ADD COLUMN annual_income_kurus INTEGER;
ALTER TABLE users ADD COLUMN birth_date TEXT;
