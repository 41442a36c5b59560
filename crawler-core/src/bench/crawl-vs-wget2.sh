#!/bin/bash
# Crawls the OpenJDK 17 javadoc (Debian's openjdk-17-doc, about 10,000 pages) served by nginx on 127.0.0.1 with
# sievecrawl and, where installed, wget2, in alternating pairs, and prints per run and as medians: pages/s, CPU
# seconds per page (for sievecrawl also its JIT compiler threads' and garbage collector's CPU seconds apart, and the
# rest per page, from /proc by thread name: thread-cpu.py), peak RSS and bytes written to disk, with the ratios to
# wget2. Whole commands are timed by GNU time, JVM start included. Not part of the build or CI. Needs nginx, GNU time and the corpus (installed with apt-get
# if missing, as root).
#
#   crawler-core/src/bench/crawl-vs-wget2.sh [-p PAIRS] [-c "8 32"] [-k COPIES] [-d DELAY -l LEVELS] [-n]
#                                            [-s LABEL=LAUNCHER]...
#
#   -p PAIRS       runs of each crawler per concurrency (default 5); the order alternates from pair to pair
#   -c LEVELS      concurrency levels (default "8 32"): sievecrawl --concurrency/--host-concurrency, wget2
#                  --max-threads
#   -k COPIES      serve the corpus this many times under /c0/, /c1/, ... and seed each copy (default 1): 10
#                  copies make a crawl of about 100,000 pages, where start-up and the JIT weigh less
#   -d DELAY       a polite crawl: one request at a time to the server, DELAY apart (sievecrawl --delay DELAY
#                  --host-concurrency 1, wget2 --wait DELAY --max-threads 1), e.g. 20ms; CPU per page then shows what
#                  waiting costs, as on a real site
#   -l LEVELS      follow links this many hops from the seeds (sievecrawl --max-depth, wget2 -l); the javadoc has
#                  73 pages within 1 and 5,157 within 2
#   -n             without wget2: only the sievecrawl launchers, e.g. two builds in alternating pairs
#   -s LABEL=PATH  a sievecrawl launcher to run (default: sievecrawl=app/target/sievecrawl); repeat to compare
#                  builds, e.g. -s before=/tmp/old/sievecrawl -s after=app/target/sievecrawl
#
# A page is a request nginx answered with 200, counted in its access log: wget2 also fetches the images, scripts
# and style sheets the pages use, which sievecrawl does not follow, so the page counts differ a little.
set -euo pipefail

pairs=5
levels="8 32"
copies=1
delay=
levels_deep=
crawlers=()
no_wget2=0
while getopts "p:c:k:d:l:s:nh" opt; do
  case $opt in
    p) pairs=$OPTARG ;;
    n) no_wget2=1 ;;
    c) levels=$OPTARG ;;
    k) copies=$OPTARG ;;
    d) delay=$OPTARG ;;
    l) levels_deep=$OPTARG ;;
    s) label=${OPTARG%%=*} launcher=${OPTARG#*=}
       [ "${launcher#/}" != "$launcher" ] || launcher=$PWD/$launcher
       crawlers+=("$label=$launcher") ;;
    *) sed -n '2,25p' "$0"; exit 2 ;;
  esac
done
case $copies in
  [1-9] | [1-9][0-9]) ;;
  *) echo "-k wants a number of copies from 1 to 99, not '$copies'" >&2; exit 2 ;;
esac
wget2_polite=()
sievecrawl_polite=()
if [ -n "$delay" ]; then
  case $delay in
    [0-9]*ms) wait_seconds=$(awk -v ms="${delay%ms}" 'BEGIN { print ms / 1000 }') ;;
    [0-9]*s) wait_seconds=${delay%s} ;;
    *) echo "-d wants a delay such as 20ms or 1s, not '$delay'" >&2; exit 2 ;;
  esac
  wget2_polite=(--wait="$wait_seconds" --max-threads=1)
  sievecrawl_polite=(--delay "$delay" --host-concurrency 1)
