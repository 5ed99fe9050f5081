// endoflife.date API v1 client. Follows a renamed product's 301 within the
// same host and reports where it moved; answers 404 (an HTML page) with
// not_found; makes no request at all when disabled (`--eol=false`).
import { AppError } from "@/lib/domain/errors";
import type { EolCycle, PurlIdentifier } from "@/lib/domain/eol";
import { fetchSameOrigin, readJson, type FetchLike } from "@/lib/adapters/forges/same-origin-fetch";
import { eolProductEnvelopeSchema, eolPurlListSchema, type EolReleaseWire } from "./schema";

const SERVICE = "endoflife.date";
const ERROR = "unavailable" as const;
const PRODUCT_ID = /^[a-z0-9][a-z0-9._-]*$/;

export type EolClientOptions = {
  /** DRIFTWATCH_EOL_API_URL, e.g. https://endoflife.date/api/v1 */
  apiUrl: string;
  /** DRIFTWATCH_EOL; false answers every call without a request. */
  enabled: boolean;
  fetch?: FetchLike | undefined;
  timeoutMs?: number | undefined;
};

export type EolProduct = {
  name: string;
  label: string | null;
  lastModified: string | null;
  releases: EolCycle[];
};

export type EolFetch<T> =
  | { status: "disabled" }
  | { status: "not_modified"; movedTo: string | null }
  | { status: "ok"; etag: string | null; data: T; movedTo: string | null };

export type EolClient = {
  getProduct(product: string, opts?: { etag?: string | null | undefined }): Promise<EolFetch<EolProduct>>;
  listPurlIdentifiers(opts?: { etag?: string | null | undefined }): Promise<EolFetch<PurlIdentifier[]>>;
};

/** Pure: an API release as the domain's cycle. */
export function toEolCycle(release: EolReleaseWire): EolCycle {
  return {
    name: release.name,
    releaseDate: release.releaseDate ?? null,
    isEol: release.isEol,
    eolFrom: release.eolFrom ?? null,
    isMaintained: release.isMaintained ?? !release.isEol,
    isLts: release.isLts ?? false,
    latest: release.latest
      ? { name: release.latest.name, date: release.latest.date ?? null, link: release.latest.link ?? null }
      : null,
    ...(release.isEoas !== undefined && release.isEoas !== null ? { isEoas: release.isEoas } : {}),
    ...(release.eoasFrom !== undefined ? { eoasFrom: release.eoasFrom } : {}),
  };
}

export function createEolClient(opts: EolClientOptions): EolClient {
  const apiUrl = opts.apiUrl.replace(/\/+$/, "");
  const origin = new URL(apiUrl).origin;
  const productsPath = `${new URL(apiUrl).pathname.replace(/\/+$/, "")}/products/`;

  /** The product a (possibly redirected) URL names, e.g. /api/v1/products/argo-cd/ → argo-cd. */
  function productOf(url: string): string | null {
    const path = new URL(url).pathname;
    if (!path.startsWith(productsPath)) return null;
    const rest = path.slice(productsPath.length).replace(/\/+$/, "");
    return rest && !rest.includes("/") ? decodeURIComponent(rest) : null;
  }

  async function get(url: string, etag: string | null | undefined, what: string) {
    const { response, url: finalUrl } = await fetchSameOrigin({
      url,
      allowedOrigin: origin,
      headers: {
        accept: "application/json",
        "user-agent": "driftwatch",
        ...(etag ? { "if-none-match": etag } : {}),
      },
      fetch: opts.fetch,
      timeoutMs: opts.timeoutMs,
      errorCode: ERROR,
      service: SERVICE,
    });
    if (response.status === 304 && etag) {
      await response.body?.cancel();
      return { notModified: true as const, finalUrl };
    }
    if (response.status === 404) {
      await response.body?.cancel();
      throw new AppError("not_found", `${what} was not found on endoflife.date.`);
    }
    if (response.status === 429) {
      await response.body?.cancel();
      throw new AppError("rate_limited", "endoflife.date is rate limiting requests.", { retryAfterSeconds: 60 });
    }
    if (response.status !== 200) {
      await response.body?.cancel();
      throw new AppError(ERROR, `endoflife.date answered ${response.status} for ${what}.`);
    }
    const body = await readJson(response, ERROR, SERVICE);
    return { notModified: false as const, finalUrl, body, etag: response.headers.get("etag") };
  }

  return {
    async getProduct(product, { etag } = {}) {
      if (!opts.enabled) return { status: "disabled" };
      if (!PRODUCT_ID.test(product) || product === "none") {
        throw new AppError("invalid_input", `${JSON.stringify(product)} is not an endoflife.date product identifier.`);
      }
      const answer = await get(`${apiUrl}/products/${encodeURIComponent(product)}`, etag, `Product ${product}`);
      const landed = productOf(answer.finalUrl);
      const movedTo = landed && landed !== product ? landed : null;
      if (answer.notModified) return { status: "not_modified", movedTo };

      const parsed = eolProductEnvelopeSchema.safeParse(answer.body);
      if (!parsed.success) throw new AppError(ERROR, `endoflife.date answered with an unexpected body for ${product}.`, { cause: parsed.error });
      const { result, last_modified } = parsed.data;
      return {
        status: "ok",
        etag: answer.etag,
        movedTo: movedTo ?? (result.name !== product ? result.name : null),
        data: {
          name: result.name,
          label: result.label ?? null,
          lastModified: last_modified ?? null,
          releases: result.releases.map(toEolCycle),
        },
      };
    },

    async listPurlIdentifiers({ etag } = {}) {
      if (!opts.enabled) return { status: "disabled" };
      const answer = await get(`${apiUrl}/identifiers/purl`, etag, "The package URL list");
      if (answer.notModified) return { status: "not_modified", movedTo: null };
      const parsed = eolPurlListSchema.safeParse(answer.body);
      if (!parsed.success) throw new AppError(ERROR, "endoflife.date answered with an unexpected package URL list.", { cause: parsed.error });
      return {
        status: "ok",
        etag: answer.etag,
        movedTo: null,
        data: parsed.data.result.map((r) => ({
          identifier: r.identifier,
          product: { name: r.product.name, ...(r.product.uri ? { uri: r.product.uri } : {}) },
        })),
      };
    },
  };
}
