#!/usr/bin/env python3
"""Drive `tabletop serve` with the independent Python MCP SDK, in both protocol modes.

Usage: python3 scripts/python_client.py path/to/tabletop

For each mode (the initialize handshake; 2026-07-28 probed with server/discover; 2026-07-28 pinned) it checks the
declared capabilities, lists tools, calls a tool, a hidden alias and a bad call (expecting
isError), lists and reads a resource, lists and renders a prompt, sets the log level and sends a
bogus pagination cursor (expecting -32602). Then, as a raw newline-delimited JSON-RPC peer, it
sends unreadable lines and bad params and expects an error answer to each (-32700, -32602) and the
server to go on serving. Exits non-zero on the first failure.
"""

import asyncio
import json
import subprocess
import sys
import tempfile

from mcp import Client, StdioServerParameters
from mcp.shared.exceptions import MCPError


def check(cond, what):
    if not cond:
        raise SystemExit(f"FAIL: {what}")
    print(f"  ok  {what}")


async def run(exe: str, mode: str) -> None:
    with tempfile.TemporaryDirectory() as data:
        params = StdioServerParameters(command=exe, args=["--data-dir", data, "--seed", "3", "serve"])
        async with Client(params, mode=mode) as client:
            print(f"mode {mode}:")
            if mode == "auto":
                check(client.protocol_version == "2026-07-28", f"auto picks 2026-07-28 ({client.protocol_version})")
            if mode != "2026-07-28":  # a version pin adopts without asking: no capabilities read
                caps = client.server_capabilities
                check(caps.tools is not None and caps.tools.list_changed, "capabilities: tools with listChanged")
                check(caps.resources is not None and caps.prompts is not None and caps.logging is not None,
                      "capabilities: resources, prompts and logging declared")
            await client.set_logging_level("warning")
            check(True, "logging/setLevel warning accepted")
            try:
                await client.list_tools(cursor="no-such-page", cache_mode="refresh")
                check(False, "a bogus cursor is refused")
            except MCPError as e:
                check(e.error.code == -32602 and "cursor" in e.error.message, f"a bogus cursor is refused: {e.error.message}")
            tools = await client.list_tools()
            names = [t.name for t in tools.tools]
            check("roll_dice" in names and "quick_roll" not in names, f"tools/list ({len(names)} tools, aliases hidden)")

            r = await client.call_tool("roll_dice", {"expression": "4d6kh3"})
            text = r.content[0].text
            check(not r.is_error and "~~" in text, f"roll_dice shows the dropped die: {text}")

            r = await client.call_tool("quick_roll", {"expression": "1d20+2"})
            check(not r.is_error and r.structured_content["total"] >= 3, "hidden alias quick_roll routes to roll_dice")

            r = await client.call_tool("roll_dice", {"expression": "1001d6"})
            check(r.is_error and "1000" in r.content[0].text, f"bad input is a tool error: {r.content[0].text}")

            r = await client.call_tool("create_character", {"name": "Pym", "hp": 9})
            check(not r.is_error, "create_character")

            res = await client.list_resources()
            uris = [str(x.uri) for x in res.resources]
            check("tabletop://characters" in uris, f"resources/list ({len(uris)} resources)")
            sheet = next(u for u in uris if u.startswith("tabletop://characters/"))
            body = await client.read_resource(sheet)
            check("Pym" in body.contents[0].text, f"resources/read {sheet}")
            body = await client.read_resource("tabletop://session")
            check(len(body.contents[0].text) > 0, "resources/read tabletop://session")
            r = await client.call_tool("create_encounter", {"participants": [
                {"characterName": "Pym", "position": {"x": 1, "y": 1}},
                {"name": "Rat", "hp": 2, "ac": 10, "position": {"x": 3, "y": 1}}]})
            check(not r.is_error, "create_encounter")
            uris = [str(x.uri) for x in (await client.list_resources()).resources]
            check("tabletop://encounter" in uris, "the active encounter is listed as a resource")
            body = await client.read_resource("tabletop://encounter")
            check("Pym" in body.contents[0].text, "resources/read tabletop://encounter (the map)")
            body = await client.read_resource("tabletop://encounter/map.png")
            check(body.contents[0].blob.startswith("iVBORw0KGgo"), "resources/read the map as a PNG")
            body = await client.read_resource("tabletop://tools/roll_dice")
            check('"description"' in body.contents[0].text and "expression" in body.contents[0].text,
                  "resources/read tabletop://tools/roll_dice (the full schema)")

            prompts = await client.list_prompts()
            pnames = [p.name for p in prompts.prompts]
            check("start_session" in pnames, f"prompts/list {pnames}")
            p = await client.get_prompt("create_character", {"concept": "a halfling rogue"})
            check("halfling rogue" in p.messages[0].content.text, "prompts/get create_character")


def raw(exe: str) -> None:
    """Unreadable lines and bad params over raw stdio: every one answered, the server goes on."""
    print("raw JSON-RPC lines:")
    with tempfile.TemporaryDirectory() as data:
        p = subprocess.Popen([exe, "--data-dir", data, "serve"], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)

        def send(line: bytes) -> dict:
            p.stdin.write(line + b"\n")
            p.stdin.flush()
            out = p.stdout.readline()
            check(out != b"", f"an answer to {line[:60]!r}")
            return json.loads(out)

        init = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "py-raw", "version": "0"}}
        send(json.dumps({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": init}).encode())
        p.stdin.write(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
        for line in [b"{oops", b'{"jsonrpc":"2.0","id":1,"method":"ping","x":NaN}',
                     b'{"jsonrpc":"2.0","id":1,"method":"ping","x":1e400}',
                     b'{"jsonrpc":"2.0","id":1,"method":"ping","x":"\\ud800"}', b'{"a":"\xff"}']:
            a = send(line)
            check(a.get("error", {}).get("code") == -32700 and a.get("id") is None, f"-32700 for {line!r}")
        for n, params in enumerate([{"name": "roll_dice", "arguments": [1]},
                                    {"name": "roll_dice", "arguments": "2d6"},
                                    {"arguments": {}}], start=2):
            a = send(json.dumps({"jsonrpc": "2.0", "id": n, "method": "tools/call", "params": params}).encode())
            check(a["id"] == n and a["error"]["code"] == -32602 and "params." in a["error"]["message"],
                  f"-32602 naming the field: {a['error']['message'][:70]}")
        a = send(b'{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"roll_dice","arguments":{"expression":"d1"}}}')
        check(a["id"] == 9 and a["result"]["content"][0]["text"] == "1d1: [1] = 1", "still serving afterwards")
        p.stdin.close()
        check(p.wait(timeout=10) == 0, "the server exits cleanly at end of input")


async def main() -> None:
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    exe = sys.argv[1]
    for mode in ("legacy", "auto", "2026-07-28"):
        await run(exe, mode)
    raw(exe)
    print("python mcp client: all checks passed")


if __name__ == "__main__":
    asyncio.run(main())
