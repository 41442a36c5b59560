// Makes the Chromium expectations of EncodingTest and BrowserDocumentsTest: what Chromium's TextDecoder makes of
// sample bytes under every label of the pinned encodings.json, how a document in each encoding encodes a link's
// query, and which encoding and links Chromium gives sample pages. See README.md. Run from this folder:
//   npm install --no-save && node generate.mjs /usr/bin/chromium
// Every request goes to a server this script runs on 127.0.0.1.
import fs from 'fs';
import http from 'http';
import os from 'os';
import path from 'path';
import zlib from 'zlib';
import puppeteer from 'puppeteer-core';
import {documents} from './documents.mjs';

const here = path.dirname(new URL(import.meta.url).pathname);
const chromium = process.argv[2] || '/usr/bin/chromium';
const encodings = JSON.parse(fs.readFileSync(
    path.join(here, '../../../main/resources/io/sievecrawl/crawler/encoding/encodings.json'), 'utf8'));
const indexes = JSON.parse(fs.readFileSync(
    path.join(here, '../../../main/resources/io/sievecrawl/crawler/encoding/indexes.json'), 'utf8'));

const hex = bytes => Buffer.from(bytes).toString('hex');
const range = (from, to) => Array.from({length: to - from + 1}, (_, i) => from + i);

// ---- Byte samples. Each case is a list of bytes; cases that pair bytes put 0x0A after each pair, which no
// decoder takes as a trail byte, so one pair's error cannot spill into the next. Trail bytes: every range boundary
// of the standard's decoders, those of Big5's four pointers of two code points, and every 7th byte between (all
// 256 would make this file five times larger).
const TRAILS = [...new Set([0x00, 0x0A, 0x20, 0x2F, 0x30, 0x39, 0x3A, 0x3F, 0x40, 0x41, 0x5C, 0x7E, 0x7F, 0x80,
  0x81, 0x9F, 0xA0, 0xA1, 0xBF, 0xC0, 0xDF, 0xE0, 0xFC, 0xFD, 0xFE, 0xFF, 0x62, 0x64, 0xA3, 0xA5, ...range(0, 27).map(i => 0x42 + 7 * i)])]
  .sort((a, b) => a - b);
function pairsAfter(lead) {
  const bytes = [];
  for (const trail of TRAILS) bytes.push(lead, trail, 0x0A);
  return bytes;
}

