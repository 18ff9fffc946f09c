-- The dice stream's state after a call is kept in the row of the event that records the call,
-- not in the campaign's row: a call that rolls then writes one page fewer (the campaign's row
-- is no longer rewritten by every roll). An event of a call that rolled nothing carries the
-- state of the event before it. A campaign whose newest event carries no state (every event
-- written before this migration, or none yet) still has it in `campaigns.rng_state`.
ALTER TABLE events ADD COLUMN rng TEXT;
