-- PostgreSQL dialect of ../001_initial.sql (kept in step by the store's schema test: every table
-- and column of the SQLite schema exists here too). Integers are BIGINT (SQLite's INTEGER is
-- 64-bit); timestamps stay RFC 3339 text so both stores answer the same strings.
CREATE TABLE campaigns (
    id          BIGINT PRIMARY KEY,
    name        TEXT NOT NULL UNIQUE,
    created_at  TEXT NOT NULL,
    rng_state   TEXT
);

CREATE TABLE counters (
    campaign_id BIGINT NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
    kind        TEXT NOT NULL,
    next        BIGINT NOT NULL,
    PRIMARY KEY (campaign_id, kind)
);

CREATE TABLE characters (
    campaign_id BIGINT NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
    id          TEXT NOT NULL,
    name        TEXT NOT NULL,
    name_key    TEXT NOT NULL,
    kind        TEXT NOT NULL,
    class_key   TEXT,
    level       BIGINT NOT NULL,
    doc         TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    updated_at  TEXT NOT NULL,
    PRIMARY KEY (campaign_id, id)
);
CREATE INDEX characters_by_name ON characters (campaign_id, name_key);
CREATE INDEX characters_by_filter ON characters (campaign_id, kind, class_key, level);

-- The append-only event log. Writers of one campaign hold its row lock while they append, so a
-- campaign's sequence numbers follow its commit order.
CREATE TABLE events (
    seq         BIGSERIAL PRIMARY KEY,
    campaign_id BIGINT NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
    at          TEXT NOT NULL,
    tool        TEXT NOT NULL,
    args        TEXT NOT NULL,
    rolls       TEXT NOT NULL,
    changes     TEXT NOT NULL
);
CREATE INDEX events_by_campaign ON events (campaign_id, seq);
CREATE FUNCTION events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'the event log is append-only';
END;
$$;
CREATE TRIGGER events_append_only_update BEFORE UPDATE ON events
    FOR EACH ROW EXECUTE FUNCTION events_append_only();
