// GitHub releases: GET {apiUrl}/repos/{owner}/{repo}/releases?per_page=100,
// paged by Link, conditional on the first page's ETag. The client remembers an
// exhausted rate limit and sends nothing more until GitHub's reset time.
import { AppError } from "@/lib/domain/errors";
import {
  assertSameOrigin,
  fetchSameOrigin,
  nextLink,
  readJson,
  retryAfterSeconds,
  type FetchLike,
} from "../same-origin-fetch";
import { DEFAULT_MAX_PAGES, toUtc, type ForgeRelease, type ListReleasesResult } from "../types";
import { githubReleasesPageSchema, type GithubRelease } from "./schema";

const SERVICE = "GitHub";
const ERROR = "forge_unavailable" as const;

export type GithubClientOptions = {
  apiUrl: string;
  token?: string | undefined;
  fetch?: FetchLike | undefined;
  timeoutMs?: number | undefined;
  maxPages?: number | undefined;
  /** Clock for the rate-limit window; Date.now by default. */
  now?: (() => number) | undefined;
};

/** Pure: a GitHub release as a ForgeRelease; drafts give null. */
export function toForgeRelease(release: GithubRelease): ForgeRelease | null {
  if (release.draft) return null;
  return {
    tag: release.tag_name,
    name: release.name ?? null,
    publishedAt: toUtc(release.published_at),
    url: release.html_url,
    prerelease: release.prerelease,
  };
}

export class GithubReleasesClient {
  private readonly apiUrl: string;
  private readonly origin: string;
  private readonly now: () => number;
  /** Epoch ms before which no request is sent (an exhausted rate limit). */
  private blockedUntilMs = 0;

  constructor(private readonly opts: GithubClientOptions) {
    this.apiUrl = opts.apiUrl.replace(/\/+$/, "");
    this.origin = new URL(this.apiUrl).origin;
    this.now = opts.now ?? Date.now;
  }

  /** Seconds until requests may be sent again; 0 when not limited. */
  rateLimitedForSeconds(): number {
    const left = this.blockedUntilMs - this.now();
    return left > 0 ? Math.ceil(left / 1000) : 0;
  }

  async listReleases(repository: string, etag?: string | null): Promise<ListReleasesResult> {
    const [owner, repo] = repository.split("/");
    if (!owner || !repo) throw new AppError("invalid_input", "A GitHub repository is owner/repo.");
    let url: string | null =
      `${this.apiUrl}/repos/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}/releases?per_page=100`;
    const releases: ForgeRelease[] = [];
    let firstEtag: string | null = null;

    for (let page = 0; url && page < (this.opts.maxPages ?? DEFAULT_MAX_PAGES); page++) {
      this.assertNotLimited();
      const { response, url: finalUrl } = await fetchSameOrigin({
        url,
        allowedOrigin: this.origin,
        headers: this.headers(page === 0 ? etag : null),
        fetch: this.opts.fetch,
        timeoutMs: this.opts.timeoutMs,
        errorCode: ERROR,
        service: SERVICE,
      });
      this.recordRateLimit(response);

      if (response.status === 304 && page === 0 && etag) {
        await response.body?.cancel();
        return { notModified: true };
      }
      if (response.status !== 200) await this.throwFor(response, repository);

      const parsed = githubReleasesPageSchema.safeParse(await readJson(response, ERROR, SERVICE));
      if (!parsed.success) throw new AppError(ERROR, "GitHub answered with an unexpected releases list.", { cause: parsed.error });
      for (const release of parsed.data) {
        const mapped = toForgeRelease(release);
        if (mapped) releases.push(mapped);
      }
      if (page === 0) firstEtag = response.headers.get("etag");
      const next = nextLink(response.headers.get("link"), finalUrl);
      url = next ? assertSameOrigin(next, this.origin, ERROR, SERVICE).toString() : null;
    }
    return { notModified: false, etag: firstEtag, releases };
  }

  private headers(etag: string | null | undefined): Record<string, string> {
    return {
      accept: "application/vnd.github+json",
      "x-github-api-version": "2022-11-28",
      "user-agent": "driftwatch",
      ...(this.opts.token ? { authorization: `Bearer ${this.opts.token}` } : {}),
      ...(etag ? { "if-none-match": etag } : {}),
    };
  }

  private assertNotLimited(): void {
    const wait = this.rateLimitedForSeconds();
    if (wait > 0) {
      throw new AppError("rate_limited", `GitHub's rate limit is exhausted; retry in ${wait} s.`, { retryAfterSeconds: wait });
    }
  }

  private recordRateLimit(response: Response): void {
    const remaining = response.headers.get("x-ratelimit-remaining");
    const reset = Number(response.headers.get("x-ratelimit-reset"));
    if (remaining !== null && Number(remaining) <= 0 && Number.isFinite(reset) && reset > 0) {
      this.blockedUntilMs = Math.max(this.blockedUntilMs, reset * 1000);
    }
  }

  private async throwFor(response: Response, repository: string): Promise<never> {
    await response.body?.cancel();
    const { status } = response;
    if (status === 403 || status === 429) {
      const retryAfter = retryAfterSeconds(response.headers.get("retry-after"), this.now());
      if (retryAfter !== null) this.blockedUntilMs = Math.max(this.blockedUntilMs, this.now() + retryAfter * 1000);
      const wait = this.rateLimitedForSeconds();
      if (wait > 0) {
        throw new AppError("rate_limited", `GitHub's rate limit is exhausted; retry in ${wait} s.`, { retryAfterSeconds: wait });
      }
      if (status === 429 || response.headers.get("x-ratelimit-remaining") === "0") {
        throw new AppError("rate_limited", "GitHub is rate limiting requests.", { retryAfterSeconds: 60 });
      }
      throw new AppError(ERROR, `GitHub refused to list the releases of ${repository} (403).`);
    }
    if (status === 404) throw new AppError("not_found", `GitHub repository ${repository} was not found.`);
    if (status === 401) throw new AppError(ERROR, "GitHub rejected the token (401); check DRIFTWATCH_GITHUB_TOKEN.");
    throw new AppError(ERROR, `GitHub answered ${status} for the releases of ${repository}.`);
  }
}
