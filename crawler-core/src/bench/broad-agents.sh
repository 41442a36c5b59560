#!/bin/bash
# A broad crawl shared by agents through Redis: serves many generated sites on one loopback server
# (sievecrawl bench --sites N --serve), starts a redis-server on a free loopback port and AGENTS crawler processes
# sharing one crawl of all the sites (their host names pinned with --resolve-file), each politely (--delay) for
# SECONDS, and prints what the server saw: pages/s against the ideal of one page per site per delay, and pages per
# site; the pages/s of all agents in each tenth of the run (from their results' fetch times: how fast they start);
# then each agent's CPU seconds and the Redis commands sent per page. Not part of the build or CI; needs
# redis-server and GNU time (installed with apt-get if missing, as root).
#
#   crawler-core/src/bench/broad-agents.sh [-a AGENTS] [-n SITES] [-d DELAY] [-t SECONDS] [-s LAUNCHER] [-e]
#
#   -a AGENTS    agent processes (default 2)
#   -n SITES     sites (default 1000)
#   -d DELAY     politeness delay (default 4s)
#   -t SECONDS   crawl time (default 120)
#   -s LAUNCHER  the sievecrawl launcher of the agents (default app/target/sievecrawl, which always serves)
#   -e           pin the sites' names in /etc/hosts for the run instead of --resolve-file, for builds before
#                --resolve (as root; the lines are removed at the end)
set -euo pipefail

agents=2
sites=1000
delay=4s
seconds=120
launcher=$PWD/app/target/sievecrawl
serving=$PWD/app/target/sievecrawl
etc_hosts=
while getopts "a:n:d:t:s:eh" opt; do
  case $opt in
    a) agents=$OPTARG ;;
    n) sites=$OPTARG ;;
    d) delay=$OPTARG ;;
    t) seconds=$OPTARG ;;
    s) launcher=$OPTARG ;;
    e) etc_hosts=1 ;;
    *) sed -n '2,17p' "$0"; exit 2 ;;
  esac
done
for tool in redis-server /usr/bin/time; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    apt-get install -y -q redis-server time >/dev/null 2>&1 || { echo "cannot install $tool" >&2; exit 1; }
  fi
done

work=$(mktemp -d)
pids=()
agent_pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  if [ -n "$etc_hosts" ]; then sed -i '/\.bench\.test # broad-agents$/d' /etc/hosts; fi
  rm -rf "$work"
}
trap cleanup EXIT

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no --dir "$work" >"$work/redis.log" 2>&1 &
pids+=($!)
until redis-cli -p "$port" ping >/dev/null 2>&1; do sleep 0.1; done

"$serving" bench --sites "$sites" --delay "$delay" --seconds "$((seconds + 5))" --serve "$work/sites" \
  >"$work/server.txt" 2>&1 &
server=$!
pids+=($server)
until [ -s "$work/sites/resolve.txt" ]; do sleep 0.2; done
pinning=(--resolve-file "$work/sites/resolve.txt")
if [ -n "$etc_hosts" ]; then
  awk -F: '{ print $3 " " $1 " # broad-agents" }' "$work/sites/resolve.txt" >>/etc/hosts
  pinning=()
fi

for i in $(seq 1 "$agents"); do
  # every agent gets the seeds: the shared filter drops the repeats, and each knows the sites in scope
  /usr/bin/time -f "agent $i: %U s user, %S s system, %M KB peak RSS" -o "$work/agent$i.time" \
    "$launcher" crawl "$work/sites/seeds.txt" --redis "redis://127.0.0.1:$port/0" --crawl-name broad \
      "${pinning[@]}" --delay "$delay" --max-time "${seconds}s" -n "$((sites * 400))" \
      -o "$work/agent$i.jsonl" --log-file "$work/agent$i.log" -q >/dev/null 2>&1 &
  pids+=($!)
  agent_pids+=($!)
done
for pid in "${agent_pids[@]}"; do wait "$pid" || true; done
wait "$server" || true
echo "$agents agents, $sites sites, delay $delay, ${seconds} s (the server counts from the first request):"
tail -n 2 "$work/server.txt"
# pages/s in each tenth of the run, counted from the first fetch any agent recorded
cat "$work"/agent*.jsonl | grep -o '"fetchedAt":"[^"]*"' | cut -d'"' -f4 | sort | awk -v secs="$seconds" '
  function t(s) { return substr(s, 12, 2) * 3600 + substr(s, 15, 2) * 60 + substr(s, 18) }
  NR == 1 { first = t($0) }
  { slot = int((t($0) - first) / (secs / 10)); if (slot < 10) n[slot]++ }
  END { line = "pages/s by tenth of the run:"; for (i = 0; i < 10; i++) line = line sprintf(" %.0f", n[i] / (secs / 10)); print line }'
cat "$work"/agent*.time
grep -h ' WARN \| ERROR ' "$work"/agent*.log | sed 's/^[^ ]* [^ ]* //' | sort | uniq -c | sort -rn | head -5 || true
pages=$(cat "$work"/agent*.jsonl | wc -l)
# Round trips: scripts and the commands agents send themselves, not those scripts run inside Redis (LPOP, XADD, ...)
calls=$(redis-cli -p "$port" info commandstats | awk -F'[:=,]' '
  /^cmdstat_(evalsha|eval|xreadgroup|xautoclaim|xlen|hget|hmget|hgetall|time|set|smembers):/ { n += $3 }
  END { print n }')
redis-cli -p "$port" info commandstats | grep -E "cmdstat_(evalsha|eval|xreadgroup|xautoclaim|xlen|hget|hmget|hgetall|time|set|smembers):" | cut -d, -f1 >&2
admitted=$(redis-cli -p "$port" hget "sievecrawl:{broad}:counters" admitted)
per_page=$(awk -v c="$calls" -v p="$pages" 'BEGIN { printf "%.2f", c / p }')
echo "pages recorded by the agents: $pages, URLs admitted: $admitted;"\
  "round trips to Redis (heartbeats included): $calls, $per_page a page"
