-- A sparse index of the event log. Every committed call appends one event; the full index by
-- campaign made that two B-tree inserts and two pages written per call, the index's page being
-- half of what a roll wrote to the WAL.
--
-- Now only marked events are indexed (`mark = 1`): an event is marked when the event before it
-- (number minus one) is not of its campaign, or when its number is a multiple of 16. So an
-- unmarked event always follows an event of its own campaign, and a campaign's events after its
-- newest mark are the next numbers, fewer than 16 of them. A campaign played alone writes the
-- index once in 16 events; campaigns written in turn mark every event, as before.
--
-- Deleting a campaign now finds its events by reading the log through (the foreign key's cascade
-- cannot use a partial index): a rare call, against a page more on every call.
--
-- Every event already stored is marked (the column's default): marking more than the rule asks
-- is always right.
ALTER TABLE events ADD COLUMN mark INTEGER DEFAULT 1;
CREATE INDEX events_marks ON events (campaign_id, seq) WHERE mark = 1;
DROP INDEX events_by_campaign;
