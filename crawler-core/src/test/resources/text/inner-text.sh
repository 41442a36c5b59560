#!/bin/sh
# Writes the expected visible text of every-element.html (and of any other page given) as Debian's headless Chromium
# renders it: document.body.innerText, written by a script appended to a copy of the page and read back from
# --dump-dom. Run it again when the test page changes; the JUnit tests then need no browser.
#
#   crawler-core/src/test/resources/text/inner-text.sh [PAGE.html ...]   # default: every-element.html
#
# Each PAGE.html gets PAGE.innertext.txt beside it: Chromium's innerText as it came, which the tests compare with
# white space collapsed (runs of spaces, tabs and no-break spaces to one space, lines trimmed, empty lines dropped).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
[ $# -gt 0 ] || set -- "$here/every-element.html"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for page in "$@"; do
  page=$(cd "$(dirname "$page")" && pwd)/$(basename "$page")
  copy="$(dirname "$page")/.innertext-$(basename "$page")" # beside the page, so that its relative URLs still resolve
  cp "$page" "$copy"
  cat >> "$copy" <<'SCRIPT'
<script>window.addEventListener('load', () => { const text = document.body.innerText;
const out = document.createElement('script'); out.type = 'application/json'; out.id = '__innertext';
out.textContent = JSON.stringify(text).replace(/</g, '\\u003c'); document.head.append(out); });</script>
SCRIPT
  chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking \
      --disable-component-update --disable-sync --user-data-dir="$work/profile" --virtual-time-budget=3000 \
      --dump-dom "file://$copy" 2>/dev/null > "$work/dom.html" || true
  rm -f "$copy"
  node -e '
    const html = require("fs").readFileSync(process.argv[1], "utf8");
    const m = html.match(/<script type="application\/json" id="__innertext">(.*?)<\/script>/s);
    if (!m) { console.error("no innerText in the dump of " + process.argv[2]); process.exit(1); }
    require("fs").writeFileSync(process.argv[2], JSON.parse(m[1]));
  ' "$work/dom.html" "${page%.html}.innertext.txt"
  echo "${page%.html}.innertext.txt" >&2
done
