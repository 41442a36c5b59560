#!/bin/bash
# How soon after its page each requisite is archived, at the default politeness (one request a second per origin,
# adaptive): an image-heavy site of PAGES pages (default 500), each showing 20 images (18 of its own, 2 the whole site
# shows) and using 2 style sheets (one imports a third with a background image), is generated, served by nginx on
# 127.0.0.1 and crawled with --warc, for at most DURATION (default 10m: the whole site takes about three hours at one
# request a second). From the records: each requisite's lag, its fetchedAt less the fetchedAt of the page (or style
# sheet) that needed it first, as the median, the 99th percentile and the largest; how many lag over a minute; and the
# pages fetched whose requisites were not all fetched by the end. Not part of the build or CI. Needs nginx and node.
#
#   crawler-core/src/bench/requisites-lag.sh [-n PAGES] [-t DURATION] [-s LAUNCHER] [-- CRAWL OPTIONS...]
set -euo pipefail

pages=500
duration=10m
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
launcher=$root/app/target/sievecrawl
while getopts "n:t:s:h" opt; do
  case $opt in
    n) pages=$OPTARG ;;
    t) duration=$OPTARG ;;
    s) launcher=$OPTARG ;;
    *) sed -n '2,10p' "$0"; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
. "$here/nginx.sh"
work=$(mktemp -d); [ -z "${KEEP:-}" ] || echo "work directory: $work" >&2
trap 'stop_nginx "$work"; [ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
chmod 755 "$work"
node - "$work/site" "$pages" <<'GEN'
const fs = require("fs");
const [, , site, count] = process.argv;
const n = Number(count);
fs.mkdirSync(`${site}/img`, {recursive: true});
fs.mkdirSync(`${site}/css`, {recursive: true});
const zlib = require("zlib");
const crcTable = [...Array(256)].map((_, n) => { for (let k = 0; k < 8; k++) n = n & 1 ? 0xedb88320 ^ (n >>> 1) : n >>> 1; return n >>> 0; });
const crc = b => { let c = ~0; for (const x of b) c = crcTable[(c ^ x) & 255] ^ (c >>> 8); return (~c) >>> 0; };
const chunk = (type, data) => { const head = Buffer.alloc(8), tail = Buffer.alloc(4);
  head.writeUInt32BE(data.length); head.write(type, 4); tail.writeUInt32BE(crc(Buffer.concat([head.subarray(4), data])));
  return Buffer.concat([head, data, tail]); };
const png = id => { // a 16x16 image a browser shows, its text chunk making each image's bytes its own (about 2 KB)
  const ihdr = Buffer.alloc(13); ihdr.writeUInt32BE(16); ihdr.writeUInt32BE(16, 4); ihdr[8] = 8; ihdr[9] = 2;
  const rows = Buffer.alloc(16 * 49, 0x80); for (let r = 0; r < 16; r++) rows[r * 49] = 0; // filter 0, grey
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk("IHDR", ihdr),
    chunk("tEXt", Buffer.from("Comment\0" + String(id).padEnd(2000, "."))), chunk("IDAT", zlib.deflateSync(rows)),
    chunk("IEND", Buffer.alloc(0))]); };
fs.writeFileSync(`${site}/css/site.css`, "@import \"type.css\";\nbody { max-width: 50em }\n");
fs.writeFileSync(`${site}/css/type.css`, "body { background: url(../img/bg.png) }\n");
fs.writeFileSync(`${site}/css/print.css`, "@media print { nav { display: none } }\n");
for (const shared of ["logo", "icon", "bg"]) fs.writeFileSync(`${site}/img/${shared}.png`, png(shared));
let seed = 42;
const random = k => (seed = (seed * 1103515245 + 12345) % 2147483648) % k;
for (let p = 0; p < n; p++) {
  let html = `<!doctype html><html><head><meta charset="utf-8"><title>Page ${p}</title>`
      + `<link rel="stylesheet" href="/css/site.css"><link rel="stylesheet" href="/css/print.css" media="print">`
      + `</head><body><nav><img src="/img/logo.png" alt=""><img src="/img/icon.png" alt=""></nav><h1>Page ${p}</h1>`;
  for (let i = 0; i < 18; i++) {
    fs.writeFileSync(`${site}/img/${p}-${i}.png`, png(`${p}-${i}`));
    html += `<p>Picture ${i}<img src="/img/${p}-${i}.png" alt=""></p>`;
  }
  for (const q of [p + 1, random(n), random(n), random(n)]) {
    if (q < n) html += `<a href="${q === 0 ? "/" : `/${q}.html`}">page ${q}</a> `;
  }
  fs.writeFileSync(`${site}/${p === 0 ? "index" : p}.html`, html + "</body></html>\n");
}
GEN
start_nginx "$work" "$work/site"
echo "http://127.0.0.1:$port/" > "$work/seeds.txt"
start=$(date +%s)
"$launcher" crawl "$work/seeds.txt" --warc "$work/warc" --max-time "$duration" -q -o "$work/pages.jsonl" \
    --log-file "$work/crawl.log" --job "$work/job" "$@" || true
echo "crawled for $(( $(date +%s) - start )) s: $(grep -m1 -E 'crawl [a-z ]+: [0-9,]+ pages' "$work/crawl.log" | sed 's/.* - //')"
node - "$work/pages.jsonl" <<'EOF2'
const fs = require("fs");
const records = fs.readFileSync(process.argv[2], "utf8").split("\n").filter(l => l).map(l => JSON.parse(l));
const at = new Map(records.map(r => [r.url, Date.parse(r.fetchedAt)]));
const lags = [];
for (const r of records) if (r.requisite && at.has(r.referrer)) lags.push((at.get(r.url) - at.get(r.referrer)) / 1000);
lags.sort((a, b) => a - b);
const q = f => lags.length ? lags[Math.min(lags.length - 1, Math.floor(f * lags.length))].toFixed(1) : "-";
const pages = records.filter(r => !r.requisite && r.status === 200);
const fetched = new Set(records.map(r => r.url));
let incomplete = 0;
for (const p of pages) {
  const n = new URL(p.url).pathname.match(/^\/(\d+)\.html$/)?.[1] ?? "0";
  for (let i = 0; i < 18; i++) if (!fetched.has(new URL(`/img/${n}-${i}.png`, p.url).href)) { incomplete++; break; }
}
console.log(`${pages.length} pages and ${lags.length} requisites; requisite lag after the page that needed it:`
    + ` median ${q(0.5)} s, 99th percentile ${q(0.99)} s, largest ${q(1)} s; ${lags.filter(l => l > 60).length}`
    + ` over a minute; ${incomplete} pages fetched without all their images (the run's end cut them off)`);
EOF2
