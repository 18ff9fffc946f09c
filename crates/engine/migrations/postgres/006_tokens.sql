-- PostgreSQL dialect of ../006_tokens.sql.
CREATE TABLE access_tokens (
    id           TEXT PRIMARY KEY,
    campaign_id  BIGINT NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
    role         TEXT NOT NULL CHECK (role IN ('dm', 'player')),
    character_id TEXT,
    secret_hash  BYTEA NOT NULL,
    label        TEXT,
    created_at   TEXT NOT NULL
);
CREATE INDEX access_tokens_campaign ON access_tokens(campaign_id);
