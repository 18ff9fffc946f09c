-- Campaigns isolate all state. The RNG state is the campaign's dice stream, resumed exactly.
CREATE TABLE campaigns (
    id          INTEGER PRIMARY KEY,
    name        TEXT NOT NULL UNIQUE,
    created_at  TEXT NOT NULL,
    rng_state   TEXT
);

-- Per-campaign counters for short, stable ids ("ch3").
CREATE TABLE counters (
    campaign_id INTEGER NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
    kind        TEXT NOT NULL,
    next        INTEGER NOT NULL,
    PRIMARY KEY (campaign_id, kind)
);

-- Characters are documents; the columns beside them are what lists and filters query.
CREATE TABLE characters (
    campaign_id INTEGER NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
    id          TEXT NOT NULL,
    name        TEXT NOT NULL,
    name_key    TEXT NOT NULL,
    kind        TEXT NOT NULL,
    class_key   TEXT,
    level       INTEGER NOT NULL,
    doc         TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    updated_at  TEXT NOT NULL,
    PRIMARY KEY (campaign_id, id)
);
CREATE INDEX characters_by_name ON characters (campaign_id, name_key);
CREATE INDEX characters_by_filter ON characters (campaign_id, kind, class_key, level);

-- The append-only event log: every mutating call, its arguments, its rolls and what it changed.
CREATE TABLE events (
    seq         INTEGER PRIMARY KEY AUTOINCREMENT,
    campaign_id INTEGER NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
    at          TEXT NOT NULL,
    tool        TEXT NOT NULL,
    args        TEXT NOT NULL,
    rolls       TEXT NOT NULL,
    changes     TEXT NOT NULL
);
CREATE INDEX events_by_campaign ON events (campaign_id, seq);
CREATE TRIGGER events_append_only_update BEFORE UPDATE ON events
BEGIN SELECT RAISE(ABORT, 'the event log is append-only'); END;