function familyCases(name) {
  const cases = [];
  const add = (label, bytes) => cases.push({case: label, bytes});
  switch (name) {
    case 'UTF-8':
      for (const lead of range(0xC0, 0xFF)) add(`pairs-${lead.toString(16)}`, pairsAfter(lead));
      for (const lead of range(0xE0, 0xF4)) {
        const bytes = [];
        for (const second of range(0x70, 0xC5)) for (const third of [0x7F, 0x80, 0xBF, 0xC0]) bytes.push(lead, second, third, 0x0A);
        add(`triples-${lead.toString(16)}`, bytes);
      }
      for (const lead of range(0xF0, 0xF7)) {
        const bytes = [];
        for (const second of [0x7F, 0x80, 0x8F, 0x90, 0xBF, 0xC0]) for (const third of [0x7F, 0x80, 0xBF]) for (const fourth of [0x7F, 0x80, 0xBF, 0xC0]) bytes.push(lead, second, third, fourth, 0x0A);
        add(`quads-${lead.toString(16)}`, bytes);
      }
      for (const cut of [[0xC3], [0xE2, 0x82], [0xE2], [0xF0, 0x9F, 0x98], [0xF0, 0x9F], [0xF0], [0xED, 0xA0, 0x80], [0xC0, 0x80], [0xE0, 0x80, 0x80], [0xF8, 0x88, 0x80, 0x80, 0x80]]) add(`ends-${hex(cut)}`, [0x41, ...cut]);
      break;
    case 'UTF-16LE':
    case 'UTF-16BE': {
      const be = name === 'UTF-16BE';
      const unit = u => be ? [u >> 8, u & 0xFF] : [u & 0xFF, u >> 8];
      const units = [0x0041, 0x00E9, 0x4E00, 0xD7FF, 0xD800, 0xDBFF, 0xDC00, 0xDFFF, 0xE000, 0xFFFD, 0xFFFF];
      const bytes = [];
      for (const a of units) for (const b of units) for (const c of [0x0041, 0xDC00]) bytes.push(...unit(a), ...unit(b), ...unit(c), ...unit(0x000A));
      add('unit-triples', bytes);
      for (const tail of [[0x41], unit(0xD800), [...unit(0xD800), 0x41], unit(0xDC00)]) add(`ends-${hex(tail)}`, [...unit(0x41), ...tail]);
      break;
    }
    case 'gb18030': {
      for (const lead of range(0x80, 0xFF)) add(`pairs-${lead.toString(16)}`, pairsAfter(lead));
      for (const first of [0x81, 0x82, 0x84, 0x85, 0x8F, 0x90, 0x95, 0xE3, 0xE4, 0xFD, 0xFE]) {
        const bytes = [];
        for (const second of range(0x30, 0x39)) for (const third of [0x80, 0x81, 0x82, 0x8F, 0x99, 0xA0, 0xC0, 0xD2, 0xFE, 0xFF]) for (const fourth of [0x2F, 0x30, 0x35, 0x39, 0x3A]) bytes.push(first, second, third, fourth, 0x0A);
        add(`quads-${first.toString(16)}`, bytes);
      }
      for (const cut of [[0x81], [0x81, 0x30], [0x81, 0x30, 0x81], [0x81, 0x30, 0x41], [0x81, 0x30, 0x81, 0x41]]) add(`ends-${hex(cut)}`, [0x41, ...cut]);
      break;
    }
    case 'Big5':
    case 'Shift_JIS':
    case 'EUC-KR':
      for (const lead of range(0x80, 0xFF)) add(`pairs-${lead.toString(16)}`, pairsAfter(lead));
      for (const lead of range(0x80, 0xFF)) add(`ends-${lead.toString(16)}`, [0x41, lead]);
      break;
    case 'EUC-JP':
      for (const lead of range(0x80, 0xFF)) add(`pairs-${lead.toString(16)}`, pairsAfter(lead));
      for (const second of [0x80, 0xA0, ...range(0xA1, 0xFE).filter(b => b % 4 === 0 || b < 0xA3 || b > 0xFC), 0xFF]) {
        const bytes = [];
        for (const third of [0x41, 0x80, 0xA0, ...range(0xA1, 0xFE), 0xFF]) bytes.push(0x8F, second, third, 0x0A);
        add(`jis0212-${second.toString(16)}`, bytes);
      }
      for (const cut of [[0x8E], [0x8F], [0x8F, 0xA1], [0xA4]]) add(`ends-${hex(cut)}`, [0x41, ...cut]);
      break;
    case 'ISO-2022-JP': {
      const ESC = 0x1B;
      for (const intro of [0x24, 0x28, 0x29, 0x41]) {
        const bytes = [];
        for (const final of range(0x20, 0x7F)) bytes.push(ESC, intro, final, 0x21, 0x7E, 0x5C, ESC, 0x28, 0x42, 0x0A);
        add(`escapes-${intro.toString(16)}`, bytes);
      }
      for (const lead of range(0x20, 0x7F).filter(b => b % 3 === 0 || b < 0x22 || b > 0x7D)) {
        const bytes = [ESC, 0x24, 0x42];
        for (const trail of range(0x1F, 0x80)) bytes.push(lead, trail);
        bytes.push(ESC, 0x28, 0x42);
        add(`jis0208-${lead.toString(16)}`, bytes);
      }
      const samples = {
        'katakana': [ESC, 0x28, 0x49, ...range(0x1F, 0x60), ESC, 0x28, 0x42],
        'roman': [ESC, 0x28, 0x4A, ...range(0x00, 0x7F), 0x80, ESC, 0x28, 0x42],
        'ascii': [...range(0x00, 0x7F), 0x80, 0xFF],
        'two-escapes': [ESC, 0x24, 0x42, ESC, 0x28, 0x42, 0x41, ESC, 0x28, 0x42, ESC, 0x28, 0x4A, 0x41],
        'escape-in-trail': [ESC, 0x24, 0x42, 0x30, ESC, 0x28, 0x42, 0x41],
        'escape-at-end': [0x41, ESC],
        'escape-intro-at-end': [0x41, ESC, 0x24],
        'lead-at-end': [ESC, 0x24, 0x42, 0x30],
        'shift-bytes': [0x0E, 0x41, 0x0F, ESC, 0x28, 0x49, 0x0E, 0x21],
      };
      for (const [label, bytes] of Object.entries(samples)) add(label, bytes);
      break;
    }
  }
  return cases;
}

// ---- Query encoding: the strings a link's query holds, per encoding.
function queryTexts(name) {
  const texts = [];
  const index = indexes[(name === 'ISO-8859-8-I' ? 'iso-8859-8' : name).toLowerCase()];
  const fixed = [0x80, 0xA0, 0xA5, 0xE9, 0xFF, 0x100, 0x203E, 0x20AC, 0x2212, 0x2550, 0x3000, 0x4E00, 0x5341, 0x5345,
    0x7E8A, 0xB620, 0xE5E5, 0xE78D, 0xE7C7, 0xE000, 0xF780, 0xF7FF, 0xFF0D, 0xFF61, 0xFF9F, 0xFFFD, 0x1F600, 0x2000B];
  for (const cp of fixed) texts.push(String.fromCodePoint(cp));
  if (Array.isArray(index)) {
    const step = index.length > 128 ? 23 : 1;
    index.forEach((cp, pointer) => { if (cp !== null && pointer % step === 0) texts.push(String.fromCodePoint(cp)); });
  }
  texts.push('caf\u00e9 \u00a5a\u00a5\\~ \uff71\u65e5\u672c a\u2603b', '\u00a5\u00a5', '\u65e5a', '\u65e5\u2603\u65e5', '\u001b\u000e');
  return texts;
}

