#!/usr/bin/env python3
"""Drive `tabletop serve` with the independent Python MCP SDK, in both protocol modes.

Usage: python3 scripts/python_client.py path/to/tabletop

For each mode (the initialize handshake, and 2026-07-28 with server/discover) it lists tools,
calls a tool, a hidden alias and a bad call (expecting isError), lists and reads a resource, and
lists and renders a prompt. Exits non-zero on the first failure.
"""

import asyncio
import sys
import tempfile

from mcp import Client, StdioServerParameters


def check(cond, what):
    if not cond:
        raise SystemExit(f"FAIL: {what}")
    print(f"  ok  {what}")


async def run(exe: str, mode: str) -> None:
    with tempfile.TemporaryDirectory() as data:
        params = StdioServerParameters(command=exe, args=["--data-dir", data, "--seed", "3", "serve"])
        async with Client(params, mode=mode) as client:
            print(f"mode {mode}:")
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


async def main() -> None:
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    exe = sys.argv[1]
    for mode in ("legacy", "2026-07-28"):
        await run(exe, mode)
    print("python mcp client: all checks passed")


if __name__ == "__main__":
    asyncio.run(main())
