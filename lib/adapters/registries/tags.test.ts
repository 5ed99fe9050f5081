// Tag paging, replayed: the Debian registry ignores `n` and sends no `Link`,
// so paging is tested against a recorded GHCR-shaped exchange.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createRegistryClient } from "@/lib/adapters/registries/client";
import { nextLink } from "@/lib/adapters/registries/tags";
import { fixture, startReplayServer, type ReplayServer } from "@/tests/support/replay-server";
import { loopbackOnlyFetch, recorded, type RecordedExchange } from "@/tests/support/registry";

const paged = fixture<{ pages: RecordedExchange[] }>("registries/tags-paged.json").pages;
const pageTags = (i: number) => (paged[i]?.body as { tags: string[] }).tags;
const ALL = [0, 1, 2].flatMap(pageTags);

describe("nextLink", () => {
  it.each([
    ['</v2/a/tags/list?last=x&n=4>; rel="next"', "/v2/a/tags/list?last=x&n=4"],
    ["<https://ghcr.io/v2/a/tags/list?last=x>; rel=next", "https://ghcr.io/v2/a/tags/list?last=x"],
    ['</v2/a/tags/list?last=b>; rel="prev", </v2/a/tags/list?last=x>; rel="next"', "/v2/a/tags/list?last=x"],
    ['</v2/a/tags/list?last=x>; type="json"; rel="next"', "/v2/a/tags/list?last=x"],
    ['</v2/a/tags/list?last=x>; rel="prev"', null],
    ["", null],
    [null, null],
  ])("%j", (header, expected) => {
    expect(nextLink(header)).toBe(expected);
  });
});

describe("listTags paging", () => {
  let replay: ReplayServer;
  const client = () => createRegistryClient({ fetch: loopbackOnlyFetch, resolveBaseUrl: () => replay.url });
  const repo = { host: "ghcr.io", path: "owner/app" };

  beforeAll(async () => {
    replay = await startReplayServer([]);
  });
  afterAll(async () => {
    await replay.close();
  });
  beforeEach(() => {
    replay.requests.length = 0;
  });

  /** Routes pages by their `last` query, like the recording. */
  function pagedRoutes(pick: (last: string | null, call: number) => RecordedExchange | { status: number; headers?: Record<string, string>; body?: unknown }) {
    let call = 0;
    replay.setRoutes([
      {
        path: "/v2/owner/app/tags/list",
        reply: (_req, url) => {
          const r = pick(url.searchParams.get("last"), call++);
          return "request" in r ? recorded(r) : r;
        },
      },
    ]);
  }
  const byLast = (last: string | null) => paged[last === null ? 0 : last === "v1.0.1" ? 1 : 2] as RecordedExchange;

  it("follows Link rel=next until it stops: one request per page", async () => {
    pagedRoutes(byLast);
    expect(await client().listTags(repo)).toEqual(ALL);
    expect(replay.requests.map((r) => r.path)).toEqual([
      "/v2/owner/app/tags/list?n=1000",
      "/v2/owner/app/tags/list?last=v1.0.1&n=4",
      "/v2/owner/app/tags/list?last=v1.2.1&n=4",
    ]);
  });

  it("de-duplicates tags repeated across pages", async () => {
    pagedRoutes((last) => {
      const page = byLast(last);
      // An inclusive `last`: each page starts with the previous page's last tag.
      const prev = last === null ? [] : [last];
      return { ...page, body: { name: "owner/app", tags: [...prev, ...(page.body as { tags: string[] }).tags] } };
    });
    expect(await client().listTags(repo)).toEqual(ALL);
  });

  it("stops a Link that loops back to a page already read", async () => {
    pagedRoutes((last) => {
      const page = byLast(last);
      if (last !== "v1.0.1") return page;
      return { ...page, headers: { ...page.headers, link: '</v2/owner/app/tags/list?last=v1.0.1&n=4>; rel="next"' } };
    });
    await expect(client().listTags(repo)).rejects.toMatchObject({ code: "registry_unavailable", message: expect.stringContaining("loops") });
    expect(replay.requests).toHaveLength(2);
  });

  it("starts over once when the list changes between pages", async () => {
    // First pass: the `last` tag was deleted meanwhile and the registry restarts from the top.
    pagedRoutes((last, call) => (call === 1 ? paged[0] as RecordedExchange : byLast(last)));
    expect(await client().listTags(repo)).toEqual(ALL);
    expect(replay.requests).toHaveLength(5);
  });

  it("gives up when the list keeps changing", async () => {
    pagedRoutes((last) => (last === null ? byLast(null) : ({ ...byLast(null), headers: { ...byLast(null).headers, link: `</v2/owner/app/tags/list?last=${last}x&n=4>; rel="next"` } })));
    await expect(client().listTags(repo)).rejects.toMatchObject({ code: "registry_unavailable", message: expect.stringContaining("kept changing") });
    expect(replay.requests).toHaveLength(4);
  });

  it("never follows a Link to another repository or host", async () => {
    pagedRoutes(() => ({ ...byLast(null), headers: { link: '<https://evil.example/v2/other/tags/list?last=x>; rel="next"' } }));
    await expect(client().listTags(repo)).rejects.toMatchObject({ code: "registry_unavailable", message: expect.stringContaining("Link points at /v2/other/tags/list") });
  });

  it("follows an absolute Link on the same registry by its path only", async () => {
    pagedRoutes((last) => {
      const page = byLast(last);
      const link = page.headers.link;
      return link ? { ...page, headers: { ...page.headers, link: link.replace("</v2", "<https://ghcr.io/v2") } } : page;
    });
    expect(await client().listTags(repo)).toEqual(ALL);
  });

  it.each([
    ["a body that is not JSON", { status: 200, body: "<html>oops</html>" }],
    ["tags that are not strings", { status: 200, body: { name: "owner/app", tags: [1, 2] } }],
    ["a 500", { status: 500, body: { errors: [{ code: "UNKNOWN", message: "boom" }] } }],
    ["a 502 with HTML", { status: 502, body: "<html>Bad Gateway</html>" }],
  ])("%s is registry_unavailable", async (_name, reply) => {
    pagedRoutes(() => reply);
    await expect(client().listTags(repo)).rejects.toMatchObject({ code: "registry_unavailable" });
  });

  it("an empty repository (tags: null) has no tags", async () => {
    pagedRoutes(() => ({ status: 200, body: { name: "owner/app", tags: null } }));
    expect(await client().listTags(repo)).toEqual([]);
  });

  it("404 is not_found", async () => {
    pagedRoutes(() => ({ status: 404, body: { errors: [{ code: "NAME_UNKNOWN", message: "repository name not known to registry" }] } }));
    await expect(client().listTags(repo)).rejects.toMatchObject({ code: "not_found", message: expect.stringContaining("NAME_UNKNOWN") });
  });
});
