// Test support: replay routes that answer like a Docker Engine from the
// recorded bodies under tests/fixtures/runtimes/docker.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { Route } from "@/tests/support/replay-server";

const ROOT = path.join(import.meta.dirname, "..", "fixtures", "runtimes");

type WithId = { Id: string };

const readJson = <T>(file: string): T => JSON.parse(readFileSync(file, "utf8")) as T;

/** Bodies of every JSON file in a fixture folder, keyed by their `Id`. */
export function fixturesById(folder: string): Map<string, unknown> {
  const dir = path.join(ROOT, folder);
  const out = new Map<string, unknown>();
  for (const f of readdirSync(dir).filter((n) => n.endsWith(".json"))) {
    const body = readJson<WithId>(path.join(dir, f));
    out.set(body.Id, body);
  }
  return out;
}

export const runtimeFixture = <T = unknown>(relative: string): T => readJson<T>(path.join(ROOT, relative));

/** The Engine API version the recorded bodies were taken from (Engine 20.10). */
export const RECORDED_API_VERSION = "1.41";

/** A path under the recorded API version, as a negotiating client asks for it. */
const versioned = (rest: string) => new RegExp(`^/v${RECORDED_API_VERSION.replace(".", "\\.")}${rest}`);

/** An Engine API answering `/_ping`, `/info`, `/containers/json`, inspects of containers and images, under `/v1.41`. */
export function dockerRoutes(opts: { list: string; containerDirs: string[]; info?: string }): Route[] {
  const containers = new Map<string, unknown>();
  for (const dir of opts.containerDirs) for (const [id, body] of fixturesById(dir)) containers.set(id, body);
  const images = fixturesById("docker/images");
  const lookup = (table: Map<string, unknown>, id: string) => {
    const hit = table.get(id) ?? [...table.entries()].find(([k]) => k.replace(/^sha256:/, "").startsWith(id.replace(/^sha256:/, "")))?.[1];
    return hit ? { body: hit } : { status: 404, body: { message: `No such object: ${id}` } };
  };
  const idAt = (url: URL) => decodeURIComponent(url.pathname.split("/")[3] ?? "");
  return [
    { path: "/_ping", reply: { headers: { "api-version": RECORDED_API_VERSION, "content-type": "text/plain" }, body: "OK" } },
    { path: versioned("/info$"), reply: { body: runtimeFixture(opts.info ?? "docker/info.json") } },
    { path: versioned("/containers/json"), reply: { body: runtimeFixture(opts.list) } },
    { path: versioned("/containers/[^/]+/json"), reply: (_req, url) => lookup(containers, idAt(url)) },
    { path: versioned("/images/[^/]+/json"), reply: (_req, url) => lookup(images, idAt(url)) },
  ];
}
