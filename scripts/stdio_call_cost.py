#!/usr/bin/env python3
"""Per-call cost of one tool over stdio, lockstep (one request in flight), in the real configuration.

    TABLETOP_SRD_DIR=../shared/srd/2014 python3 scripts/stdio_call_cost.py EXE get|roll|upd|chk|fight N [--valgrind] [--wal-frames]

Creates the SRD-built hill-dwarf cleric 5 through create_character, makes 20 warm-up calls, then N
timed calls; prints round-trip p50/p90, the server's CPU per call (all threads, from
/proc/PID/task/*/schedstat) and the machine's load average. With --valgrind the server runs under
callgrind and the total instruction count divided by N is printed: run it with N=1 and with N=201
and take (total(201) - total(1)) / 200 for the instructions of one call (load-independent).
With --wal-frames the pages each commit wrote to SQLite's WAL are counted from the frame headers
of the `-wal` file before the server exits, over the last 100 commits (keep N ≤ 250: SQLite's
automatic checkpoint starts the file over at 1,000 pages).

`upd` alternates hp -1 and +1 on one character, so its stored text takes two values and every read
finds its resolution kept. `fight` is a fight's pattern: ten such clerics lose 1 HP each ("hp": "-1") in
turn, so every read is of a text the previous write to that character just made (at most 440
calls: each has 48 HP).
"""
import json, os, subprocess, sys, time, tempfile, statistics
exe, w, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
vg = '--valgrind' in sys.argv
d = tempfile.mkdtemp()
env = dict(os.environ)
assert env.get('TABLETOP_SRD_DIR'), 'set TABLETOP_SRD_DIR to the SRD 2014 data (the real configuration)'
cmd = [exe, '--data-dir', d, '--seed', '1', 'serve']
if vg:
    cmd = ['valgrind', '--tool=callgrind', '--callgrind-out-file=%s/cg.out' % d, '--dump-instr=no'] + cmd
p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, text=True)
i = 0
def rpc(method, params=None, notify=False):
    global i
    m = {"jsonrpc": "2.0", "method": method}
    if params is not None: m["params"] = params
    if not notify:
        i += 1; m["id"] = i
    p.stdin.write(json.dumps(m) + "\n"); p.stdin.flush()
    if notify: return None
    while True:
        r = json.loads(p.stdout.readline())
        if r.get("id") == i: return r
def ticks():
    f = open('/proc/%d/stat' % p.pid).read().rsplit(')', 1)[1].split()
    return int(f[11]), int(f[12]), int(f[7])
def cpu():
    t = 0
    for tid in os.listdir('/proc/%d/task' % p.pid):
        try: t += int(open('/proc/%d/task/%s/schedstat' % (p.pid, tid)).read().split()[0])
        except Exception: pass
    return t
rpc("initialize", {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "b", "version": "1"}})
rpc("notifications/initialized", notify=True)
def create(name):
    a = {"name": name, "race": "dwarf", "subrace": "hill dwarf", "class": "cleric", "level": 5, "stats": {"str": 14, "dex": 10, "con": 14, "int": 10, "wis": 15, "cha": 8}}
    r = rpc("tools/call", {"name": "create_character", "arguments": a})
    assert not r["result"].get("isError"), r
create("Bench")
if w == 'fight':
    for j in range(1, 10):
        create("Bench%d" % j)
def args(k):
    if w == 'get': return ("get_character", {"characterName": "Bench"})
    if w == 'roll': return ("roll_dice", {"expression": "4d6kh3"})
    if w == 'upd': return ("update_character", {"characterName": "Bench", "hp": "-1" if k % 2 == 0 else "+1"})
    if w == 'fight': return ("update_character", {"characterName": "Bench%s" % ("" if k % 10 == 0 else k % 10), "hp": "-1"})
    if w == 'chk': return ("roll_check", {"characterName": "Bench", "checkType": "skill", "skill": "stealth", "dc": 12})
# warm-up
for k in range(20):
    t, a = args(k); rpc("tools/call", {"name": t, "arguments": a})
ts = []; c0 = cpu(); u0, s0, f0 = ticks(); size = 0
for k in range(n):
    t, a = args(k)
    s = time.perf_counter(); r = rpc("tools/call", {"name": t, "arguments": a}); ts.append((time.perf_counter() - s) * 1000)
    assert not r["result"].get("isError"), r
    size = len(json.dumps(r))
c1 = cpu(); u1, s1, f1 = ticks()
hwm = [l.split()[1] for l in open('/proc/%d/status' % p.pid) if l.startswith('VmHWM')][0]
frames = ''
if '--wal-frames' in sys.argv:
    import struct
    wal = open(d + '/tabletop.sqlite-wal', 'rb').read()
    page = struct.unpack('>I', wal[8:12])[0]
    commits, cur, off = [], 0, 32
    while off + 24 + page <= len(wal):
        cur += 1
        if struct.unpack('>I', wal[off + 4:off + 8])[0]:  # a commit's last frame
            commits.append(cur); cur = 0
        off += 24 + page
    last = commits[-100:]
    frames = f"  WAL frames per commit {sum(last) / len(last):.2f} (last {len(last)})"
p.stdin.close(); p.wait()
ts.sort()
load = open('/proc/loadavg').read().split()[0]
out = f"{w:<5} n={n} p50 {statistics.median(ts):.3f} ms p90 {ts[int(n*0.9)]:.3f} ms  server CPU {(c1-c0)/n/1e6:.3f} ms/call (user {(u1-u0)/os.sysconf('SC_CLK_TCK')/n*1e3:.3f}, system {(s1-s0)/os.sysconf('SC_CLK_TCK')/n*1e3:.3f})  answer {size} B  page faults/call {(f1-f0)/n:.2f}  peak RSS {int(hwm)/1024:.1f} MB  load {load}"
if vg:
    import glob
    tot = 0
    for f in glob.glob(d + '/cg.out*'):
        for l in open(f):
            if l.startswith('summary:') or l.startswith('totals:'):
                tot = max(tot, int(l.split()[1]))
    out += f"  instructions/call {tot/n:.0f}  profile {d}/cg.out*"
print(out + frames)