fi
depth_wget2=(-l inf)
depth_sievecrawl=()
if [ -n "$levels_deep" ]; then
  case $levels_deep in
    [0-9] | [1-9][0-9]) depth_wget2=(-l "$levels_deep"); depth_sievecrawl=(--max-depth "$levels_deep") ;;
    *) echo "-l wants a number of link hops from 0 to 99, not '$levels_deep'" >&2; exit 2 ;;
  esac
fi
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
[ ${#crawlers[@]} -gt 0 ] || crawlers=("sievecrawl=$root/app/target/sievecrawl")

need_root_install() {
  command -v "$1" >/dev/null 2>&1 && return 0
  echo "installing $2 (apt-get)" >&2
  [ "$(id -u)" -eq 0 ] || { echo "$1 is missing: apt-get install $2" >&2; exit 1; }
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$2" >&2
}
need_root_install nginx nginx-light
[ -x /usr/bin/time ] || need_root_install /usr/bin/time time
corpus=$("$here/javadoc-corpus.sh")
has_wget2=0
if [ $no_wget2 -eq 0 ]; then
  command -v wget2 >/dev/null 2>&1 && has_wget2=1 || echo "wget2 not installed: running sievecrawl alone" >&2
fi
for entry in "${crawlers[@]}"; do
  [ -x "${entry#*=}" ] || { echo "no launcher at ${entry#*=}: build with mvn -B -q package -DskipTests" >&2; exit 1; }
done

work=$(mktemp -d /tmp/crawl-vs-wget2.XXXXXX)
. "$here/nginx.sh"
docroot=$corpus
seeds=("http://127.0.0.1:$port/index.html")
if [ "$copies" -gt 1 ]; then # links to the one corpus; its pages link relatively, so each copy links within itself
  docroot=$work/copies
  mkdir -p "$docroot"
  chmod 755 "$work" "$docroot" # nginx's workers, not root, follow the links
  seeds=()
  for ((i = 0; i < copies; i++)); do
    ln -s "$corpus" "$docroot/c$i"
    seeds+=("http://127.0.0.1:$port/c$i/index.html")
  done
fi
start_nginx "$work" "$docroot"
trap 'stop_nginx "$work"; rm -rf "$work"' EXIT
printf '%s\n' "${seeds[@]}" > "$work/seeds.txt"
echo "corpus: $corpus ($(find "$corpus" -name '*.html' | wc -l) HTML pages) served $copies time(s)," \
  "nginx on 127.0.0.1:$port;" \
  "$(nproc) cores, load $(cut -d" " -f1-3 /proc/loadavg); $(wget2 --version 2>/dev/null | head -n 1 || true)"

# run LABEL CONCURRENCY: one crawl; appends "label concurrency pages seconds cpu rss_kb written_blocks jit gc" to
# $work/results (GNU time's file system outputs: 512-byte blocks; jit and gc 0 for wget2)
run() {
  local label=$1 c=$2
  : > "$work/nginx/access.log"
  rm -rf "$work/out" && mkdir -p "$work/out"
  if [ "$label" = wget2 ]; then
    local threads=(--max-threads="$c")
    [ -n "$delay" ] && threads=("${wget2_polite[@]}")
    (cd "$work/out" && /usr/bin/time -f "%e %U %S %M %O" -o "$work/time" wget2 -q -r "${depth_wget2[@]}" --no-parent \
      "${threads[@]}" --delete-after --no-host-directories "${seeds[@]}") || true
  else
    local launcher
    for entry in "${crawlers[@]}"; do [ "${entry%%=*}" = "$label" ] && launcher=${entry#*=}; done
    local pace=(--host-concurrency "$c" --delay 0ms)
    [ -n "$delay" ] && pace=("${sievecrawl_polite[@]}")
    (cd "$work/out" && exec /usr/bin/time -f "%e %U %S %M %O" -o "$work/time" "$launcher" crawl "$work/seeds.txt" \
      -q --concurrency "$c" "${pace[@]}" "${depth_sievecrawl[@]}" -n $((copies * 100000)) \
      --set crawl.max-pages-per-host=0 -o pages.jsonl --log-file crawl.log >/dev/null) &
    local timed=$!
    python3 "$here/thread-cpu.py" $timed "$work/threads" &
    local watcher=$!
    wait $timed
    wait $watcher
  fi
  local pages requests
  pages=$(awk '$9 == 200' "$work/nginx/access.log" | wc -l)
  requests=$(wc -l < "$work/nginx/access.log")
  if [ "$pages" -eq 0 ]; then
    echo "$label fetched no page: nginx answered $requests requests, see $work/nginx" >&2
    trap - EXIT
    stop_nginx "$work"
    exit 1
  fi
  read -r wall user sys rss written < <(tail -n 1 "$work/time")
  local cpu jit=0 gc=0
  cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }')
  [ "$label" = wget2 ] || read -r jit gc < "$work/threads"
  awk -v l="$label" -v c="$c" -v p="$pages" -v r="$requests" -v w="$wall" -v cpu="$cpu" -v rss="$rss" \
    -v out="$written" -v jit="$jit" -v gc="$gc" 'BEGIN {
    printf "%-12s c=%-3s %6d pages (%6d requests) %7.2f s wall %7.2f s CPU %7.0f pages/s %7.3f ms CPU/page" \
      " (JIT %5.2f s, GC %5.2f s, rest %6.3f ms/page) %6.0f MB RSS %8.1f MB written\n", l, c, p, r, w, cpu, p / w,
      1000 * cpu / p, jit, gc, 1000 * (cpu - jit - gc) / p, rss / 1024, out * 512 / 1048576 }'
  echo "$label $c $pages $wall $cpu $rss $written $jit $gc" >> "$work/results"
}

labels=()
for entry in "${crawlers[@]}"; do labels+=("${entry%%=*}"); done
[ $has_wget2 -eq 1 ] && labels+=(wget2)
for c in $levels; do
  for ((i = 1; i <= pairs; i++)); do
    order=("${labels[@]}")
    if ((i % 2 == 0)); then # alternate who goes first
      order=()
      for ((j = ${#labels[@]} - 1; j >= 0; j--)); do order+=("${labels[j]}"); done
    fi
    for label in "${order[@]}"; do run "$label" "$c"; done
  done
done

echo
echo "medians of $pairs runs (ratio = sievecrawl / wget2); load now $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$work/results" "$has_wget2" <<'EOF'
import statistics, sys
rows = [line.split() for line in open(sys.argv[1])]
has_wget2 = sys.argv[2] == "1"
table = {}
for label, c, pages, wall, cpu, rss, written, jit, gc in rows:
    table.setdefault((label, int(c)), []).append((int(pages), float(wall), float(cpu), int(rss), int(written),
                                                  float(jit), float(gc)))
print(f"{'crawler':<12} {'conc.':>5} {'pages':>7} {'pages/s':>9} {'CPU ms/page':>12} {'JIT s':>6} {'GC s':>5}"
      f" {'rest ms/page':>12} {'peak RSS MB':>12} {'KB written/page':>16}"
      + ("   pages/s ratio   CPU/page ratio   RSS ratio" if has_wget2 else ""))
for (label, c), runs in sorted(table.items(), key=lambda kv: (kv[0][1], kv[0][0] == "wget2", kv[0][0])):
    pages = statistics.median(r[0] for r in runs)
    rate = statistics.median(r[0] / r[1] for r in runs)
    cpu = statistics.median(1000 * r[2] / r[0] for r in runs)
    rss = statistics.median(r[3] / 1024 for r in runs)
    written = statistics.median(r[4] / 2 / r[0] for r in runs)
    jit = statistics.median(r[5] for r in runs)
    gc = statistics.median(r[6] for r in runs)
    rest = statistics.median(1000 * (r[2] - r[5] - r[6]) / r[0] for r in runs)
    line = (f"{label:<12} {c:>5} {pages:>7.0f} {rate:>9.0f} {cpu:>12.3f} {jit:>6.2f} {gc:>5.2f} {rest:>12.3f}"
            f" {rss:>12.0f} {written:>16.1f}")
    if has_wget2 and label != "wget2" and ("wget2", c) in table:
        w = table[("wget2", c)]
        line += (f"   {rate / statistics.median(r[0] / r[1] for r in w):>13.2f}"
                 f"   {cpu / statistics.median(1000 * r[2] / r[0] for r in w):>14.2f}"
                 f"   {rss / statistics.median(r[3] / 1024 for r in w):>9.2f}")
    print(line)
EOF
