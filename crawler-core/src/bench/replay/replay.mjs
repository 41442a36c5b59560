// Replays pages of a WACZ in headless Chromium with ReplayWeb.page and says what came back:
//   node replay.mjs BASE PAGES.jsonl [LIMIT]
// BASE serves embed.html, ui.js, replay/sw.js and archive.wacz (replay-wacz.sh lays them out). Each page of
// PAGES.jsonl (the WACZ's pages/pages.jsonl) is opened at its listed capture; it replays when the archived document
// comes back with status 200 and the title pages.jsonl gives. Its requisites are what the replayed document asked
// for (style sheets, images, scripts, fonts, media), each URL once per page: one loads when the archive answers 200.
import puppeteer from "puppeteer-core";
import fs from "node:fs";

const [, , base, pagesFile, limitArg] = process.argv;
const limit = limitArg ? Number(limitArg) : Infinity;
const pages = fs.readFileSync(pagesFile, "utf8").split("\n").filter(l => l.trim()).map(l => JSON.parse(l))
    .filter(p => p.url).slice(0, limit);
const profile = fs.mkdtempSync("/tmp/replay-profile-");
const browser = await puppeteer.launch({executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  headless: true, userDataDir: profile, protocolTimeout: 180000,
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync"]});
const REPLAYED = /\/w\/[^?#]*?\/([0-9]*)([a-z]{2}_)\/(https?:.*)$/; // wabac.js's /w/COLL/.../TSmp_/URL
const SUBRESOURCES = new Set(["stylesheet", "image", "script", "font", "media"]);
const collapse = t => (t || "").replace(/\s+/g, " ").trim();
let replayed = 0, withTitle = 0, requisites = 0, loaded = 0, sheets = 0, sheetsApplied = 0, images = 0, shown = 0;
try {
  const page = await browser.newPage();
  let responses = [];
  page.on("response", r => responses.push({url: r.url(), status: r.status(), type: r.request().resourceType()}));
  for (const p of pages) {
    responses = [];
    const ts = p.ts ? p.ts.replace(/[-:TZ]/g, "").slice(0, 14) : "";
    let got = null, status = null, failure = null;
    try {
      await page.goto(`${base}/embed.html?source=${encodeURIComponent(base + "/archive.wacz")}`
          + `&url=${encodeURIComponent(p.url)}&ts=${ts}`);
      const frame = await page.waitForFrame(f => (REPLAYED.exec(f.url()) || [])[2] === "mp_", {timeout: 60000});
      await frame.waitForFunction(() => document.readyState === "complete", {timeout: 60000});
      got = await frame.evaluate(() => ({title: document.title,
        sheets: [...document.querySelectorAll("link[rel~=stylesheet]")].map(l => !!l.sheet),
        images: [...document.images].filter(i => i.src).map(i => i.complete && i.naturalWidth > 0)}));
    } catch (e) {
      failure = e.message.split("\n")[0];
    }
    const seen = new Map();
    for (const r of responses) {
      const m = REPLAYED.exec(r.url);
      if (!m) continue;
      if (r.type === "document" && m[2] === "mp_" && r.status !== 302) status = r.status;
      else if (SUBRESOURCES.has(r.type)) seen.set(m[3], Math.max(seen.get(m[3]) === 200 ? 200 : 0, r.status));
    }
    const ok = status === 200 && got !== null;
    const titled = ok && collapse(got.title) === collapse(p.title) && collapse(got.title) !== "";
    replayed += ok ? 1 : 0;
    withTitle += titled ? 1 : 0;
    for (const [url, s] of seen) {
      requisites++;
      if (s === 200) loaded++; else console.log(`  requisite ${s}: ${url} (of ${p.url})`);
    }
    if (got) {
      sheets += got.sheets.length; sheetsApplied += got.sheets.filter(x => x).length;
      images += got.images.length; shown += got.images.filter(x => x).length;
    }
    if (!titled) {
      console.log(`  page ${p.url} at ${p.ts}: status ${status}, title ${JSON.stringify(got && got.title)}`
          + ` (pages.jsonl: ${JSON.stringify(p.title)})${failure ? ": " + failure : ""}`);
    }
  }
} finally {
  await browser.close();
  fs.rmSync(profile, {recursive: true, force: true});
}
console.log(`${replayed} of ${pages.length} pages replay with status 200; ${withTitle} with their title`);
console.log(`${loaded} of ${requisites} requisites load (status 200; each URL once a page)`);
console.log(`${sheetsApplied} of ${sheets} style sheets applied, ${shown} of ${images} images shown`);
process.exit(withTitle === pages.length && loaded === requisites ? 0 : 1);
