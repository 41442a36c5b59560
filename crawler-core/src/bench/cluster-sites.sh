#!/bin/bash
# A crawl of many sites spread over a Redis Cluster: sievecrawl bench --sites N serves N generated sites on one
# loopback server, and two agents of one shared crawl, each pointed at a different master of a three-master cluster
# (redis-cluster.sh), crawl them all politely. Prints each agent's pages, CPU and wall time, the pages fetched in all,
# their distinct URLs and those fetched twice, each agent's 'all agents' line, and then each master's share of the
# crawl's keys and of their memory (MEMORY USAGE ... SAMPLES 0): the issue's target is at least 20% of both on every
# master. Not part of the build or CI; needs redis-server and GNU time.
#
#   crawler-core/src/bench/cluster-sites.sh [-n SITES] [-p PAGES] [-d DELAY] [-s LAUNCHER]
#
#   -n SITES     sites (default 1000)
#   -p PAGES     pages per site (default 20)
#   -d DELAY     politeness delay per site (default 100ms)
#   -s LAUNCHER  the sievecrawl launcher (default app/target/sievecrawl)
set -euo pipefail

sites=1000
pages=20
delay=100ms
here=$(cd "$(dirname "$0")" && pwd)
launcher=$(cd "$here/../../.." && pwd)/app/target/sievecrawl
while getopts "n:p:d:s:h" opt; do
  case $opt in
    n) sites=$OPTARG ;;
    p) pages=$OPTARG ;;
    d) delay=$OPTARG ;;
    s) launcher=$OPTARG ;;
    *) sed -n '2,14p' "$0"; exit 2 ;;
  esac
done
. "$here/redis-cluster.sh"
work=$(mktemp -d); [ -z "${KEEP:-}" ] || echo "work directory: $work" >&2
server=
trap '[ -z "$server" ] || kill "$server" 2>/dev/null; stop_cluster; [ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
start_cluster "$work"

# the server stops by itself after --seconds: long enough for the crawl at one page per site per delay, and more
"$launcher" bench --sites "$sites" --pages-per-site "$pages" --serve "$work/serve" --delay "$delay" \
  --seconds 600 >"$work/server.log" 2>&1 &
server=$!
until [ -s "$work/serve/resolve.txt" ]; do sleep 0.2; done
common=(--crawl-name sites --resolve-file "$work/serve/resolve.txt" --delay "$delay" --concurrency 64
  -n $((sites * pages * 5)) -q)
/usr/bin/time -f "agent A (%C): %U s user, %S s system, %e s wall" -o "$work/a.time" "$launcher" crawl \
  "$work/serve/seeds.txt" --redis "redis://127.0.0.1:${cluster_ports[0]}" "${common[@]}" \
  -o "$work/a.jsonl" --log-file "$work/a.log" &
a=$!
/usr/bin/time -f "agent B (%C): %U s user, %S s system, %e s wall" -o "$work/b.time" "$launcher" join \
  --redis "redis://127.0.0.1:${cluster_ports[1]}" "${common[@]}" -o "$work/b.jsonl" --log-file "$work/b.log" &
b=$!
wait "$a" || echo "agent A exited with $?"
wait "$b" || echo "agent B exited with $?"
sed 's/ (.*)://' "$work/a.time" "$work/b.time" | sed 's/^agent \(.\)/agent \1:/'
urls() { grep -o '"url":"[^"]*"' "$@" | cut -d'"' -f4; }
echo "pages: agent A $(grep -c . "$work/a.jsonl"), agent B $(grep -c . "$work/b.jsonl");" \
  "distinct URLs $(urls "$work/a.jsonl" "$work/b.jsonl" | sort -u | wc -l)," \
  "fetched twice $(urls "$work/a.jsonl" "$work/b.jsonl" | sort | uniq -d | wc -l)," \
  "served $((sites * pages))"
for agent in a b; do # each agent's count over every agent: exact once every agent has ended
  grep -h 'all agents' "$work/$agent.log" | tail -n 1 | sed "s/.*\(all agents\)/agent ${agent^^}'s \1/" || true
done
cluster_spread
