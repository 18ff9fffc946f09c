#!/usr/bin/env python3
"""Checks that the workspace's declared rust-version is honest: no dependency locked in
Cargo.lock (for this host) declares a newer rust-version than the workspace does.

Usage: scripts/check_rust_version.py   (needs cargo and rustc on PATH)
"""
import json
import pathlib
import subprocess
import sys


def version(s):
    parts = [int(x) for x in s.split(".")]
    return tuple(parts + [0] * (3 - len(parts)))


def shown(v):
    return ".".join(map(str, v))


root = pathlib.Path(__file__).resolve().parent.parent
host = next(
    line.split(": ", 1)[1]
    for line in subprocess.check_output(["rustc", "-vV"], text=True).splitlines()
    if line.startswith("host: ")
)
meta = json.loads(
    subprocess.check_output(
        ["cargo", "metadata", "--format-version", "1", "--locked", "--filter-platform", host],
        cwd=root,
        text=True,
    )
)
ours = set(meta["workspace_members"])
declared = {version(p["rust_version"]) for p in meta["packages"] if p["id"] in ours and p.get("rust_version")}
if len(declared) != 1:
    sys.exit(f"every workspace crate should inherit one rust-version, found {sorted(declared)}")
msrv = declared.pop()
needs = sorted(
    (
        (version(p["rust_version"]), p["name"], p["version"])
        for p in meta["packages"]
        if p["id"] not in ours and p.get("rust_version")
    ),
    reverse=True,
)
too_new = [n for n in needs if n[0] > msrv]
for need, name, ver in too_new:
    print(f"{name} {ver} needs Rust {shown(need)}, above rust-version {shown(msrv)}", file=sys.stderr)
if too_new:
    sys.exit(1)
top = f"{needs[0][1]} {needs[0][2]} (Rust {shown(needs[0][0])})" if needs else "none"
print(f"rust-version {shown(msrv)} is honest: the most demanding locked dependency is {top}")
