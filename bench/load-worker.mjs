// One share of a benchmark load (bench/api.ts loadUrl), in a worker thread:
// `connections` keep-alive connections, each sending its next request when the
// last one's body has arrived, until `amount` requests were sent or `seconds`
// passed; with `rate`, request k is sent no sooner than k/rate seconds in, and
// its latency counts from then (a late send is the server's delay, not
// hidden). Every response's latency, status and body size is posted back.
//
// Node's own HTTP client (native llhttp), not autocannon: autocannon's
// JavaScript parser is slower than the server on large answers, so it would
// measure itself.
// Plain JavaScript, so the worker needs no TypeScript loader.
import http from "node:http";
import { parentPort, workerData } from "node:worker_threads";

const { url, token, connections, amount, seconds, rate } = workerData;
const TIMEOUT_MS = 30_000;
const target = new URL(url);
const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
// As clients do (fetch, browsers, curl --compressed): the server sends its cached gzip of a large body.
const headers = { authorization: `Bearer ${token}`, accept: "application/json", "accept-encoding": "gzip" };

const latencies = [];
const statuses = {};
let ok = 0;
let non2xx = 0;
let bytes = 0;
let errors = 0;
let timeouts = 0;
let sent = 0;
const started = performance.now();
const deadline = amount ? Infinity : started + (seconds ?? 10) * 1000;

function once(scheduledAt) {
  return new Promise((resolve) => {
    const req = http.get(target, { agent, headers }, (res) => {
      res.on("data", (chunk) => (bytes += chunk.length));
      res.on("end", () => {
        latencies.push(performance.now() - scheduledAt);
        statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
        if (res.statusCode >= 200 && res.statusCode < 300) ok++;
        else non2xx++;
        resolve();
      });
      res.on("error", () => {
        errors++;
        resolve();
      });
    });
    req.setTimeout(TIMEOUT_MS, () => {
      timeouts++;
      req.destroy(new Error("timeout"));
    });
    req.on("error", () => {
      errors++;
      resolve();
    });
  });
}

async function loop() {
  for (;;) {
    if (amount ? sent >= amount : performance.now() >= deadline) return;
    const k = sent++;
    let at = performance.now();
    if (rate) {
      const slot = started + (k / rate) * 1000;
      if (slot >= deadline) return;
      if (slot > at) await new Promise((r) => setTimeout(r, slot - at));
      at = slot;
    }
    await once(at);
  }
}

await Promise.all(Array.from({ length: connections }, loop));
agent.destroy();
parentPort.postMessage({ latencies, ok, non2xx, bytes, statuses, seconds: (performance.now() - started) / 1000, errors, timeouts, sent });
