#!/bin/bash
# Crawls the OpenJDK 17 javadoc (Debian's openjdk-17-doc) plus a redirecting seed and a missing page, served by
# nginx on 127.0.0.1, with two builds in the order A B A B (--links --text --warc, or without --text: -T), and
# compares what they wrote: the set of URLs, every record field that does not depend on timing or on which worker
# found a link first (not fetchedAt, fetchMillis, depth, referrer, nor the links' fate), and the WARC records by
# type, target URI and payload digest. A vs A and B vs B show the noise. For a refactoring that must not change
# behaviour. Not part of the build or CI; needs nginx and the corpus (see crawl-vs-wget2.sh).
#
#   crawler-core/src/bench/compare-builds.sh [-T] [-d DIR] LAUNCHER_A LAUNCHER_B
#   e.g. compare-builds.sh /tmp/before/app/target/sievecrawl app/target/sievecrawl
#
#   -T      without --text: the page's text is not asked for, as in most crawls (the parse then keeps no text)
#   -d DIR  crawl the site in DIR (from its index.html) instead of the javadoc, e.g.
#           /usr/share/doc/postgresql-doc-15/html
set -euo pipefail
text=--text
corpus=
while getopts "Td:h" opt; do
  case $opt in
    T) text= ;;
    d) corpus=$(cd "$OPTARG" && pwd) ;;
    *) sed -n '2,14p' "$0"; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
[ $# -eq 2 ] || { sed -n '2,14p' "$0"; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
[ -n "$corpus" ] || corpus=$("$here/javadoc-corpus.sh")
work=$(mktemp -d /tmp/compare-builds.XXXXXX)
. "$here/nginx.sh"
start_nginx "$work" "$corpus" 'location = /redirect { return 301 /index.html; }'
trap 'stop_nginx "$work"' EXIT
printf 'http://127.0.0.1:%s/redirect\nhttp://127.0.0.1:%s/no-such-page\n' $port $port > "$work/seeds.txt"
i=0
for launcher in "$1" "$2" "$1" "$2"; do
  i=$((i+1))
  "$launcher" crawl "$work/seeds.txt" --delay 0ms --host-concurrency 8 --concurrency 8 --links $text \
    -o "$work/r$i.jsonl" --warc "$work/w$i" --job "$work/j$i" -q >/dev/null 2>&1 || echo "run $i exit $?"
done
python3 - "$work" <<'PY'
import json, sys, gzip, glob, os, collections
work = sys.argv[1]
def records(i):
    out = {}
    for line in open(f"{work}/r{i}.jsonl"):
        r = json.loads(line)
        key = r["url"]
        out[key] = (r["status"], r["contentType"], r["title"], r["bytes"], r["truncated"], r["outlinks"],
                    r["redirectTo"], r["errorKind"], r["error"], r["attempts"], r.get("text"),
                    tuple(sorted(l["url"] for l in (r.get("links") or []))))
    return out
def warc(i):
    recs = collections.Counter()
    for f in sorted(glob.glob(f"{work}/w{i}/*.warc.gz")):
        data = gzip.open(f).read()
        pos = 0
        while True:
            start = data.find(b"WARC/1.1\r\n", pos)
            if start < 0: break
            end = data.find(b"\r\n\r\n", start)
            headers = dict(l.split(": ", 1) for l in data[start:end].decode("utf-8", "replace").split("\r\n")[1:] if ": " in l)
            length = int(headers.get("Content-Length", "0"))
            if headers.get("WARC-Type") in ("response", "request", "revisit", "warcinfo", "metadata", "resource"):
                recs[(headers.get("WARC-Type"), headers.get("WARC-Target-URI"), headers.get("WARC-Payload-Digest"))] += 1
            pos = end + 4 + length
    return recs
r = {i: records(i) for i in range(1, 5)}
w = {i: warc(i) for i in range(1, 5)}
for i in range(1, 5):
    print(f"run {i}: {len(r[i])} records, {sum(w[i].values())} WARC records")
def diff(a, b, label):
    ka, kb = set(r[a]), set(r[b])
    only = (ka - kb, kb - ka)
    changed = [k for k in ka & kb if r[a][k] != r[b][k]]
    wd = (w[a] - w[b]) + (w[b] - w[a])
    print(f"{label}: urls only in one {len(only[0])}/{len(only[1])}, records differing {len(changed)}, WARC records differing {sum(wd.values())}")
    for k in changed[:3]:
        print("  ", k, r[a][k][:10], "\n   ", r[b][k][:10])
    for k in list(wd)[:3]:
        print("  warc", k)
diff(1, 3, "A vs A (noise)")
diff(2, 4, "B vs B (noise)")
diff(1, 2, "A vs B")
diff(3, 4, "A vs B again")
PY
echo "work dir: $work"
