// One share of a benchmark load (bench/api.ts loadUrl): autocannon over
// `connections` keep-alive connections in this worker thread, every response's
// latency, status and size posted back. Plain JavaScript so the worker needs
// no TypeScript loader.
import { parentPort, workerData } from "node:worker_threads";
import autocannon from "autocannon";

const { url, token, connections, amount, seconds, rate } = workerData;
const latencies = [];
const statuses = {};
let ok = 0;
let non2xx = 0;
let bytes = 0;
const started = performance.now();
const instance = autocannon(
  {
    url,
    connections,
    ...(amount ? { amount } : { duration: seconds ?? 10 }),
    timeout: 30,
    // As clients do (fetch, browsers, curl --compressed): the server sends its cached gzip of a large body.
    headers: { authorization: `Bearer ${token}`, accept: "application/json", "accept-encoding": "gzip" },
    ...(rate ? { overallRate: rate } : {}),
  },
  (err, result) => {
    if (err) throw err;
    parentPort.postMessage({
      latencies, ok, non2xx, bytes, statuses, seconds: (performance.now() - started) / 1000,
      errors: result.errors, timeouts: result.timeouts, sent: result.requests.sent,
    });
  },
);
instance.on("response", (_client, status, resBytes, responseTime) => {
  latencies.push(responseTime);
  bytes += resBytes;
  statuses[status] = (statuses[status] ?? 0) + 1;
  if (status >= 200 && status < 300) ok++;
  else non2xx++;
});
