import { describe, expect, it } from "vitest";
import { caught, recordedExchange, replayServersPerTest } from "@/tests/support/replay-helpers";
import { GitlabReleasesClient } from "./client";

const recorded = (name: string, base = "") => recordedExchange(`forges/gitlab/${name}.json`, base);

const serve = replayServersPerTest();

const RUNNER = "/api/v4/projects/gitlab-org%2Fgitlab-runner/releases";

describe("GitlabReleasesClient on gitlab.com", () => {
  it("pages by x-next-page, skips upcoming releases and reads _links.self", async () => {
    const com = await serve([
      {
        path: RUNNER,
        reply: (_req, url) => recorded(url.searchParams.get("page") === "2" ? "runner-releases-page2" : "runner-releases-page1"),
      },
    ]);
    const client = new GitlabReleasesClient({ gitlabComUrl: com.url });

    const result = await client.listReleases("gitlab.com/gitlab-org/gitlab-runner");

    expect(result.notModified).toBe(false);
    if (result.notModified) return;
    expect(result.releases.map((r) => [r.tag, r.prerelease])).toEqual([
      ["v18.3.0", false],
      ["v18.3.0-rc1", true],
      ["v18.2.1", false],
      ["v18.2.0", false],
      ["v18.1.1", false],
      ["v17.11.3", false],
    ]);
    expect(result.releases[0]).toEqual({
      tag: "v18.3.0",
      name: "v18.3.0",
      publishedAt: "2025-08-14T16:01:22.000Z",
      url: "https://gitlab.com/gitlab-org/gitlab-runner/-/releases/v18.3.0",
      prerelease: false,
    });
    expect(result.etag).toBe('W/"9a3f1c1e7b2d4f6a8c0e1b3d5f7a9c1e3b5"');
    expect(com.requests.map((r) => r.path)).toEqual([
      `${RUNNER}?per_page=100`,
      `${RUNNER}?per_page=100&page=2`,
    ]);
  });

  it("pages by Link when GitLab sends one", async () => {
    const com = await serve([]);
    com.setRoutes([
      {
        path: RUNNER,
        reply: (_req, url) => {
          if (url.searchParams.get("page") === "2") return recorded("runner-releases-page2");
          const first = recorded("runner-releases-page1");
          const headers = { ...first.headers, "x-next-page": "", link: `<${com.url}${RUNNER}?page=2&per_page=100>; rel="next"` };
          return { ...first, headers };
        },
      },
    ]);
    const result = await new GitlabReleasesClient({ gitlabComUrl: com.url }).listReleases("gitlab.com/gitlab-org/gitlab-runner");
    expect(result.notModified ? 0 : result.releases.length).toBe(6);
    expect(com.count()).toBe(2);
  });

  it("answers 304 as not modified", async () => {
    const com = await serve([
      {
        path: RUNNER,
        reply: (req) => (req.headers["if-none-match"] === 'W/"abc"' ? { status: 304, headers: { etag: 'W/"abc"' } } : recorded("runner-releases-page1")),
      },
    ]);
    const result = await new GitlabReleasesClient({ gitlabComUrl: com.url }).listReleases("gitlab.com/gitlab-org/gitlab-runner", 'W/"abc"');
    expect(result).toEqual({ notModified: true });
  });

  it("never sends the configured instance's token to gitlab.com", async () => {
    const com = await serve([{ path: RUNNER, reply: { status: 200, body: [] } }]);
    const own = await serve([]);
    const client = new GitlabReleasesClient({ gitlabComUrl: com.url, gitlabUrl: own.url, gitlabToken: "glpat-secret" });

    await client.listReleases("gitlab.com/gitlab-org/gitlab-runner");

    expect(com.requests[0]?.headers["private-token"]).toBeUndefined();
    expect(own.count()).toBe(0);
  });

  it("maps 404 to not_found", async () => {
    const com = await serve([{ path: /no-such-project/, reply: recorded("project-not-found") }]);
    const err = await caught(new GitlabReleasesClient({ gitlabComUrl: com.url }).listReleases("gitlab.com/gitlab-org/no-such-project"));
    expect(err.code).toBe("not_found");
  });
});

describe("GitlabReleasesClient on the configured self-hosted instance", () => {
  const PRIVATE = "/api/v4/projects/platform%2Fpayments%2Fbilling-api/releases";

  async function privateInstance() {
    const own = await serve([]);
    own.setRoutes([
      {
        path: PRIVATE,
        reply: (req) =>
          req.headers["private-token"] === "glpat-secret" ? recorded("private-releases", own.url) : recorded("private-unauthorized"),
      },
    ]);
    return own;
  }

  it("reads a private project with PRIVATE-TOKEN", async () => {
    const own = await privateInstance();
    const host = new URL(own.url).host;
    const client = new GitlabReleasesClient({ gitlabUrl: own.url, gitlabToken: "glpat-secret" });

    const result = await client.listReleases(`${host}/platform/payments/billing-api`);

    expect(result).toEqual({
      notModified: false,
      etag: 'W/"3c5e7a9b1d3f5a7c9e1b3d5f"',
      releases: [
        {
          tag: "release-4.12.0",
          name: "Billing API 4.12.0",
          publishedAt: "2025-08-01T07:00:00.000Z",
          url: `${own.url}/platform/payments/billing-api/-/releases/release-4.12.0`,
          prerelease: false,
        },
        {
          tag: "release-4.11.2",
          name: "Billing API 4.11.2",
          publishedAt: "2025-07-10T07:00:00.000Z",
          url: `${own.url}/platform/payments/billing-api/-/releases/release-4.11.2`,
          prerelease: false,
        },
      ],
    });
    expect(own.requests[0]?.headers["private-token"]).toBe("glpat-secret");
  });

  it("reports a private project without a token as forge_unavailable (401)", async () => {
    const own = await privateInstance();
    const host = new URL(own.url).host;
    const err = await caught(new GitlabReleasesClient({ gitlabUrl: own.url }).listReleases(`${host}/platform/payments/billing-api`));
    expect(err.code).toBe("forge_unavailable");
    expect(err.message).toContain("401");
  });

  it("calls an instance that lives under a path prefix", async () => {
    const own = await serve([{ path: `/gitlab${PRIVATE}`, reply: { status: 200, body: [] } }]);
    const host = new URL(own.url).host;
    const client = new GitlabReleasesClient({ gitlabUrl: `${own.url}/gitlab`, gitlabToken: "glpat-secret" });
    await client.listReleases(`${host}/platform/payments/billing-api`);
    expect(own.requests.map((r) => r.path)).toEqual([`/gitlab${PRIVATE}?per_page=100`]);
  });

  it("refuses a host that is neither gitlab.com nor the configured one, before any request", async () => {
    const own = await serve([{ path: /.*/, reply: { status: 200, body: [] } }]);
    const other = await serve([{ path: /.*/, reply: { status: 200, body: [] } }]);
    const client = new GitlabReleasesClient({ gitlabUrl: own.url, gitlabToken: "glpat-secret" });

    const err = await caught(client.listReleases(`${new URL(other.url).host}/platform/payments/billing-api`));

    expect(err.code).toBe("invalid_input");
    expect(other.count()).toBe(0);
    expect(own.count()).toBe(0);
  });
});
