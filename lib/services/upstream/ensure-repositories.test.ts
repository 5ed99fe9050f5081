import { describe, expect, it } from "vitest";
import { upstreamRepositoriesInsert } from "./ensure-repositories";

const WS = "00000000-0000-4000-8000-000000000001";
const keysOf = (insert: ReturnType<typeof upstreamRepositoriesInsert>) => (insert ? (insert.sql.values[0] as string[]) : null);

describe("upstreamRepositoriesInsert", () => {
  it("registers each repository once, in key order, with the shared scope for server-checked hosts", () => {
    const now = new Date("2026-08-01T00:00:00Z");
    const insert = upstreamRepositoriesInsert(WS, ["ghcr.io/x/b", "nginx", "ghcr.io/x/b", "registry.internal/x/a"], [], now);
    expect(keysOf(insert)).toEqual(["docker.io/library/nginx", "ghcr.io/x/b", "registry.internal/x/a"]);
    expect(insert!.sql.values[4]).toEqual(["", "", WS]);
    expect(upstreamRepositoriesInsert(WS, ["not a ref"], [], now)).toBeNull();
  });

  it("leaves out, for report intake, what this process registered in the last ten minutes, and only once it committed", () => {
    const t0 = new Date("2026-08-02T00:00:00Z");
    const keys = ["ghcr.io/intake-test/a", "ghcr.io/intake-test/b"];
    const first = upstreamRepositoriesInsert(WS, keys, [], t0, { unknownOnly: true });
    expect(keysOf(first)).toEqual(keys);
    // Not committed yet: still unknown.
    expect(keysOf(upstreamRepositoriesInsert(WS, keys, [], t0, { unknownOnly: true }))).toEqual(keys);
    first!.registered();
    expect(upstreamRepositoriesInsert(WS, keys, [], new Date(t0.getTime() + 60_000), { unknownOnly: true })).toBeNull();
    expect(keysOf(upstreamRepositoriesInsert(WS, [...keys, "ghcr.io/intake-test/c"], [], t0, { unknownOnly: true }))).toEqual(["ghcr.io/intake-test/c"]);
    // The standalone form always inserts; and after ten minutes intake inserts again.
    expect(keysOf(upstreamRepositoriesInsert(WS, keys, [], t0))).toEqual(keys);
    expect(keysOf(upstreamRepositoriesInsert(WS, keys, [], new Date(t0.getTime() + 11 * 60_000), { unknownOnly: true }))).toEqual(keys);
  });
});
