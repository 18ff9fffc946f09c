-- The world: places and the ways between them, parties that travel them, and session notes.
-- Every table is keyed by campaign; deleting a campaign deletes its world.

-- Places are documents (description, lighting, terrain, hazards, tags, discovered); the columns
-- beside them are what lookups query.
CREATE TABLE locations (
    campaign_id INTEGER NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
    id          TEXT NOT NULL,
    name        TEXT NOT NULL,
    name_key    TEXT NOT NULL,
    doc         TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    updated_at  TEXT NOT NULL,
    PRIMARY KEY (campaign_id, id)
);
CREATE INDEX locations_by_name ON locations (campaign_id, name_key);

-- A way between two places. Unless one_way, it can be taken in both directions.
CREATE TABLE connections (
    campaign_id INTEGER NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
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

-- Parties: several per campaign, at most one active.
CREATE TABLE parties (
    campaign_id     INTEGER NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
    id              TEXT NOT NULL,
    name            TEXT NOT NULL,
    name_key        TEXT NOT NULL,
    description     TEXT,
    location_id     TEXT,
    leader_id       TEXT,
    active          INTEGER NOT NULL DEFAULT 0,
    elapsed_minutes INTEGER NOT NULL DEFAULT 0,
    created_at      TEXT NOT NULL,
    PRIMARY KEY (campaign_id, id)
);
CREATE INDEX parties_by_name ON parties (campaign_id, name_key);

-- A character belongs to at most one party: the key is the character alone.
CREATE TABLE party_members (
    campaign_id  INTEGER NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
    character_id TEXT NOT NULL,
    party_id     TEXT NOT NULL,
    role         TEXT NOT NULL,
    active       INTEGER NOT NULL DEFAULT 0,
    position     INTEGER NOT NULL,
    PRIMARY KEY (campaign_id, character_id),
    FOREIGN KEY (campaign_id, party_id) REFERENCES parties (campaign_id, id) ON DELETE CASCADE,
    FOREIGN KEY (campaign_id, character_id) REFERENCES characters (campaign_id, id) ON DELETE CASCADE
);
CREATE INDEX party_members_by_party ON party_members (campaign_id, party_id, position);

-- Where each party went. Names are copied so the history reads well after a place is deleted.
CREATE TABLE party_travel (
    seq         INTEGER PRIMARY KEY AUTOINCREMENT,
    campaign_id INTEGER NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
    party_id    TEXT NOT NULL,
    doc         TEXT NOT NULL,
    FOREIGN KEY (campaign_id, party_id) REFERENCES parties (campaign_id, id) ON DELETE CASCADE
);
CREATE INDEX party_travel_by_party ON party_travel (campaign_id, party_id, seq);

-- Session notes. The integer key is the full-text index's rowid.
CREATE TABLE notes (
    rowid       INTEGER PRIMARY KEY AUTOINCREMENT,
    campaign_id INTEGER NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
    id          TEXT NOT NULL,
    content     TEXT NOT NULL,
    tags        TEXT NOT NULL,
    tags_text   TEXT NOT NULL,
    kind        TEXT NOT NULL,
    importance  INTEGER NOT NULL,
    visibility  TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    updated_at  TEXT NOT NULL,
    UNIQUE (campaign_id, id)
);
CREATE INDEX notes_recent ON notes (campaign_id, rowid);
CREATE INDEX notes_by_importance ON notes (campaign_id, importance, rowid);

-- Full text over content and tags, kept in sync by triggers (external-content FTS5 table).
CREATE VIRTUAL TABLE notes_fts USING fts5(
    content, tags_text,
    content = 'notes', content_rowid = 'rowid',
    tokenize = 'unicode61 remove_diacritics 2'
);
CREATE TRIGGER notes_fts_insert AFTER INSERT ON notes BEGIN
    INSERT INTO notes_fts (rowid, content, tags_text) VALUES (new.rowid, new.content, new.tags_text);
END;
CREATE TRIGGER notes_fts_delete AFTER DELETE ON notes BEGIN
    INSERT INTO notes_fts (notes_fts, rowid, content, tags_text)
    VALUES ('delete', old.rowid, old.content, old.tags_text);
END;
CREATE TRIGGER notes_fts_update AFTER UPDATE ON notes BEGIN
    INSERT INTO notes_fts (notes_fts, rowid, content, tags_text)
    VALUES ('delete', old.rowid, old.content, old.tags_text);
    INSERT INTO notes_fts (rowid, content, tags_text) VALUES (new.rowid, new.content, new.tags_text);
END;
