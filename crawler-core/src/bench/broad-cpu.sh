#!/bin/bash
# A broad crawl bound by the CPU: SITES generated sites of 200 pages, served by nginx (in its own process, on
# 127.0.0.1, every site name pinned to it with --resolve-file), crawled with no politeness delay until PAGES pages
# (the same work for every run, however loaded the machine), over http or, with -S, over https with a test
# certificate authority made here (openssl). Prints per run and as medians
# the crawler's CPU per page with its JIT compiler threads and garbage collector shown apart (from
# /proc/PID/task/*/stat, thread-cpu.py), pages/s, and the connections and TLS handshakes it opened per page, in all
# and beyond the first per site (connections as nginx counts them, handshakes as the crawl does, --stats-json); over
# https, the TLS versions and ciphers nginx saw.
# Builds given with -s run in alternating order. Not part of the build or CI; needs nginx, openssl, python3 and GNU
# time.
#
#   crawler-core/src/bench/broad-cpu.sh [-n SITES] [-P PAGES] [-p PAIRS] [-c CONCURRENCY] [-S [-V VERSIONS]]
#                                       [-s LABEL=LAUNCHER]...
#
#   -n SITES        sites (default 1000), site-00000.bench.test ... on one nginx
#   -P PAGES        pages each crawl fetches (--max-pages; default 50000, at most 200 a site)
#   -p PAIRS        runs of each build (default 3); the order alternates from round to round
#   -c CONCURRENCY  --concurrency (default 32, the crawl's default); one request at a time per site
#   -S              https, with a certificate for *.bench.test from a CA the crawler is told to trust
#   -V VERSIONS     the TLS versions nginx offers (ssl_protocols; default "TLSv1.2", what the nginx 1.22 of Debian 12
#                   offers by default; "TLSv1.2 TLSv1.3" is the default of nginx 1.23.4 and later)
#   -s LABEL=PATH   a sievecrawl launcher (default: sievecrawl=app/target/sievecrawl); repeat to compare builds
set -euo pipefail

sites=1000
pages=50000
pairs=3
concurrency=32
tls=
versions=TLSv1.2
crawlers=()
while getopts "n:P:p:c:SV:s:h" opt; do
  case $opt in
    n) sites=$OPTARG ;;
    P) pages=$OPTARG ;;
    p) pairs=$OPTARG ;;
    c) concurrency=$OPTARG ;;
    S) tls=1 ;;
    V) versions=$OPTARG ;;
    s) label=${OPTARG%%=*} launcher=${OPTARG#*=}
       [ "${launcher#/}" != "$launcher" ] || launcher=$PWD/$launcher
       crawlers+=("$label=$launcher") ;;
    *) sed -n '2,23p' "$0"; exit 2 ;;
  esac
