#!/bin/bash
# A short crawl, as a user starts one by hand: a site of PAGES pages (default 62) served by nginx on 127.0.0.1,
# crawled whole with --delay 0ms --host-concurrency 8, each run timed from start to exit by GNU time (JVM start
# included): wall and CPU seconds. Each launcher runs with its AOT cache and without (SIEVECRAWL_AOT=off), and wget2
# where installed, in alternating order; the first run of all is reported apart (a cold page cache), and medians are
# taken over the rest. With -S the site is served over https (TLS 1.2 and 1.3 offered, as nginx 1.23.4 and later
# offer by default), with a certificate for 127.0.0.1 from a CA made here that the crawlers are told to trust.
# Not part of the build or CI; needs nginx, python3 and GNU time (and openssl for -S).
#
#   crawler-core/src/bench/short-crawl.sh [-P PAGES] [-p RUNS] [-S] [-s LABEL=LAUNCHER]...
#
#   -P PAGES       pages in the site (default 62), each linking to the next and to 10 others
#   -p RUNS        runs of each (default 7) after the first
#   -S             https
#   -s LABEL=PATH  a sievecrawl launcher (default: sievecrawl=app/target/sievecrawl); repeat to compare builds
set -euo pipefail

site_pages=62
runs=7
tls=
crawlers=()
while getopts "P:p:Ss:h" opt; do
  case $opt in
    P) site_pages=$OPTARG ;;
    p) runs=$OPTARG ;;
    S) tls=1 ;;
    s) label=${OPTARG%%=*} launcher=${OPTARG#*=}
       [ "${launcher#/}" != "$launcher" ] || launcher=$PWD/$launcher
       crawlers+=("$label=$launcher") ;;
    *) sed -n '2,15p' "$0"; exit 2 ;;
  esac
