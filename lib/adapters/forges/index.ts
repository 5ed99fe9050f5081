// Forge adapters behind one entry point. A repository whose host is not
// allowed is refused here, before any request is made.
import { AppError } from "@/lib/domain/errors";
import { checkForgeReference } from "@/lib/domain/forge-hosts";
import { GithubReleasesClient } from "./github/client";
import { GitlabReleasesClient } from "./gitlab/client";
import type { FetchLike } from "./same-origin-fetch";
import type { ListReleasesInput, ListReleasesResult } from "./types";

export type { ForgeKind, ForgeRelease, ListReleasesInput, ListReleasesResult } from "./types";
export { releaseForVersion, releaseTagCandidates, changelogUrl } from "./release-mapping";

export type ForgeClientsOptions = {
  /** DRIFTWATCH_GITHUB_API_URL, e.g. https://api.github.com */
  githubApiUrl: string;
  githubToken?: string | undefined;
  /** DRIFTWATCH_GITLAB_URL: the one self-hosted GitLab besides gitlab.com. */
  gitlabUrl?: string | undefined;
  gitlabToken?: string | undefined;
  /** Where gitlab.com's API is reached (tests point it at a loopback server). */
  gitlabComUrl?: string | undefined;
  fetch?: FetchLike | undefined;
  timeoutMs?: number | undefined;
  maxPages?: number | undefined;
  now?: (() => number) | undefined;
};

export type ForgeClients = {
  listReleases(input: ListReleasesInput): Promise<ListReleasesResult>;
};

/**
 * Keep one instance for the process: the GitHub client remembers an exhausted
 * rate limit and sends nothing until it resets.
 */
export function createForgeClients(opts: ForgeClientsOptions): ForgeClients {
  const github = new GithubReleasesClient({
    apiUrl: opts.githubApiUrl,
    token: opts.githubToken,
    fetch: opts.fetch,
    timeoutMs: opts.timeoutMs,
    maxPages: opts.maxPages,
    now: opts.now,
  });
  const gitlab = new GitlabReleasesClient({
    gitlabUrl: opts.gitlabUrl,
    gitlabToken: opts.gitlabToken,
    gitlabComUrl: opts.gitlabComUrl,
    fetch: opts.fetch,
    timeoutMs: opts.timeoutMs,
    maxPages: opts.maxPages,
    now: opts.now,
  });

  return {
    async listReleases({ kind, repository, etag }) {
      const check = checkForgeReference(kind, repository, { gitlabUrl: opts.gitlabUrl });
      if (!check.ok) {
        throw new AppError("invalid_input", check.error, { errors: [{ pointer: `/policy/${kind}`, detail: check.error }] });
      }
      switch (kind) {
        case "github":
          return github.listReleases(check.repository, etag);
        case "gitlab":
          return gitlab.listReleases(check.repository, etag);
        default: {
          const never: never = kind;
          throw new AppError("invalid_input", `Unknown forge kind ${String(never)}.`);
        }
      }
    },
  };
}