// ---- A loopback server for the pages.
const pages = new Map();
const server = http.createServer((req, res) => {
  const page = pages.get(req.url.split('?')[0]);
  if (!page) { res.writeHead(404); res.end(); return; }
  res.writeHead(200, {'Content-Type': page.type, 'Cache-Control': 'no-store'});
  res.end(page.body);
});
await new Promise(resolve => server.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${server.address().port}`;

const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'sievecrawl-encoding-'));
const browser = await puppeteer.launch({executablePath: chromium, userDataDir: profile, headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync', '--lang=en-US']});
const version = await browser.version();
const page = await browser.newPage();
pages.set('/blank', {type: 'text/html; charset=utf-8', body: '<!doctype html><title>blank</title>'});
await page.goto(origin + '/blank');

// 1. Decoding: every label, then every encoding's own samples.
const decoding = [];
const allBytes = range(0, 255);
const spaced = range(0x80, 0xFF).flatMap(b => [b, 0x20]);
for (const group of encodings) for (const encoding of group.encodings) {
  for (const label of encoding.labels) {
    const cases = [{case: 'bytes-00-ff', bytes: allBytes}, {case: 'bytes-80-ff-spaced', bytes: spaced}];
    const results = await page.evaluate((label, cases) => cases.map(c => {
      try {
        const decoder = new TextDecoder(label, {ignoreBOM: true});
        return {encoding: decoder.encoding, text: decoder.decode(new Uint8Array(c.bytes))};
      } catch (e) {
        return {error: e.name};
      }
    }), label, cases);
    cases.forEach((c, i) => decoding.push({label, name: encoding.name, case: c.case, bytes: hex(c.bytes), ...results[i]}));
  }
  const label = encoding.labels.includes(encoding.name.toLowerCase()) ? encoding.name.toLowerCase() : encoding.labels[0];
  const cases = familyCases(encoding.name);
  if (cases.length > 0) {
    const results = await page.evaluate((label, cases) => cases.map(c => {
      const decoder = new TextDecoder(label, {ignoreBOM: true});
      return {encoding: decoder.encoding, text: decoder.decode(new Uint8Array(c.bytes))};
    }), label, cases);
    cases.forEach((c, i) => decoding.push({label, name: encoding.name, case: c.case, bytes: hex(c.bytes), ...results[i]}));
  }
}

// 2. Query encoding, and the encoding a page labelled so gets: one page per label.
const queries = [];
const documentEncodings = [];
for (const group of encodings) for (const encoding of group.encodings) {
  for (const label of encoding.labels) {
    const url = `/label/${encodeURIComponent(label)}`;
    pages.set(url, {type: `text/html; charset=${label}`, body: Buffer.from('<!doctype html><title>t</title>', 'latin1')});
    await page.goto(origin + url);
    const characterSet = await page.evaluate(() => document.characterSet);
    documentEncodings.push({label, name: encoding.name, characterSet});
    if (label !== encoding.labels[0]) continue;
    const texts = queryTexts(encoding.name);
    const hrefs = await page.evaluate(texts => texts.map(t => {
      const a = document.createElement('a');
      a.href = 'http://example.test/?' + t;
      return a.href;
    }), texts);
    texts.forEach((text, i) => queries.push({name: encoding.name, characterSet, text,
      query: hrefs[i].substring(hrefs[i].indexOf('?') + 1)}));
  }
}

// 3. Whole documents: the encoding Chromium reads them in, and the links it sees.
const documentResults = [];
for (const doc of documents) {
  const url = `/doc/${doc.name}`;
  pages.set(url, {type: doc.type, body: doc.body});
  await page.goto(origin + url);
  const result = await page.evaluate(() => ({
    characterSet: document.characterSet,
    links: [...document.querySelectorAll('a[href], area[href]')].map(a => a.href),
  }));
  documentResults.push({name: doc.name, note: doc.note, type: doc.type, url, body: doc.body.toString('base64'),
    characterSet: result.characterSet,
    links: result.links.map(link => link.startsWith(origin) ? 'http://127.0.0.1' + link.substring(origin.length) : link)});
}

await browser.close();
server.close();
fs.rmSync(profile, {recursive: true, force: true});

const write = (file, rows) => {
  fs.writeFileSync(path.join(here, file), zlib.gzipSync(rows.map(r => JSON.stringify(r)).join('\n') + '\n', {level: 9}));
  console.log(`${file}: ${rows.length} rows`);
};
write('decoding.jsonl.gz', decoding);
write('queries.jsonl.gz', queries);
write('document-encodings.jsonl.gz', documentEncodings);
fs.writeFileSync(path.join(here, 'documents.json'), JSON.stringify({chromium: version, documents: documentResults}, null, 1) + '\n');
fs.writeFileSync(path.join(here, 'chromium-version.txt'), version + '\n');
console.log(`documents.json: ${documentResults.length} documents; ${version}`);
