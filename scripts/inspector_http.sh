#!/usr/bin/env bash
# The MCP Inspector CLI as an independent Streamable HTTP client of `tabletop serve --http`:
# a DM token lists every tool and calls one, a player token sees the narrower list and is refused
# a DM tool, no token is refused. Usage: scripts/inspector_http.sh path/to/tabletop
set -euo pipefail
exe=$(cd "$(dirname "${1:?usage: scripts/inspector_http.sh path/to/tabletop}")" && pwd)/$(basename "$1")
work=$(mktemp -d)
server=""
cleanup() { [ -n "$server" ] && kill "$server" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
npm install --prefix "$work" --silent --no-audit --no-fund @modelcontextprotocol/inspector@2.12.0 >/dev/null 2>&1
insp="$work/node_modules/.bin/mcp-inspector"
data="$work/data"
t() { "$exe" --data-dir "$data" --campaign inspected "$@"; }
t call create_character '{"name":"Aria","race":"human","class":"fighter","level":1,"abilityMethod":"standard_array"}' >/dev/null
t call create_character '{"name":"Brom","race":"dwarf","subrace":"hill dwarf","class":"cleric","level":1,"abilityMethod":"standard_array"}' >/dev/null
dm=$(t token create --role dm | tail -n 1)
player=$(t token create --role player --character Aria | tail -n 1)
"$exe" --data-dir "$data" serve --http 127.0.0.1:0 2> "$work/serve.log" &
server=$!
url=""
for _ in $(seq 1 100); do
    url=$(grep -o 'MCP over HTTP at [^ ]*' "$work/serve.log" | awk '{print $5}' || true)
    [ -n "$url" ] && break
    sleep 0.1
done
[ -n "$url" ] || { cat "$work/serve.log" >&2; echo "the server never said where it listens" >&2; exit 1; }
call() { "$insp" --cli "$url" --transport http "$@"; }
dm_tools=$(call --header "Authorization: Bearer $dm" --method tools/list | grep -c '"inputSchema"')
player_tools=$(call --header "Authorization: Bearer $player" --method tools/list | grep -c '"inputSchema"')
[ "$dm_tools" -gt "$player_tools" ] && [ "$player_tools" -gt 0 ] || {
    echo "inspector over HTTP: expected fewer tools for a player ($player_tools) than for the DM ($dm_tools)" >&2; exit 1; }
roll=$(call --header "Authorization: Bearer $dm" --method tools/call --tool-name roll_dice --tool-arg expression=2d6+3)
echo "$roll" | grep -q '"expression": "2d6 + 3"' && echo "$roll" | grep -q '"isError": false' || {
    echo "inspector over HTTP: roll_dice as the DM failed: $roll" >&2; exit 1; }
# A DM tool is not on a player's list (the Inspector refuses it before sending); a player tool
# aimed at another character is refused by the server.
hidden=$(call --header "Authorization: Bearer $player" --method tools/call --tool-name delete_character --tool-arg characterName=Aria 2>&1 || true)
echo "$hidden" | grep -q 'not found' || { echo "inspector over HTTP: a player sees delete_character: $hidden" >&2; exit 1; }
refused=$(call --header "Authorization: Bearer $player" --method tools/call --tool-name roll_check --tool-arg characterName=Brom --tool-arg skill=perception 2>&1 || true)
echo "$refused" | grep -q 'a player acts only for their own character' || {
    echo "inspector over HTTP: a player rolled for another character: $refused" >&2; exit 1; }
if call --method tools/list > "$work/anon.txt" 2>&1; then
    echo "inspector over HTTP: a call without a token was answered" >&2; exit 1
fi
echo "inspector over HTTP: the DM lists $dm_tools tools and rolls; a player lists $player_tools, has no DM tools and is refused another character; no token is refused"
