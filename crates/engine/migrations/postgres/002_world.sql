-- PostgreSQL dialect of ../002_world.sql. Flags are BOOLEAN. Notes carry their full-text index
-- in two columns the store fills (SQLite keeps it in the notes_fts virtual table instead).
CREATE TABLE locations (
    campaign_id BIGINT NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
    id          TEXT NOT NULL,
    name        TEXT NOT NULL,
    name_key    TEXT NOT NULL,
    doc         TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    updated_at  TEXT NOT NULL,
    PRIMARY KEY (campaign_id, id)
);
CREATE INDEX locations_by_name ON locations (campaign_id, name_key);

CREATE TABLE connections (
    campaign_id BIGINT NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
    id          TEXT NOT NULL,
    from_id     TEXT NOT NULL,
    to_id       TEXT NOT NULL,
    doc         TEXT NOT NULL,
    PRIMARY KEY (campaign_id, id),
    FOREIGN KEY (campaign_id, from_id) REFERENCES locations (campaign_id, id) ON DELETE CASCADE,
    FOREIGN KEY (campaign_id, to_id) REFERENCES locations (campaign_id, id) ON DELETE CASCADE
);
CREATE INDEX connections_from ON connections (campaign_id, from_id);
CREATE INDEX connections_to ON connections (campaign_id, to_id);

CREATE TABLE parties (
    campaign_id     BIGINT NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
    id              TEXT NOT NULL,
    name            TEXT NOT NULL,
    name_key        TEXT NOT NULL,
    description     TEXT,
    location_id     TEXT,
    leader_id       TEXT,
    active          BOOLEAN NOT NULL DEFAULT FALSE,
    elapsed_minutes BIGINT NOT NULL DEFAULT 0,
    created_at      TEXT NOT NULL,
    PRIMARY KEY (campaign_id, id)
);
CREATE INDEX parties_by_name ON parties (campaign_id, name_key);

CREATE TABLE party_members (
    campaign_id  BIGINT NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
    character_id TEXT NOT NULL,
    party_id     TEXT NOT NULL,
    role         TEXT NOT NULL,
    active       BOOLEAN NOT NULL DEFAULT FALSE,
    position     BIGINT NOT NULL,
    PRIMARY KEY (campaign_id, character_id),
    FOREIGN KEY (campaign_id, party_id) REFERENCES parties (campaign_id, id) ON DELETE CASCADE,
    FOREIGN KEY (campaign_id, character_id) REFERENCES characters (campaign_id, id) ON DELETE CASCADE
);
CREATE INDEX party_members_by_party ON party_members (campaign_id, party_id, position);

CREATE TABLE party_travel (
    seq         BIGSERIAL PRIMARY KEY,
    campaign_id BIGINT NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
    party_id    TEXT NOT NULL,
    doc         TEXT NOT NULL,
    FOREIGN KEY (campaign_id, party_id) REFERENCES parties (campaign_id, id) ON DELETE CASCADE
);
CREATE INDEX party_travel_by_party ON party_travel (campaign_id, party_id, seq);

-- fts holds the words of content and tags (folded like SQLite's unicode61 tokenizer with
-- remove_diacritics 2: lower case, no accents) and fts_tokens their count, which the store's
-- BM25 ranking needs.
CREATE TABLE notes (
    rowid       BIGSERIAL PRIMARY KEY,
    campaign_id BIGINT NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
    id          TEXT NOT NULL,
    content     TEXT NOT NULL,
    tags        TEXT NOT NULL,
    tags_text   TEXT NOT NULL,
    kind        TEXT NOT NULL,
    importance  BIGINT NOT NULL,
    visibility  TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    updated_at  TEXT NOT NULL,
    fts         TSVECTOR NOT NULL,
    fts_tokens  BIGINT NOT NULL,
    UNIQUE (campaign_id, id)
);
CREATE INDEX notes_recent ON notes (campaign_id, rowid);
CREATE INDEX notes_by_importance ON notes (campaign_id, importance, rowid);
CREATE INDEX notes_fts ON notes USING GIN (fts);
