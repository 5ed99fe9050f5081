import { describe, expect, it } from "vitest";
import { caught, recordedExchange, replayServersPerTest } from "@/tests/support/replay-helpers";
import { GithubReleasesClient } from "./client";

/** A recorded exchange, with `{base}` in it pointing at the replay server. */
const recorded = (name: string, base: string) => recordedExchange(`forges/github/${name}.json`, base);

const serve = replayServersPerTest();

describe("GithubReleasesClient", () => {
  it("reads every page through Link, skips drafts and keeps the first page's ETag", async () => {
    const gh = await serve([]);
    gh.setRoutes([
      { path: "/repos/nginx/nginx/releases", reply: () => recorded("releases-page1", gh.url) },
      { path: "/repositories/7832934/releases", reply: () => recorded("releases-page2", gh.url) },
    ]);
    const client = new GithubReleasesClient({ apiUrl: gh.url, token: "ghp_test" });

    const result = await client.listReleases("nginx/nginx");

    expect(result.notModified).toBe(false);
    if (result.notModified) return;
    expect(result.releases.map((r) => r.tag)).toEqual([
      "release-1.29.1",
      "release-1.29.0",
      "release-1.28.0",
      "release-1.27.5",
      "release-1.27.4",
      "release-1.27.3",
      "release-1.27.2",
      "release-1.27.1",
      "release-1.27.0",
      "release-1.26.0",
    ]);
    expect(result.releases[5]).toEqual({
      tag: "release-1.27.3",
      name: "release-1.27.3",
      publishedAt: "2024-11-26T15:42:01.000Z",
      url: "https://github.com/nginx/nginx/releases/tag/release-1.27.3",
      prerelease: false,
    });
    expect(result.etag).toBe('W/"6f1c0a2de5b3c4f1a9e7d2b8c0f4e6a1b3d5c7e9f1a2b4c6d8e0f2a4b6c8d0e2"');
    expect(gh.requests.map((r) => r.path)).toEqual([
      "/repos/nginx/nginx/releases?per_page=100",
      "/repositories/7832934/releases?per_page=100&page=2",
    ]);
    expect(gh.requests.every((r) => r.headers.authorization === "Bearer ghp_test")).toBe(true);
    expect(gh.requests[0]?.headers["x-github-api-version"]).toBe("2022-11-28");
  });

  it("sends no Authorization header without a token", async () => {
    const gh = await serve([]);
    gh.setRoutes([{ path: "/repos/nginx/nginx/releases", reply: { status: 200, body: [] } }]);
    await new GithubReleasesClient({ apiUrl: gh.url }).listReleases("nginx/nginx");
    expect(gh.requests[0]?.headers.authorization).toBeUndefined();
  });

  it("answers 304 to If-None-Match as not modified", async () => {
    const gh = await serve([]);
    gh.setRoutes([
      {
        path: "/repos/nginx/nginx/releases",
        reply: (req) =>
          req.headers["if-none-match"] === recorded("releases-not-modified", gh.url).headers?.etag
            ? recorded("releases-not-modified", gh.url)
            : recorded("releases-page1", gh.url),
      },
    ]);
    const client = new GithubReleasesClient({ apiUrl: gh.url });

    const result = await client.listReleases(
      "nginx/nginx",
      'W/"6f1c0a2de5b3c4f1a9e7d2b8c0f4e6a1b3d5c7e9f1a2b4c6d8e0f2a4b6c8d0e2"',
    );

    expect(result).toEqual({ notModified: true });
    expect(gh.count()).toBe(1);
  });

  it("throws rate_limited on an exhausted limit and sends nothing more until the reset", async () => {
    const gh = await serve([]);
    gh.setRoutes([{ path: /^\/repos\//, reply: () => recorded("rate-limit-exhausted", gh.url) }]);
    const resetMs = 1767225600 * 1000;
    let now = resetMs - 1800 * 1000; // half an hour before the reset
    const client = new GithubReleasesClient({ apiUrl: gh.url, now: () => now });

    const first = await caught(client.listReleases("traefik/traefik"));
    expect(first.code).toBe("rate_limited");
    expect(first.retryAfterSeconds).toBe(1800);
    expect(gh.count()).toBe(1);

    now += 600_000;
    const second = await caught(client.listReleases("nginx/nginx"));
    expect(second.code).toBe("rate_limited");
    expect(second.retryAfterSeconds).toBe(1200);
    expect(gh.count()).toBe(1); // refused locally: no request sent

    now = resetMs + 1000;
    gh.setRoutes([{ path: "/repos/nginx/nginx/releases", reply: { status: 200, body: [] } }]);
    await expect(client.listReleases("nginx/nginx")).resolves.toEqual({ notModified: false, etag: null, releases: [] });
    expect(gh.count()).toBe(2);
  });

  it("stops before the next page when a page used the last request of the window", async () => {
    const gh = await serve([]);
    gh.setRoutes([
      {
        path: "/repos/nginx/nginx/releases",
        reply: () => {
          const page = recorded("releases-page1", gh.url);
          return { ...page, headers: { ...page.headers, "x-ratelimit-remaining": "0" } };
        },
      },
      { path: "/repositories/7832934/releases", reply: () => recorded("releases-page2", gh.url) },
    ]);
    const client = new GithubReleasesClient({ apiUrl: gh.url, now: () => 1767225600 * 1000 - 60_000 });

    const err = await caught(client.listReleases("nginx/nginx"));

    expect(err.code).toBe("rate_limited");
    expect(err.retryAfterSeconds).toBe(60);
    expect(gh.count("/repositories/")).toBe(0);
  });

  it("treats a secondary rate limit's Retry-After the same way", async () => {
    const gh = await serve([
      {
        path: /^\/repos\//,
        reply: {
          status: 403,
          headers: { "retry-after": "120" },
          body: { message: "You have exceeded a secondary rate limit. Please wait a few minutes before you try again." },
        },
      },
    ]);
    const client = new GithubReleasesClient({ apiUrl: gh.url, now: () => 0 });
    expect((await caught(client.listReleases("nginx/nginx"))).retryAfterSeconds).toBe(120);
    expect((await caught(client.listReleases("nginx/nginx"))).code).toBe("rate_limited");
    expect(gh.count()).toBe(1);
  });

  it("maps 404 to not_found and malformed bodies to forge_unavailable", async () => {
    const gh = await serve([]);
    gh.setRoutes([
      { path: "/repos/nginx/no-such-repo/releases", reply: () => recorded("repository-not-found", gh.url) },
      { path: "/repos/nginx/broken/releases", reply: { status: 200, headers: { "content-type": "application/json" }, body: "[{\"tag_name\":" } },
      { path: "/repos/nginx/odd/releases", reply: { status: 200, body: { message: "not a list" } } },
      { path: "/repos/nginx/down/releases", reply: { status: 502, body: "<html>bad gateway</html>" } },
    ]);
    const client = new GithubReleasesClient({ apiUrl: gh.url });

    expect((await caught(client.listReleases("nginx/no-such-repo"))).code).toBe("not_found");
    expect((await caught(client.listReleases("nginx/broken"))).code).toBe("forge_unavailable");
    expect((await caught(client.listReleases("nginx/odd"))).code).toBe("forge_unavailable");
    expect((await caught(client.listReleases("nginx/down"))).code).toBe("forge_unavailable");
  });

  it("follows a same-host redirect (a renamed repository) with the token", async () => {
    const gh = await serve([]);
    gh.setRoutes([
      {
        path: "/repos/containous/traefik/releases",
        reply: { status: 301, headers: { location: `${gh.url}/repositories/4272834/releases?per_page=100` }, body: { message: "Moved Permanently" } },
      },
      { path: "/repositories/4272834/releases", reply: { status: 200, body: [] } },
    ]);
    const client = new GithubReleasesClient({ apiUrl: gh.url, token: "ghp_test" });

    await expect(client.listReleases("containous/traefik")).resolves.toMatchObject({ notModified: false });
    expect(gh.requests[1]?.headers.authorization).toBe("Bearer ghp_test");
  });

  it("refuses a redirect or a next-page link to another host without calling it", async () => {
    const foreign = await serve([{ path: /.*/, reply: { status: 200, body: [] } }]);
    const gh = await serve([
      { path: "/repos/a/redirected/releases", reply: { status: 302, headers: { location: `${foreign.url}/steal` } } },
      {
        path: "/repos/a/linked/releases",
        reply: { status: 200, headers: { link: `<${foreign.url}/page2>; rel="next"` }, body: [] },
      },
    ]);
    const client = new GithubReleasesClient({ apiUrl: gh.url, token: "ghp_secret" });

    expect((await caught(client.listReleases("a/redirected"))).code).toBe("forge_unavailable");
    expect((await caught(client.listReleases("a/linked"))).code).toBe("forge_unavailable");
    expect(foreign.count()).toBe(0);
  });
});
