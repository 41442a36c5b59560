#!/bin/bash
# One site crawled by two agents through a Redis Cluster against one agent alone: a directory of HTML (by default
# the PostgreSQL 15 manual of postgresql-doc-15; -d for another, e.g. the OpenJDK javadoc of javadoc-corpus.sh) is
# served by nginx on loopback, crawled from its index.html by one agent with a crawl directory (--job), then by two
# agents of one shared crawl, each pointed at a different master of a three-master cluster (redis-cluster.sh), with
# the same settings. Prints per run each agent's pages, CPU and wall time; the pages fetched in all, the distinct
# URLs and those fetched twice; the URLs one run fetched that the other did not; the HTML files in the directory and
# the requests nginx served each run; then each master's share of the shared crawl's keys and of their memory
# (MEMORY USAGE ... SAMPLES 0). With -1, one agent alone on the cluster crawls the site too, before the two: what a
# second agent adds to a shared crawl. Each run on the cluster prints the masters' CPU time and the commands they ran
# (INFO commandstats, most called first). Not part of the build or CI; needs nginx, redis-server and GNU time.
#
#   crawler-core/src/bench/cluster-agents.sh [-1] [-d DIR] [-c CONCURRENCY] [-s LAUNCHER]
#
#   -1              also one agent alone on the cluster (its own crawl name), between the two other runs
#
#   -d DIR          the directory served (default /usr/share/doc/postgresql-doc-15/html)
#   -c CONCURRENCY  fetches in flight per agent, all to the one site (--concurrency and --host-concurrency;
#                   default 8), with --delay 0ms
#   -s LAUNCHER     the sievecrawl launcher (default app/target/sievecrawl)
#
# A site is one origin, and an origin is worked by the agent that holds its shard's lease: the second agent finds
# nothing to fetch here, by design (one origin's politeness is kept by one agent). What it shows is that an agent
# pointed at any node works, and that the shared crawl fetches what the crawl alone fetches, each page once.
set -euo pipefail

dir=/usr/share/doc/postgresql-doc-15/html
concurrency=8
here=$(cd "$(dirname "$0")" && pwd)
launcher=$(cd "$here/../../.." && pwd)/app/target/sievecrawl
solo=
while getopts "1d:c:s:h" opt; do
  case $opt in
    1) solo=1 ;;
    d) dir=$OPTARG ;;
    c) concurrency=$OPTARG ;;
    s) launcher=$OPTARG ;;
    *) sed -n '2,22p' "$0"; exit 2 ;;
  esac
done
[ -f "$dir/index.html" ] || { echo "no index.html in $dir (apt-get install postgresql-doc-15, or javadoc-corpus.sh)" >&2; exit 1; }
. "$here/nginx.sh"
. "$here/redis-cluster.sh"
work=$(mktemp -d); [ -z "${KEEP:-}" ] || echo "work directory: $work" >&2
trap 'stop_nginx "$work"; stop_cluster; [ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
chmod 755 "$work"
start_nginx "$work" "$dir"
echo "http://127.0.0.1:$port/index.html" > "$work/seeds.txt"
settings=(--concurrency "$concurrency" --host-concurrency "$concurrency" --delay 0ms -n 1000000 -q)
timed() { local label=$1; shift; /usr/bin/time -f "$label: %U s user, %S s system, %e s wall, %M KB peak RSS" \
  -o "$work/$label.time" "$@"; }
served() { wc -l < "$work/nginx/access.log"; }
urls() { grep -o '"url":"[^"]*"' "$@" | cut -d'"' -f4; }
html=$(find "$dir" -name '*.html' | wc -l)

before=$(served)
timed alone "$launcher" crawl "$work/seeds.txt" "${settings[@]}" --job "$work/job" -o "$work/alone.jsonl" \
  --log-file "$work/alone.log" || echo "the agent alone exited with $?"
alone_served=$(( $(served) - before ))

start_cluster "$work"
if [ -n "$solo" ]; then
  cluster_commands "$work/solo.before"
  before=$(served)
  timed solo "$launcher" crawl "$work/seeds.txt" --redis "redis://127.0.0.1:${cluster_ports[0]}" --crawl-name solo \
    "${settings[@]}" -o "$work/solo.jsonl" --log-file "$work/solo.log" || echo "the agent alone on the cluster exited with $?"
  solo_served=$(( $(served) - before ))
  cluster_commands "$work/solo.after"
fi
cluster_commands "$work/shared.before"
before=$(served)
timed A "$launcher" crawl "$work/seeds.txt" --redis "redis://127.0.0.1:${cluster_ports[0]}" --crawl-name site \
  "${settings[@]}" -o "$work/a.jsonl" --log-file "$work/a.log" &
a=$!
timed B "$launcher" join --redis "redis://127.0.0.1:${cluster_ports[1]}" --crawl-name site "${settings[@]}" \
  -o "$work/b.jsonl" --log-file "$work/b.log" &
b=$!
wait "$a" || echo "agent A exited with $?"
wait "$b" || echo "agent B exited with $?"
shared_served=$(( $(served) - before ))
cluster_commands "$work/shared.after"

echo "$dir: $html HTML files; concurrency $concurrency, --delay 0ms"
echo "one agent alone: $(grep -c . "$work/alone.jsonl") pages, $(urls "$work/alone.jsonl" | sort -u | wc -l) distinct" \
  "URLs, fetched twice $(urls "$work/alone.jsonl" | sort | uniq -d | wc -l); nginx served $alone_served requests"
cat "$work/alone.time"
if [ -n "$solo" ]; then
  echo "one agent alone on the cluster: $(grep -c . "$work/solo.jsonl") pages, $(urls "$work/solo.jsonl" | sort -u | wc -l)" \
    "distinct URLs, fetched twice $(urls "$work/solo.jsonl" | sort | uniq -d | wc -l); nginx served $solo_served requests"
  cat "$work/solo.time"
  cluster_commands_since "$work/solo.before" "$work/solo.after"
fi
echo "two agents on the cluster: agent A $(grep -c . "$work/a.jsonl") pages, agent B $(grep -c . "$work/b.jsonl");" \
  "$(urls "$work/a.jsonl" "$work/b.jsonl" | sort -u | wc -l) distinct URLs, fetched twice" \
  "$(urls "$work/a.jsonl" "$work/b.jsonl" | sort | uniq -d | wc -l); nginx served $shared_served requests"
cat "$work/A.time" "$work/B.time"
cluster_commands_since "$work/shared.before" "$work/shared.after"
urls "$work/alone.jsonl" | sort -u > "$work/alone.urls"
urls "$work/a.jsonl" "$work/b.jsonl" | sort -u > "$work/shared.urls"
echo "URLs only the agent alone fetched: $(comm -23 "$work/alone.urls" "$work/shared.urls" | wc -l);" \
  "only the shared crawl: $(comm -13 "$work/alone.urls" "$work/shared.urls" | wc -l)"
comm -3 "$work/alone.urls" "$work/shared.urls" | head -n 5
grep -h ' WARN \| ERROR ' "$work"/*.log | sed 's/^[^ ]* [^ ]* //' | sort | uniq -c \
  | sort -rn | head -n 5 || true
cluster_spread
