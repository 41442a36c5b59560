# Sourced by the benchmark scripts: a private Redis Cluster of three masters (Debian's redis-server in cluster mode)
# on free loopback ports, and what each master holds of a crawl.
#
#   start_cluster WORK     starts the masters in WORK/redis-PORT, joins them with redis-cli --cluster create, waits
#                          for cluster_state:ok; sets $cluster_ports (the masters' ports, an array) and
#                          $cluster_seeds (redis://127.0.0.1:P1,127.0.0.1:P2,... for --redis)
#   cluster_spread         prints, per master, its keys of any crawl (sievecrawl:*) and their MEMORY USAGE, each
#                          with its share of all masters'
#   cluster_commands FILE  writes the masters' commands so far (INFO commandstats, calls summed over the masters,
#                          one "COMMAND CALLS" a line) and, on a line "cpu SECONDS", their CPU time so far
#   cluster_commands_since BEFORE AFTER
#                          prints what two such files differ by: the Redis CPU seconds, all commands, and each
#                          command's calls, most first
#   stop_cluster           shuts the masters down, keeping nothing
cluster_ports=()
cluster_seeds=

start_cluster() {
  local work=$1 port
  command -v redis-server >/dev/null 2>&1 || { echo "redis-server is missing: apt-get install redis-server" >&2; return 1; }
  for _ in 1 2 3; do
    # a port and its cluster bus port (port + 100), both free now
    port=$(python3 -c '
import socket
while True:
    a = socket.socket(); a.bind(("127.0.0.1", 0)); p = a.getsockname()[1]
    if p + 100 > 65535: continue
    try:
        b = socket.socket(); b.bind(("127.0.0.1", p + 100)); print(p); break
    except OSError: pass')
    mkdir -p "$work/redis-$port"
    redis-server --port "$port" --bind 127.0.0.1 --cluster-enabled yes --cluster-port $((port + 100)) \
      --cluster-config-file "$work/redis-$port/nodes.conf" --dir "$work/redis-$port" --save '' --appendonly no \
      --daemonize yes --logfile "$work/redis-$port/log"
    cluster_ports+=("$port")
  done
  for port in "${cluster_ports[@]}"; do
    until redis-cli -p "$port" ping >/dev/null 2>&1; do sleep 0.1; done
  done
  redis-cli --cluster create $(printf '127.0.0.1:%s ' "${cluster_ports[@]}") --cluster-yes >"$work/cluster-create.log"
  for port in "${cluster_ports[@]}"; do
    until redis-cli -p "$port" cluster info | grep -q cluster_state:ok; do sleep 0.2; done
  done
  cluster_seeds=redis://$(printf '127.0.0.1:%s,' "${cluster_ports[@]}" | sed 's/,$//')
}

cluster_spread() {
  local port
  for port in "${cluster_ports[@]}"; do
    redis-cli -p "$port" --scan --pattern 'sievecrawl:*' | while read -r key; do
      echo "$port $(redis-cli -p "$port" memory usage "$key" samples 0)"
    done
  done | awk -v ports="${cluster_ports[*]}" '{ keys[$1]++; bytes[$1] += $2; all_keys++; all_bytes += $2 }
    END { n = split(ports, port, " ")
          for (i = 1; i <= n; i++) { p = port[i]
            printf "master 127.0.0.1:%s: %d keys (%.1f%%), %d bytes (%.1f%%)\n", p, keys[p],
              all_keys ? 100 * keys[p] / all_keys : 0, bytes[p], all_bytes ? 100 * bytes[p] / all_bytes : 0 } }'
}

cluster_commands() {
  local port
  for port in "${cluster_ports[@]}"; do
    redis-cli -p "$port" info commandstats | tr -d '\r' | awk -F'[_:=,]' '/^cmdstat_/ { print $2, $4 }'
    redis-cli -p "$port" info cpu | tr -d '\r' | awk -F: '/^used_cpu_(sys|user):/ { print "cpu", $2 }'
  done | awk '{ sum[$1] += $2 } END { for (c in sum) print c, sum[c] }' > "$1"
}

cluster_commands_since() {
  awk 'NR == FNR { before[$1] = $2; next } { print $1, $2 - before[$1] }' "$1" "$2" | sort -k2,2nr | awk '
    $1 == "cpu" { cpu = $2; next } $2 > 0 { all += $2; if (++n <= 8) top = top " " tolower($1) " " $2 }
    END { printf "Redis: %.2f s CPU over the masters, %d commands:%s\n", cpu, all, top }'
}

stop_cluster() {
  local port
  for port in "${cluster_ports[@]}"; do redis-cli -p "$port" shutdown nosave >/dev/null 2>&1 || true; done
}
