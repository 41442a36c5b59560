#!/bin/bash
# Page requisites and identical payloads on the OpenJDK 17 javadoc (javadoc-corpus.sh), served by nginx on 127.0.0.1
# twice, under /a/ and /b/ (a site served under two paths), and crawled from both with --warc at delay 0: prints each
# style sheet, script and image of the javadoc directory (outside doc-files) with how many response records and
# identical-payload revisits the crawl wrote for it under /a/, the requisite URLs fetched more than once, the
# summary's line on identical payloads, and the WARC bytes against a crawl with warc.dedup-digests=0. Not part of the
# build or CI. Needs nginx and node.
#
#   crawler-core/src/bench/requisites-javadoc.sh [-d DIR] [-s LAUNCHER] [-- CRAWL OPTIONS...]
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
launcher=$root/app/target/sievecrawl
dir=
while getopts "d:s:h" opt; do
  case $opt in
    d) dir=$OPTARG ;;
    s) launcher=$OPTARG ;;
    *) sed -n '2,9p' "$0"; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
[ -n "$dir" ] || dir=$("$here/javadoc-corpus.sh")
. "$here/nginx.sh"
work=$(mktemp -d); [ -z "${KEEP:-}" ] || echo "work directory: $work" >&2
trap 'stop_nginx "$work"; [ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
chmod 755 "$work"
start_nginx "$work" "$work/empty" "location /a/ { alias $dir/; } location /b/ { alias $dir/; }"
printf 'http://127.0.0.1:%s/a/index.html\nhttp://127.0.0.1:%s/b/index.html\n' "$port" "$port" > "$work/seeds.txt"
for run in dedup whole; do
  extra=(); [ $run = dedup ] || extra=(--set warc.dedup-digests=0)
  /usr/bin/time -f "%e s wall, %U+%S s CPU" -o "$work/$run.time" "$launcher" crawl "$work/seeds.txt" \
      --warc "$work/warc-$run" --delay 0ms --host-concurrency 4 -q -o "$work/$run.jsonl" \
      --log-file "$work/$run.log" --job "$work/job-$run" "${extra[@]}" "$@"
  echo "$run: $(grep -m1 -E 'crawl [a-z ]+: [0-9,]+ pages' "$work/$run.log" | sed 's/.* - //'); $(cat "$work/$run.time");" \
      "WARC files $(du -cb "$work/warc-$run"/*.warc.gz | tail -1 | cut -f1) bytes"
  grep -m1 'WARC files:' "$work/$run.log" | sed 's/.* - *//'
done
(cd "$dir" && find -L . -path '*/doc-files' -prune -o -type f \( -name '*.css' -o -name '*.js' -o -name '*.png' \
    -o -name '*.gif' -o -name '*.svg' -o -name '*.jpg' \) -print | sed 's|^\./||' | sort) > "$work/files.txt"
node - "$work/dedup.jsonl" "$work/files.txt" "http://127.0.0.1:$port/a/" <<'EOF2'
const fs = require("fs");
const [, , results, files, base] = process.argv;
const records = fs.readFileSync(results, "utf8").split("\n").filter(l => l).map(l => JSON.parse(l));
const by = new Map();
for (const r of records) { if (!by.has(r.url)) by.set(r.url, []); by.get(r.url).push(r); }
let archived = 0, missing = [];
for (const f of fs.readFileSync(files, "utf8").split("\n").filter(l => l)) {
  const rs = by.get(base + f) || [];
  const whole = rs.filter(r => r.status === 200 && !r.revisit).length, revisits = rs.filter(r => r.revisit).length;
  if (rs.length) archived++; else missing.push(f);
  if (!/module-graph\.svg$/.test(f) || rs.length !== 1) {
    console.log(`${f}: ${rs.length} records (${whole} whole, ${revisits} identical-payload revisits)`);
  }
}
const twice = [...by.entries()].filter(([u, rs]) => rs.length > 1 && rs.some(r => r.requisite)).map(([u]) => u);
console.log(`${archived} of ${archived + missing.length} style sheets, scripts and images of the directory archived;`
    + ` not archived: ${missing.length ? missing.join(" ") : "none"}`);
console.log(`requisite URLs fetched more than once: ${twice.length ? twice.join(" ") : "none"}`);
console.log(`${records.filter(r => r.requisite).length} requisite records, ${records.filter(r => !r.requisite).length}`
    + ` pages; ${records.filter(r => r.revisit === "identical-payload-digest").length} identical-payload revisits`);
EOF2
