#!/bin/bash
# Replays a WACZ in headless Chromium with ReplayWeb.page, as an archivist opens one: every page of its
# pages/pages.jsonl is opened at its listed capture (the newest) in ReplayWeb.page's embed, served with the WACZ by
# nginx on 127.0.0.1, and the script prints how many pages replay with status 200 and their title, how many
# requisites (what the replayed documents asked for: style sheets, images, scripts, fonts, media) load with status
# 200, and how many style sheets were applied and images shown; then each page and requisite that did not. Exit 0
# when all did. Not part of the build or CI. Needs nginx, unzip, node and Debian's chromium (no browser is
# downloaded); the first run installs puppeteer-core and ReplayWeb.page from the npm registry into replay/
# (ReplayWeb.page with 'npm pack': its ui.js and sw.js are built bundles, its dependencies not needed).
#
#   crawler-core/src/bench/replay-wacz.sh [-n PAGES] FILE.wacz
#
#   -n PAGES   the first PAGES pages of pages.jsonl only (default all)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
limit=
while getopts "n:h" opt; do
  case $opt in
    n) limit=$OPTARG ;;
    *) sed -n '2,13p' "$0"; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] && [ -f "$1" ] || { sed -n '2,13p' "$0"; exit 2; }
wacz=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
replay=$here/replay
if [ ! -d "$replay/node_modules/puppeteer-core" ]; then
  (cd "$replay" && npm install --no-audit --no-fund --loglevel=error >&2)
fi
if [ ! -f "$replay/node_modules/.replaywebpage/sw.js" ]; then
  mkdir -p "$replay/node_modules/.replaywebpage"
  (cd "$replay/node_modules/.replaywebpage" && npm pack --loglevel=error replaywebpage@2.5.3 >/dev/null \
      && tar xzf replaywebpage-2.5.3.tgz --strip-components=1 package/ui.js package/sw.js)
fi
. "$here/nginx.sh"
work=$(mktemp -d); [ -z "${KEEP:-}" ] || echo "work directory: $work" >&2
trap 'stop_nginx "$work"; [ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
chmod 755 "$work" # nginx's workers read the files
mkdir -p "$work/site/replay"
cp "$replay/embed.html" "$replay/node_modules/.replaywebpage/ui.js" "$work/site/"
cp "$replay/node_modules/.replaywebpage/sw.js" "$replay/node_modules/.replaywebpage/ui.js" "$work/site/replay/"
if [ "$(stat -c %A "$wacz" | cut -c8)" = r ] && ln "$wacz" "$work/site/archive.wacz" 2>/dev/null; then :; else
  cp "$wacz" "$work/site/archive.wacz" && chmod 644 "$work/site/archive.wacz" # a copy nginx's workers may read
fi
unzip -p "$wacz" pages/pages.jsonl > "$work/pages.jsonl"
start_nginx "$work" "$work/site"
node "$replay/replay.mjs" "http://127.0.0.1:$port" "$work/pages.jsonl" $limit
