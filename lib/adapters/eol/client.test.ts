import { describe, expect, it } from "vitest";
import { eolState, findCycle, productForImage, resolveEolProduct } from "@/lib/domain/eol";
import { caught, recordedExchange, replayServersPerTest } from "@/tests/support/replay-helpers";
import { createEolClient } from "./client";

const recorded = (name: string) => recordedExchange(`eol/${name}.json`);

const serve = replayServersPerTest();

const NGINX_ETAG = (recorded("product-nginx").headers ?? {}).etag ?? "";

/** A stand-in for endoflife.date, answering like the static site does. */
async function endoflife() {
  return serve([
    {
      path: "/api/v1/products/nginx",
      reply: (req) => (req.headers["if-none-match"] === NGINX_ETAG ? recorded("product-nginx-not-modified") : recorded("product-nginx")),
    },
    { path: "/api/v1/products/postgresql", reply: recorded("product-postgresql") },
    { path: "/api/v1/products/nodejs", reply: recorded("product-nodejs") },
    { path: "/api/v1/products/argocd", reply: recorded("product-argocd-renamed") },
    { path: "/api/v1/products/argo-cd/", reply: recorded("product-argo-cd") },
    { path: "/api/v1/products/broken", reply: recorded("product-malformed") },
    { path: "/api/v1/identifiers/purl", reply: recorded("identifiers-purl") },
    { path: /^\/api\/v1\/products\//, reply: recorded("product-not-found") },
  ]);
}

describe("createEolClient", () => {
  it("reads a product's cycles with the API's field names", async () => {
    const server = await endoflife();
    const client = createEolClient({ apiUrl: `${server.url}/api/v1`, enabled: true });

    const result = await client.getProduct("postgresql");

    expect(result.status).toBe("ok");
    if (result.status !== "ok") return;
    expect(result.movedTo).toBeNull();
    expect(result.etag).toBe(recorded("product-postgresql").headers?.etag);
    expect(result.data.name).toBe("postgresql");
    expect(result.data.lastModified).toBe("2025-08-18T21:40:11+02:00");
    expect(result.data.releases[0]).toEqual({
      name: "17",
      releaseDate: "2024-09-26",
      isEol: false,
      eolFrom: "2029-11-08",
      isMaintained: true,
      isLts: false,
      latest: { name: "17.6", date: "2025-08-14", link: "https://www.postgresql.org/docs/release/17.6/" },
    });
    const cycle = findCycle("13.16", result.data.releases);
    expect(cycle?.name).toBe("13");
    expect(cycle && eolState(cycle, new Date("2025-10-01T00:00:00Z"))).toBe("soon");
  });

  it("keeps isEoas/eoasFrom where the product has them", async () => {
    const server = await endoflife();
    const result = await createEolClient({ apiUrl: `${server.url}/api/v1`, enabled: true }).getProduct("nodejs");
    if (result.status !== "ok") throw new Error("expected ok");
    expect(findCycle("22.18.0", result.data.releases)).toMatchObject({
      name: "22",
      isLts: true,
      isEoas: false,
      eoasFrom: "2025-10-21",
      eolFrom: "2027-04-30",
    });
  });

  it("answers 304 to If-None-Match as not modified", async () => {
    const server = await endoflife();
    const client = createEolClient({ apiUrl: `${server.url}/api/v1`, enabled: true });
    const first = await client.getProduct("nginx");
    if (first.status !== "ok") throw new Error("expected ok");

    await expect(client.getProduct("nginx", { etag: first.etag })).resolves.toEqual({ status: "not_modified", movedTo: null });
    expect(server.requests[1]?.headers["if-none-match"]).toBe(NGINX_ETAG);
  });

  it("follows a renamed product's 301 on the same host and reports where it moved", async () => {
    const server = await endoflife();
    const result = await createEolClient({ apiUrl: `${server.url}/api/v1`, enabled: true }).getProduct("argocd");

    expect(result.status).toBe("ok");
    if (result.status !== "ok") return;
    expect(result.movedTo).toBe("argo-cd");
    expect(result.data.name).toBe("argo-cd");
    expect(server.requests.map((r) => r.path)).toEqual(["/api/v1/products/argocd", "/api/v1/products/argo-cd/"]);
  });

  it("maps the HTML 404 page to not_found", async () => {
    const server = await endoflife();
    const err = await caught(createEolClient({ apiUrl: `${server.url}/api/v1`, enabled: true }).getProduct("no-such-product"));
    expect(err.code).toBe("not_found");
  });

  it("maps malformed JSON and unexpected bodies to an error, not a crash", async () => {
    const server = await endoflife();
    const client = createEolClient({ apiUrl: `${server.url}/api/v1`, enabled: true });
    expect((await caught(client.getProduct("broken"))).code).toBe("unavailable");
    server.setRoutes([{ path: "/api/v1/products/nginx", reply: { status: 200, body: { result: [] } } }]);
    expect((await caught(client.getProduct("nginx"))).code).toBe("unavailable");
    server.setRoutes([{ path: "/api/v1/products/nginx", reply: { status: 503, body: "<html>unavailable</html>" } }]);
    expect((await caught(client.getProduct("nginx"))).code).toBe("unavailable");
  });

  it("refuses a product identifier that is not one, without a request", async () => {
    const server = await endoflife();
    const client = createEolClient({ apiUrl: `${server.url}/api/v1`, enabled: true });
    for (const product of ["../identifiers/purl", "Nginx", "none", ""]) {
      expect((await caught(client.getProduct(product))).code).toBe("invalid_input");
    }
    expect(server.count()).toBe(0);
  });

  it("lists package URLs and matches images against them", async () => {
    const server = await endoflife();
    const result = await createEolClient({ apiUrl: `${server.url}/api/v1`, enabled: true }).listPurlIdentifiers();

    expect(result.status).toBe("ok");
    if (result.status !== "ok") return;
    expect(result.data[0]).toEqual({
      identifier: "pkg:docker/library/postgres",
      product: { name: "postgresql", uri: "https://endoflife.date/api/v1/products/postgresql" },
    });
    expect(productForImage("docker.io/library/postgres", result.data)).toBe("postgresql");
    expect(resolveEolProduct({ policyEol: "none", purlMatch: productForImage("docker.io/library/postgres", result.data) })).toBeNull();
  });

  it("makes no request at all when disabled (--eol=false)", async () => {
    const server = await endoflife();
    const client = createEolClient({ apiUrl: `${server.url}/api/v1`, enabled: false });

    await expect(client.getProduct("nginx")).resolves.toEqual({ status: "disabled" });
    await expect(client.getProduct("argocd", { etag: '"x"' })).resolves.toEqual({ status: "disabled" });
    await expect(client.listPurlIdentifiers()).resolves.toEqual({ status: "disabled" });
    expect(server.count()).toBe(0);
  });

  it("refuses a redirect to another host without calling it", async () => {
    const foreign = await serve([{ method: "*", path: /.*/, reply: recorded("product-nginx") }]);
    const server = await serve([
      { path: "/api/v1/products/nginx", reply: { status: 301, headers: { location: `${foreign.url}/api/v1/products/nginx` } } },
    ]);
    const err = await caught(createEolClient({ apiUrl: `${server.url}/api/v1`, enabled: true }).getProduct("nginx"));
    expect(err.code).toBe("unavailable");
    expect(foreign.count()).toBe(0);
  });
});
