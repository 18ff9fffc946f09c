#!/usr/bin/env python3
"""Drive `tabletop serve --http` with the independent Python MCP SDK's Streamable HTTP client,
in both protocol modes, with a DM token and a player token.

Usage: python3 scripts/python_http_client.py path/to/tabletop

It makes a campaign with a character, creates a DM and a player token with the CLI, starts the
server on a free loopback port, then for each mode: the DM lists 41 tools and writes a DM-only
note; the player lists only the player tools, reads its sheet, is refused a DM tool and never
sees the DM's note; a missing token gets 401. Exits non-zero on the first failure.
"""

import asyncio
import os
import re
import subprocess
import sys
import tempfile
import urllib.error
import urllib.request

from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client


def check(cond, what):
    if not cond:
        raise SystemExit(f"FAIL: {what}")
    print(f"  ok  {what}")


def client(url: str, token: str, mode: str) -> Client:
    http = create_mcp_http_client(headers={"Authorization": f"Bearer {token}"})
    return Client(streamable_http_client(url, http_client=http), mode=mode)


async def run(url: str, dm: str, player: str, mode: str) -> None:
    print(f"mode {mode}:")
    async with client(url, dm, mode) as c:
        names = [t.name for t in (await c.list_tools()).tools]
        check(len(names) == 41 and "create_encounter" in names, f"DM tools/list ({len(names)} tools)")
        r = await c.call_tool("manage_notes", {"operation": "add", "content": f"SECRET-{mode}", "visibility": "dm"})
        check(not r.is_error, "DM writes a DM-only note")
    async with client(url, player, mode) as c:
        names = [t.name for t in (await c.list_tools()).tools]
        check("create_encounter" not in names and "roll_check" in names, f"player tools/list ({len(names)} tools)")
        r = await c.call_tool("get_character", {})
        check(not r.is_error and "Aria" in r.content[0].text, "player reads its own sheet")
        r = await c.call_tool("create_character", {"name": "Cheat"})
        check(r.is_error and "DM tool" in r.content[0].text, "a DM tool is refused to the player")
        r = await c.call_tool("manage_notes", {"operation": "search", "query": "secret"})
        check(f"SECRET-{mode}" not in r.content[0].text, "the DM's note does not reach the player")
        body = await c.read_resource("tabletop://session")
        check("SECRET" not in body.contents[0].text, "tabletop://session (player view) holds no secret")


def main() -> None:
    exe = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "target/debug/tabletop")
    with tempfile.TemporaryDirectory() as data:
        env = dict(os.environ, TABLETOP_DATA_DIR=data)
        env.pop("TABLETOP_CAMPAIGN", None)

        def cli(*args: str) -> str:
            return subprocess.run([exe, *args], env=env, check=True, capture_output=True, text=True).stdout

        cli("--campaign", "saga", "call", "create_character",
            '{"name":"Aria","class":"fighter","race":"human","characterType":"pc"}')
        dm = cli("--campaign", "saga", "token", "create", "--role", "dm").strip().splitlines()[-1]
        player = cli("--campaign", "saga", "token", "create", "--role", "player", "--character", "Aria").strip().splitlines()[-1]
        srv = subprocess.Popen([exe, "serve", "--http", "127.0.0.1:0"], env=env,
                               stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
        try:
            url = None
            for line in srv.stderr:
                m = re.search(r"MCP over HTTP at (\S+)", line)
                if m:
                    url = m.group(1)
                    break
            check(url is not None, f"server listening at {url}")
            req = urllib.request.Request(url, data=b"{}", method="POST",
                                         headers={"Content-Type": "application/json"})
            try:
                urllib.request.urlopen(req)
                check(False, "no token is refused")
            except urllib.error.HTTPError as e:
                check(e.code == 401 and "Bearer" in e.headers.get("WWW-Authenticate", ""), "no token: 401 with WWW-Authenticate")
            for mode in ("legacy", "auto"):
                asyncio.run(run(url, dm, player, mode))
        finally:
            srv.terminate()
            srv.wait()
    print("python HTTP client: all checks passed")


if __name__ == "__main__":
    main()
