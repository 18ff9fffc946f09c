-- Access tokens for the HTTP transport. Only a SHA-256 of each token's secret is kept; a token
-- dies with its campaign.
CREATE TABLE access_tokens (
    id           TEXT PRIMARY KEY,
    campaign_id  INTEGER NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
    role         TEXT NOT NULL CHECK (role IN ('dm', 'player')),
    character_id TEXT,
    secret_hash  BLOB NOT NULL,
    label        TEXT,
    created_at   TEXT NOT NULL
);
CREATE INDEX access_tokens_campaign ON access_tokens(campaign_id);
