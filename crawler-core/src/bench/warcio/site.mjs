// A loopback site for trying WARC output: chunked pages, gzip pages, one page over the body cap, a redirect, a 404.
import http from "node:http";
import zlib from "node:zlib";
const port = Number(process.argv[2] || 18600);
function page(i) {
  const links = [i + 1, i * 2, i * 3].map(n => `<a href="/p${n}">p${n}</a>`).join(" ");
  return `<!doctype html><html><head><title>page ${i}</title></head><body>${links} ${"lorem ipsum ".repeat(200)}</body></html>`;
}
http.createServer((req, res) => {
  if (req.url === "/robots.txt") { res.writeHead(200, {"Content-Type": "text/plain"}); return res.end("User-agent: *\nDisallow: /p7\n"); }
  if (req.url === "/big") { res.writeHead(200, {"Content-Type": "text/html"}); res.write(page(999) + "<a href=/after-big>x</a>"); return res.end("x".repeat(12_000_000)); }
  if (req.url === "/moved") { res.writeHead(301, {"Location": "/p1"}); return res.end("moved"); }
  const m = /^\/p(\d+)$/.exec(req.url);
  if (!m || Number(m[1]) > 120) { res.writeHead(404, {"Content-Type": "text/html"}); return res.end("<p>gone</p>"); }
  const i = Number(m[1]);
  const body = page(i) + (i === 1 ? '<a href="/big">big</a> <a href="/moved">moved</a>' : "");
  if (i % 2 === 0 && (req.headers["accept-encoding"] || "").includes("gzip")) {
    res.writeHead(200, {"Content-Type": "text/html; charset=utf-8", "Content-Encoding": "gzip"});
    return res.end(zlib.gzipSync(body));
  }
  res.writeHead(200, {"Content-Type": "text/html; charset=utf-8"}); // no length: chunked
  res.end(body);
}).listen(port, "127.0.0.1");