done
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
[ ${#crawlers[@]} -gt 0 ] || crawlers=("sievecrawl=$root/app/target/sievecrawl")
for entry in "${crawlers[@]}"; do
  [ -x "${entry#*=}" ] || { echo "no launcher at ${entry#*=}: build with mvn -B -q package -DskipTests" >&2; exit 1; }
done
for tool in nginx python3 /usr/bin/time; do
  command -v "$tool" >/dev/null 2>&1 || { echo "$tool is missing" >&2; exit 1; }
done

work=$(mktemp -d /tmp/short-crawl.XXXXXX)
chmod 755 "$work"
. "$here/nginx.sh"
python3 - "$work/site" "$site_pages" <<'PY'
import os, random, sys
root, pages = sys.argv[1], int(sys.argv[2])
filler = ("Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et "
          "dolore magna aliqua. Ut enim ad minim veniam, quis nostrud exercitation. ")
def path(p):
    return "/index.html" if p == 0 else f"/docs/{p % 7}/page-{p}.html"
for p in range(pages):
    rnd = random.Random(p)
    html = [f'<!doctype html><html><head><meta charset="utf-8"><title>Page {p}</title>'
            f'<link rel="stylesheet" href="/style.css"></head><body><nav><a href="/index.html">home</a></nav><main>'
            f'<h1>Page {p}</h1>']
    for _ in range(4 + rnd.randrange(30)):
        html.append("<p>" + filler[: 60 + rnd.randrange(len(filler) - 60)] + filler + "</p>\n")
    html.append(f'<ul><li><a href="{path((p + 1) % pages)}">next</a></li>')
    for i in range(10):
        html.append(f'<li><a href="{path(rnd.randrange(pages))}">link {i}</a></li>')
    html.append("</ul></main></body></html>\n")
    f = root + path(p)
    os.makedirs(os.path.dirname(f), exist_ok=True)
    open(f, "w").write("".join(html))
open(root + "/style.css", "w").write("body { font-family: sans-serif }\n")
PY
chmod -R a+rX "$work/site"
extra=
site_port=$port
trust=()
wget2_trust=()
if [ -n "$tls" ]; then # a CA, and a certificate for 127.0.0.1 signed by it
  site_port=$((port + 1))
  openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=sievecrawl bench CA" -keyout "$work/ca.key" \
    -out "$work/ca.pem" 2>/dev/null
  openssl req -newkey rsa:2048 -nodes -subj "/CN=127.0.0.1" -keyout "$work/site.key" -out "$work/site.csr" 2>/dev/null
  printf 'subjectAltName=IP:127.0.0.1\n' > "$work/san.ext"
  openssl x509 -req -in "$work/site.csr" -CA "$work/ca.pem" -CAkey "$work/ca.key" -CAcreateserial -days 2 \
    -extfile "$work/san.ext" -out "$work/site.pem" 2>/dev/null
  chmod 644 "$work"/*.pem "$work"/*.key
  extra="listen 127.0.0.1:$site_port ssl; ssl_certificate $work/site.pem; ssl_certificate_key $work/site.key;"
  extra="$extra ssl_protocols TLSv1.2 TLSv1.3;"
  trust=(--set "fetch.ca-file=$work/ca.pem")
  wget2_trust=(--ca-certificate="$work/ca.pem")
fi
start_nginx "$work" "$work/site" "$extra"
trap 'stop_nginx "$work"; rm -rf "$work"' EXIT
echo "http${tls:+s}://127.0.0.1:$site_port/index.html" > "$work/seeds.txt"
echo "short crawl: $site_pages pages, nginx on 127.0.0.1:$site_port${tls:+ (https)}; $(nproc) cores," \
  "load $(cut -d' ' -f1-3 /proc/loadavg)"

entries=()
for entry in "${crawlers[@]}"; do entries+=("$entry" "${entry%%=*}-no-aot=${entry#*=}"); done
command -v wget2 >/dev/null 2>&1 && entries+=("wget2=wget2")

# run LABEL LAUNCHER FIRST: one crawl; appends "label pages wall cpu" to $work/results unless FIRST
run() {
  local label=$1 launcher=$2 first=$3 aot=on
  : > "$work/nginx/access.log"
  rm -rf "$work/out" && mkdir -p "$work/out"
  case $label in *-no-aot) aot=off ;; esac
  if [ "$label" = wget2 ]; then
    (cd "$work/out" && /usr/bin/time -f "%e %U %S" -o "$work/time" wget2 -q -r -l inf --no-parent --max-threads=8 \
      --delete-after --no-host-directories "${wget2_trust[@]}" "$(cat "$work/seeds.txt")") || true
  else
    (cd "$work/out" && SIEVECRAWL_AOT=$aot /usr/bin/time -f "%e %U %S" -o "$work/time" "$launcher" crawl \
      "$work/seeds.txt" -q --delay 0ms --host-concurrency 8 "${trust[@]}" -o pages.jsonl --log-file crawl.log \
      >/dev/null)
  fi
  local pages
  pages=$(awk '$9 == 200 && $7 ~ /\.html$/' "$work/nginx/access.log" | wc -l)
  read -r wall user sys < <(tail -n 1 "$work/time")
  local cpu
  cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }')
  printf '%-22s %4d pages %6.2f s wall %6.2f s CPU%s\n' "$label" "$pages" "$wall" "$cpu" "${first:+ (first run)}"
  [ -n "$first" ] || echo "$label $pages $wall $cpu" >> "$work/results"
}

first=1
for ((i = 1; i <= runs; i++)); do
  order=("${entries[@]}")
  if ((i % 2 == 0)); then
    order=()
    for ((j = ${#entries[@]} - 1; j >= 0; j--)); do order+=("${entries[j]}"); done
  fi
  for entry in "${order[@]}"; do
    if [ -n "$first" ]; then run "${entry%%=*}" "${entry#*=}" 1; first=; fi
    run "${entry%%=*}" "${entry#*=}" ""
  done
done

echo
echo "medians of $runs runs; load now $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$work/results" <<'PY'
import statistics, sys
by = {}
for label, pages, wall, cpu in (l.split() for l in open(sys.argv[1])):
    by.setdefault(label, []).append((int(pages), float(wall), float(cpu)))
m = statistics.median
print(f"{'crawler':<22} {'pages':>6} {'wall s':>7} {'max wall s':>10} {'CPU s':>6}")
for label, rs in by.items():
    print(f"{label:<22} {m(r[0] for r in rs):>6.0f} {m(r[1] for r in rs):>7.2f} {max(r[1] for r in rs):>10.2f}"
          f" {m(r[2] for r in rs):>6.2f}")
PY
