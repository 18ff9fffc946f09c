#!/usr/bin/env bash
# Lint the advertised tool schemas with the MCP Inspector CLI (--strict): both profiles with
# compact schemas (the default) and the full profile with full schemas.
# Usage: scripts/inspector_lint.sh path/to/tabletop
set -euo pipefail
exe=$(cd "$(dirname "${1:?usage: scripts/inspector_lint.sh path/to/tabletop}")" && pwd)/$(basename "$1")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
npm install --prefix "$work" --silent --no-audit --no-fund @modelcontextprotocol/inspector@2.12.0 >/dev/null 2>&1
for surface in "full compact" "core compact" "full full"; do
    read -r profile schemas <<< "$surface"
    if ! "$work/node_modules/.bin/mcp-inspector" --cli --strict --method tools/list \
        "$exe" --data-dir "$work/data" serve --profile "$profile" --schemas "$schemas" > "$work/tools.json" 2> "$work/lint.txt"; then
        grep -v '^npm warn' "$work/lint.txt" >&2
        echo "inspector --strict: the $profile profile ($schemas schemas) has schema problems" >&2
        exit 1
    fi
    echo "inspector --strict: $profile profile, $schemas schemas clean ($(grep -c '"name"' "$work/tools.json") names listed)"
done
