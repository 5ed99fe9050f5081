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

/** An Engine API answering `/info`, `/containers/json`, inspects of containers and images. */
export function dockerRoutes(opts: { list: string; containerDirs: string[]; info?: string }): Route[] {
  const containers = new Map<string, unknown>();
  for (const dir of opts.containerDirs) for (const [id, body] of fixturesById(dir)) containers.set(id, body);
  const images = fixturesById("docker/images");
  const lookup = (table: Map<string, unknown>, id: string) => {
    const hit = table.get(id) ?? [...table.entries()].find(([k]) => k.replace(/^sha256:/, "").startsWith(id.replace(/^sha256:/, "")))?.[1];
    return hit ? { body: hit } : { status: 404, body: { message: `No such object: ${id}` } };
  };
  return [
    { path: "/info", reply: { body: runtimeFixture(opts.info ?? "docker/info.json") } },
    { path: "/containers/json", reply: { body: runtimeFixture(opts.list) } },
    { path: /^\/containers\/[^/]+\/json/, reply: (_req, url) => lookup(containers, decodeURIComponent(url.pathname.split("/")[2] ?? "")) },
    { path: /^\/images\/[^/]+\/json/, reply: (_req, url) => lookup(images, decodeURIComponent(url.pathname.split("/")[2] ?? "")) },
  ];
}