done
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
[ ${#crawlers[@]} -gt 0 ] || crawlers=("sievecrawl=$root/app/target/sievecrawl")
for entry in "${crawlers[@]}"; do
  [ -x "${entry#*=}" ] || { echo "no launcher at ${entry#*=}: build with mvn -B -q package" >&2; exit 1; }
done
for tool in nginx openssl python3 /usr/bin/time; do
  command -v "$tool" >/dev/null 2>&1 || { echo "$tool is missing" >&2; exit 1; }
done

work=$(mktemp -d /tmp/broad-cpu.XXXXXX)
chmod 755 "$work"
. "$here/nginx.sh"
scheme=http
extra="access_log $work/nginx/connections.log connection;" # nginx's count of connections, for any build
if [ -n "$tls" ]; then # a CA, and a certificate for every site signed by it
  scheme=https
  tls_port=$((port + 1))
  openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=sievecrawl bench CA" -keyout "$work/ca.key" \
    -out "$work/ca.pem" 2>/dev/null
  openssl req -newkey rsa:2048 -nodes -subj "/CN=*.bench.test" -keyout "$work/site.key" -out "$work/site.csr" \
    2>/dev/null
  printf 'subjectAltName=DNS:*.bench.test\n' > "$work/san.ext"
  openssl x509 -req -in "$work/site.csr" -CA "$work/ca.pem" -CAkey "$work/ca.key" -CAcreateserial -days 2 \
    -extfile "$work/san.ext" -out "$work/site.pem" 2>/dev/null
  chmod 644 "$work"/*.pem "$work"/*.key
  extra="$extra listen 127.0.0.1:$tls_port ssl; ssl_certificate $work/site.pem;"
  extra="$extra ssl_certificate_key $work/site.key; ssl_protocols $versions; access_log $work/nginx/tls.log tls;"
fi
# One site of 200 pages of 8 to 40 KB, as SyntheticPages makes them, served for every host name: its links are
# absolute paths, so each site links within itself.
python3 - "$work/site" <<'PY'
import os, random, sys
root = sys.argv[1]
filler = ("Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et "
          "dolore magna aliqua. Ut enim ad minim veniam, quis nostrud exercitation. ")
pages = 200
def path(p):
    return "/index.html" if p == 0 else f"/section/{p % 50}/{p}.html"
for p in range(pages):
    rnd = random.Random(p)
    html = [f'<!doctype html><html><head><meta charset="utf-8"><title>Page {p}</title></head><body><main>'
            f'<h1>Page {p}</h1>']
    for _ in range(4 + rnd.randrange(30)):
        html.append("<p>" + filler[: 60 + rnd.randrange(len(filler) - 60)] + filler + "</p>\n")
    html.append(f'<ul><li><a href="{path((p + 1) % pages)}">next</a></li>')
    for i in range(20):
        t = rnd.randrange(pages)
        html.append(f'<li><a href="{path(t)}{"#s" + str(i) if i % 4 == 2 else ""}">link {i}</a></li>')
    html.append("</ul></main></body></html>\n")
    f = root + path(p)
    os.makedirs(os.path.dirname(f), exist_ok=True)
    open(f, "w").write("".join(html))
PY
chmod -R a+rX "$work/site"
start_nginx "$work" "$work/site" "$extra" $((2 * sites + 256))
trap 'stop_nginx "$work"; rm -rf "$work"' EXIT
site_port=$port
[ -n "$tls" ] && site_port=$tls_port
python3 - "$sites" "$scheme" "$site_port" "$work" <<'PY'
import sys
sites, scheme, port, work = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
names = [f"site-{i:05d}.bench.test" for i in range(sites)]
open(f"{work}/seeds.txt", "w").write("".join(f"{scheme}://{n}:{port}/index.html\n" for n in names))
open(f"{work}/resolve.txt", "w").write("".join(f"{n}:{port}:127.0.0.1\n" for n in names))
PY
ca=()
[ -n "$tls" ] && ca=(--set "fetch.ca-file=$work/ca.pem")
echo "broad: $sites sites of 200 pages over $scheme${tls:+ ($versions offered)}, nginx on 127.0.0.1:$site_port," \
  "$pages pages per crawl, concurrency $concurrency, no delay; $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"

# run LABEL LAUNCHER: one crawl; appends "label pages wall cpu jit gc rss connections handshakes" to $work/results
run() {
  local label=$1 launcher=$2 out=$work/out
  rm -rf "$out" && mkdir -p "$out"
  : > "$work/nginx/connections.log"
  # as 'crawl' runs by default: its crawl directory made in the current folder (kept, as --max-pages ends the run)
  (cd "$out" && exec /usr/bin/time -f "%e %U %S %M" -o "$out/time" "$launcher" crawl "$work/seeds.txt" -q \
    --delay 0ms --concurrency "$concurrency" --max-pages "$pages" --resolve-file "$work/resolve.txt" \
    "${ca[@]}" -n $((sites * 400)) -o "$out/pages.jsonl" --log-file "$out/crawl.log" \
    --stats-json "$out/stats.json" >/dev/null) &
  local timed=$!
  python3 "$here/thread-cpu.py" $timed "$out/threads" &
  local watcher=$!
  wait $timed || true
  wait $watcher
  python3 - "$label" "$out" "$work/nginx/connections.log" >> "$work/results" <<'PY'
import json, sys
label, out, log = sys.argv[1], sys.argv[2], sys.argv[3]
wall, user, system, rss = open(f"{out}/time").read().split()[-4:]
jit, gc = open(f"{out}/threads").read().split()
s = json.load(open(f"{out}/stats.json"))
connections = len({line.split()[0] for line in open(log)})  # as nginx counted them: any build
print(label, s["fetched"], wall, float(user) + float(system), jit, gc, rss, connections, s.get("tlsHandshakes", -1))
PY
  tail -n 1 "$work/results" | awk -v n="$sites" '{ p = $2; cpu = $4; printf "%-12s %7d pages %6.1f s %7.2f s CPU" \
    " %6.3f ms/page (JIT %5.2f s, GC %5.2f s, rest %6.3f ms/page) %6.0f pages/s %7.0f MB  conn/page %.4f" \
    " (beyond one per site %.4f), TLS/page %.4f\n", $1, p, $3, cpu, 1000 * cpu / p, $5, $6,
    1000 * (cpu - $5 - $6) / p, p / $3, $7 / 1024, $8 / p, ($8 - n) / p, $9 / p }'
}

for ((i = 1; i <= pairs; i++)); do
  order=("${crawlers[@]}")
  if ((i % 2 == 0)); then
    order=()
    for ((j = ${#crawlers[@]} - 1; j >= 0; j--)); do order+=("${crawlers[j]}"); done
  fi
  for entry in "${order[@]}"; do run "${entry%%=*}" "${entry#*=}"; done
done

echo
[ -z "$tls" ] || { echo "TLS as nginx saw it, requests of all runs:"; sort "$work/nginx/tls.log" | uniq -c; }
echo "medians of $pairs runs; load now $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$work/results" "$sites" <<'PY'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1])]
sites = int(sys.argv[2])
by = {}
for label, pages, wall, cpu, jit, gc, rss, conn, tls in rows:
    by.setdefault(label, []).append((int(pages), float(wall), float(cpu), float(jit), float(gc), int(rss),
                                     int(conn), int(tls)))
m = statistics.median
print(f"{'crawler':<12} {'pages':>8} {'pages/s':>8} {'CPU ms/page':>12} {'JIT s':>7} {'GC s':>6} {'rest ms/page':>13}"
      f" {'conn/page':>10} {'beyond 1/site':>14} {'TLS/page':>9} {'RSS MB':>7}")
for label, runs in by.items():
    print(f"{label:<12} {m(r[0] for r in runs):>8.0f} {m(r[0] / r[1] for r in runs):>8.0f}"
          f" {m(1000 * r[2] / r[0] for r in runs):>12.3f} {m(r[3] for r in runs):>7.2f} {m(r[4] for r in runs):>6.2f}"
          f" {m(1000 * (r[2] - r[3] - r[4]) / r[0] for r in runs):>13.3f} {m(r[6] / r[0] for r in runs):>10.4f}"
          f" {m((r[6] - sites) / r[0] for r in runs):>14.4f} {m(r[7] / r[0] for r in runs):>9.4f}"
          f" {m(r[5] / 1024 for r in runs):>7.0f}")
PY
