-- Event numbers without AUTOINCREMENT: its `sqlite_sequence` row was one more page written by
-- every committed call. A number is still never handed out twice in a way a reader could see:
-- each new event takes one past both the largest number present and `event_seq_floor.last`,
-- which remembers the largest number when a campaign (and its events) is deleted.
CREATE TABLE event_seq_floor (last INTEGER NOT NULL);
INSERT INTO event_seq_floor (last)
    SELECT max(COALESCE((SELECT seq FROM sqlite_sequence WHERE name = 'events'), 0),
               COALESCE((SELECT max(seq) FROM events), 0));

CREATE TABLE events_next (
    seq         INTEGER PRIMARY KEY,
    campaign_id INTEGER NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
    at          TEXT NOT NULL,
    tool        TEXT NOT NULL,
    args        TEXT NOT NULL,
    rolls       TEXT NOT NULL,
    changes     TEXT NOT NULL
);
INSERT INTO events_next (seq, campaign_id, at, tool, args, rolls, changes)
    SELECT seq, campaign_id, at, tool, args, rolls, changes FROM events;
DROP TABLE events;
ALTER TABLE events_next RENAME TO events;
CREATE INDEX events_by_campaign ON events (campaign_id, seq);
CREATE TRIGGER events_append_only_update BEFORE UPDATE ON events
BEGIN SELECT RAISE(ABORT, 'the event log is append-only'); END;

-- Deleting a campaign deletes its events: remember the largest number first.
CREATE TRIGGER campaigns_delete_keeps_event_seq BEFORE DELETE ON campaigns
BEGIN
    UPDATE event_seq_floor SET last = max(last, COALESCE((SELECT max(seq) FROM events), 0));
END;
