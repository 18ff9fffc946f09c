-- Campaign memory (DESIGN §12): quests, NPCs who remember, secrets kept from players (one
-- document each, with the columns lists filter on) and the in-game world clock (one row per
-- campaign).
CREATE TABLE quests (
    campaign_id INTEGER NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
    id          TEXT NOT NULL,
    name        TEXT NOT NULL,
    status      TEXT NOT NULL,
    doc         TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    updated_at  TEXT NOT NULL,
    PRIMARY KEY (campaign_id, id)
);
CREATE INDEX quests_by_status ON quests (campaign_id, status);
CREATE TABLE npcs (
    campaign_id INTEGER NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
    id          TEXT NOT NULL,
    name        TEXT NOT NULL,
    status      TEXT NOT NULL,
    doc         TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    updated_at  TEXT NOT NULL,
    PRIMARY KEY (campaign_id, id)
);
CREATE TABLE secrets (
    campaign_id INTEGER NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
    id          TEXT NOT NULL,
    name        TEXT NOT NULL,
    status      TEXT NOT NULL,
    doc         TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    updated_at  TEXT NOT NULL,
    PRIMARY KEY (campaign_id, id)
);
CREATE INDEX secrets_by_status ON secrets (campaign_id, status);
CREATE TABLE world_clock (
    campaign_id INTEGER PRIMARY KEY REFERENCES campaigns(id) ON DELETE CASCADE,
    seconds     INTEGER NOT NULL,
    doc         TEXT NOT NULL
);
