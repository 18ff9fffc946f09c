#!/usr/bin/env python3
"""WAL frames per commit of three layouts of an event log, under four write patterns.

    python3 scripts/event_log_frames.py

Each commit appends one 400-byte event, as every committed Tabletop call does; before the
measured 3,000 commits each of five campaigns gets 200 events. Layouts:
- full index: rowid = number, an index on (campaign, number) (migrations 001-010);
- keyed by campaign: rowid = campaign * 2^32 + number, no index (tried, not taken);
- sparse index: the full index's columns, indexed only where `mark = 1` (migration 011: an event
  is marked when the event numbered before it is not of its campaign, or its number is a
  multiple of 16).
A frame is one page written to the WAL; the count is read from the WAL file's growth (the
automatic checkpoint is off, so the file only grows).
"""
import os, sqlite3, tempfile

LAYOUTS = {
    "full index": (
        "CREATE TABLE events (seq INTEGER PRIMARY KEY, campaign_id INT NOT NULL, body TEXT);"
        "CREATE INDEX events_by_campaign ON events (campaign_id, seq);",
        "INSERT INTO events (seq, campaign_id, body)"
        " VALUES ((SELECT COALESCE(max(seq), 0) + 1 FROM events), ?1, ?2)",
    ),
    "keyed by campaign": (
        "CREATE TABLE events (key INTEGER PRIMARY KEY, body TEXT);",
        "INSERT INTO events (key, body) VALUES (?1 * 4294967296 + COALESCE((SELECT max(key)"
        " FROM events WHERE key BETWEEN ?1 * 4294967296 AND ?1 * 4294967296 + 4294967295)"
        " - ?1 * 4294967296, 0) + 1, ?2)",
    ),
    "sparse index": (
        "CREATE TABLE events (seq INTEGER PRIMARY KEY, campaign_id INT NOT NULL, body TEXT,"
        " mark INT);"
        "CREATE INDEX events_marks ON events (campaign_id, seq) WHERE mark = 1;",
        "INSERT INTO events (seq, campaign_id, body, mark)"
        " VALUES ((SELECT COALESCE(max(seq), 0) + 1 FROM events), ?1, ?2,"
        " CASE WHEN (SELECT campaign_id = ?1 AND (seq + 1) % 16 <> 0 FROM events"
        " WHERE seq = (SELECT max(seq) FROM events)) THEN NULL ELSE 1 END)",
    ),
}

PATTERNS = {
    "only the newest campaign written": lambda i: 5,
    "only an older campaign written": lambda i: 2,
    "two older campaigns in bursts of 300": lambda i: 2 if (i // 300) % 2 == 0 else 4,
    "ten campaigns in turn": lambda i: 1 + i % 10,
}


def frames_per_commit(schema, insert, pattern, n=3000):
    d = tempfile.mkdtemp()
    path = os.path.join(d, "log.sqlite")
    c = sqlite3.connect(path, isolation_level=None)
    c.execute("PRAGMA journal_mode = WAL")
    c.execute("PRAGMA wal_autocheckpoint = 0")
    c.execute("PRAGMA synchronous = NORMAL")
    c.executescript(schema)
    body = "x" * 400

    def append(campaign):
        c.execute("BEGIN IMMEDIATE")
        c.execute(insert, (campaign, body))
        c.execute("COMMIT")

    for campaign in range(1, 6):
        for _ in range(200):
            append(campaign)
    page = c.execute("PRAGMA page_size").fetchone()[0]
    before = os.path.getsize(path + "-wal")
    for i in range(n):
        append(pattern(i))
    return (os.path.getsize(path + "-wal") - before) / (page + 24) / n


print(f"{'':40}" + "".join(f"{name:>20}" for name in LAYOUTS))
for label, pattern in PATTERNS.items():
    row = [frames_per_commit(s, ins, pattern) for s, ins in LAYOUTS.values()]
    print(f"{label:40}" + "".join(f"{v:>20.2f}" for v in row))
