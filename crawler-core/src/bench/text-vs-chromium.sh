#!/bin/bash
# Compares sievecrawl's --text with Debian's headless Chromium on real pages: N pages of a directory of HTML (by
# default the PostgreSQL 15 manual of Debian's postgresql-doc-15; every k-th page by path, so that they are of every
# kind) are copied with everything in the directory, Chromium's document.body.innerText of each is taken by
# crawler-core/src/test/resources/text/inner-text.sh, the copies are served by nginx on 127.0.0.1 and crawled with
# --text, and each page's text is compared with Chromium's, white space collapsed (runs of spaces, tabs and no-break
# spaces one space, lines trimmed, empty lines dropped). Prints the pages that match, those that match but for letter
# case (a style sheet's text-transform, which --text does not apply) and, for each that does not match, its first
# differing line. Not part of the build or CI. Needs nginx, chromium and node.
#
#   crawler-core/src/bench/text-vs-chromium.sh [-n PAGES] [-d DIR] [-s LAUNCHER]
#
#   -n PAGES     how many pages (default 20)
#   -d DIR       the directory of pages (default /usr/share/doc/postgresql-doc-15/html, installed with apt-get if
#                missing, as root)
#   -s LAUNCHER  the sievecrawl launcher (default app/target/sievecrawl)
set -euo pipefail

pages=20
dir=/usr/share/doc/postgresql-doc-15/html
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
launcher=$root/app/target/sievecrawl
while getopts "n:d:s:h" opt; do
  case $opt in
    n) pages=$OPTARG ;;
    d) dir=$OPTARG ;;
    s) launcher=$OPTARG ;;
    *) sed -n '2,17p' "$0"; exit 2 ;;
  esac
done
if [ ! -d "$dir" ] && [ "$dir" = /usr/share/doc/postgresql-doc-15/html ]; then
  [ "$(id -u)" -eq 0 ] || { echo "the PostgreSQL manual is missing: apt-get install postgresql-doc-15" >&2; exit 1; }
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends postgresql-doc-15 >&2
fi
. "$here/nginx.sh"
work=$(mktemp -d); [ -z "${KEEP:-}" ] || echo "work directory: $work" >&2
trap 'stop_nginx "$work"; [ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
chmod 755 "$work" # nginx's workers read the copies
mkdir -p "$work/site"
cp -r "$dir"/. "$work/site/" # the pages with their style sheets and images, so that Chromium lays them out as served
all=$(cd "$work/site" && find . -name '*.html' ! -name '.*' | sed 's|^\./||' | sort)
count=$(echo "$all" | wc -l)
step=$(( count / pages > 0 ? count / pages : 1 ))
chosen=$(echo "$all" | awk -v step="$step" -v n="$pages" 'NR % step == 1 % step && taken < n { print; taken++ }')
(cd "$work/site" && echo "$chosen" | xargs "$root/crawler-core/src/test/resources/text/inner-text.sh" 2>/dev/null)
start_nginx "$work" "$work/site"
echo "$chosen" | sed "s|^|http://127.0.0.1:$port/|" > "$work/seeds.txt"
"$launcher" crawl "$work/seeds.txt" --text --max-depth 0 --delay 0ms --host-concurrency 4 -q \
    -o "$work/pages.jsonl" --log-file "$work/crawl.log" --job "$work/job"
node - "$work/pages.jsonl" "$work/site" <<'EOF'
const fs = require("fs");
const [, , results, site] = process.argv;
const collapse = t => t.split("\n").map(l => l.replace(/[ \t\r\f\u00a0]+/g, " ").replace(/^ | $/g, ""))
    .filter(l => l).join("\n");
let same = 0, sameButCase = 0, all = 0;
for (const line of fs.readFileSync(results, "utf8").split("\n").filter(l => l)) {
  const page = JSON.parse(line);
  const name = new URL(page.url).pathname.substring(1);
  const expectedFile = `${site}/${name.replace(/\.html$/, "")}.innertext.txt`;
  if (!fs.existsSync(expectedFile)) continue;
  all++;
  const expected = collapse(fs.readFileSync(expectedFile, "utf8")).split("\n");
  const got = (page.text || "").split("\n");
  const at = expected.findIndex((l, i) => l !== got[i]);
  if (at < 0 && got.length === expected.length) {
    same++;
  } else {
    if (expected.join("\n").toLowerCase() === got.join("\n").toLowerCase()) sameButCase++;
    const i = at < 0 ? expected.length : at;
    console.log(`${name}: line ${i + 1}: Chromium ${JSON.stringify(expected[i])}, sievecrawl ${JSON.stringify(got[i])}`);
  }
}
console.log(`${same} of ${all} pages: --text equals Chromium's innerText, white space collapsed`);
console.log(`${same + sameButCase} of ${all} pages: equal but for letter case (style sheets' text-transform)`);
EOF
