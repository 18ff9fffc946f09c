-- A character's derived sheet (every derived value with its sources: most of its text) is kept
-- apart from its document. Nearly every write in play (hit points, conditions, slots, items)
-- leaves the derivation as it was, so only the small document is written again; this row is
-- rewritten only when the derivation changes. A document written before still holds its sheet
-- inside and has no row here until its next write.
CREATE TABLE character_sheets (
    campaign_id INTEGER NOT NULL,
    id          TEXT NOT NULL,
    derived     TEXT NOT NULL,
    PRIMARY KEY (campaign_id, id),
    FOREIGN KEY (campaign_id, id) REFERENCES characters (campaign_id, id) ON DELETE CASCADE
);
