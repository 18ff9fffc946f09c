#!/usr/bin/env python3
"""Median round trip of committed writes over stdio: python3 scripts/stdio_write_bench.py EXE N (TABLETOP_DATABASE_URL selects PostgreSQL)."""
import json, os, subprocess, sys, time, statistics, tempfile
exe, n = sys.argv[1], int(sys.argv[2])
d = tempfile.mkdtemp()
p = subprocess.Popen([exe, "--data-dir", d, "--campaign", "bench", "serve"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
i = 0
def rpc(method, params=None, notify=False):
    global i
    msg = {"jsonrpc": "2.0", "method": method}
    if params is not None: msg["params"] = params
    if not notify:
        i += 1; msg["id"] = i
    p.stdin.write(json.dumps(msg) + "\n"); p.stdin.flush()
    if notify: return None
    while True:
        r = json.loads(p.stdout.readline())
        if r.get("id") == i: return r
rpc("initialize", {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "b", "version": "1"}})
rpc("notifications/initialized", notify=True)
r = rpc("tools/call", {"name": "create_character", "arguments": {"name": "Brom", "customClass": {"name": "Fighter", "hitDie": 10}, "saves": ["str", "con"], "stats": {"str": 16, "dex": 12, "con": 14, "int": 10, "wis": 12, "cha": 8}}})
assert not r["result"].get("isError"), r
for label, args in [("update_character hp ±1", None), ("roll_dice 4d6kh3", None)]:
    ts = []
    for k in range(n):
        if label.startswith("update"):
            a = {"name": "update_character", "arguments": {"characterName": "Brom", "hp": "-1" if k % 2 == 0 else "+1"}}
        else:
            a = {"name": "roll_dice", "arguments": {"expression": "4d6kh3"}}
        t = time.perf_counter(); r = rpc("tools/call", a); ts.append((time.perf_counter() - t) * 1000)
        assert not r["result"].get("isError"), r
    ts.sort()
    print(f"{label:<24} n={n} median {statistics.median(ts):.3f} ms  p90 {ts[int(n*0.9)]:.3f} ms")
p.stdin.close(); p.wait()
