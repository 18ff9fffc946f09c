-- Encounters: one document each (initiative order, map, economy, log). The status column is
-- what "is there a fight going on" queries read.
CREATE TABLE encounters (
    campaign_id INTEGER NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
    id          TEXT NOT NULL,
    name        TEXT NOT NULL,
    status      TEXT NOT NULL,
    doc         TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    updated_at  TEXT NOT NULL,
    PRIMARY KEY (campaign_id, id)
);
CREATE INDEX encounters_by_status ON encounters (campaign_id, status);
