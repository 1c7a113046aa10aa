-- Issue 17 (document vault): the documents staff attach to a round (the information form SPK
-- requires on a campaign page, the shareholder agreement, side letters), each upload its own
-- version; which member opened which; and the information form a request was sent under.
CREATE TABLE round_documents (
    id INTEGER PRIMARY KEY,
    startup_id INTEGER NOT NULL REFERENCES startups (id) ON DELETE CASCADE,
    kind TEXT NOT NULL CHECK (kind IN ('information-form', 'shareholder-agreement', 'side-letter')),
    file_name TEXT NOT NULL,
    uploaded_by INTEGER REFERENCES users (id) ON DELETE SET NULL,
    uploaded_at TEXT NOT NULL
);
CREATE INDEX round_documents_startup ON round_documents (startup_id, kind, id);

CREATE TABLE document_views (
    user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    document_id INTEGER NOT NULL REFERENCES round_documents (id) ON DELETE CASCADE,
    opened_at TEXT NOT NULL,
    PRIMARY KEY (user_id, document_id)
) WITHOUT ROWID;

-- The version of the information form the investor opened and accepted with the request.
ALTER TABLE investment_requests ADD COLUMN information_form_id INTEGER REFERENCES round_documents (id);
