// Reads WARC files with warcio.js and recomputes every response payload digest: node check.mjs FILE...
import { WARCParser } from "warcio";
import fs from "node:fs";
import crypto from "node:crypto";

function base32(buf) {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  let bits = 0, value = 0, out = "";
  for (const b of buf) { value = (value << 8) | b; bits += 8; while (bits >= 5) { out += alphabet[(value >>> (bits - 5)) & 31]; bits -= 5; } }
  if (bits > 0) out += alphabet[(value << (5 - bits)) & 31];
  return out;
}
let counts = {}, bad = 0;
for (const file of process.argv.slice(2)) {
  const parser = new WARCParser(fs.createReadStream(file));
  for await (const record of parser) {
    const type = record.warcType;
    counts[type] = (counts[type] || 0) + 1;
    if (type === "response") {
      const payload = await record.readFully(false); // the HTTP payload, content-coded as sent
      const digest = "sha1:" + base32(crypto.createHash("sha1").update(payload).digest());
      const want = record.warcHeader("WARC-Payload-Digest");
      if (want !== digest) { bad++; console.log("payload digest mismatch", record.warcTargetURI, want, digest); }
      if (!record.httpHeaders || !record.httpHeaders.statusCode) { bad++; console.log("no HTTP status", record.warcTargetURI); }
    }
  }
}
console.log(JSON.stringify(counts), "bad", bad);
process.exit(bad ? 1 : 0);
