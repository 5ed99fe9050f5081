// Which forge repository a policy value or an image label may name. A value
// names a repository, never a host to call: GitHub values carry no host, GitLab
// values must be on gitlab.com or the one DRIFTWATCH_GITLAB_URL instance. Pure.

export const FORGE_KINDS = ["github", "gitlab"] as const;
export type ForgeKind = (typeof FORGE_KINDS)[number];

export const PUBLIC_GITLAB_HOST = "gitlab.com";
const PUBLIC_GITHUB_HOSTS = new Set(["github.com", "www.github.com"]);

export type ForgeHostOptions = { gitlabUrl?: string | undefined };

export type ForgeReferenceCheck = { ok: true; repository: string } | { ok: false; error: string };

export type ForgeReference = { kind: ForgeKind; repository: string };

const SEGMENT = /^[A-Za-z0-9_.-]+$/;

function isSafeSegment(segment: string): boolean {
  return SEGMENT.test(segment) && segment !== "." && segment !== "..";
}

/** `host[:port]` of the configured self-hosted GitLab, lower-case, default ports dropped; null when unset or invalid. */
export function configuredGitlabHost(gitlabUrl: string | undefined): string | null {
  if (!gitlabUrl) return null;
  try {
    const url = new URL(gitlabUrl);
    if (url.protocol !== "http:" && url.protocol !== "https:") return null;
    return url.host.toLowerCase();
  } catch {
    return null;
  }
}

/** Lower-case a `host[:port]` and drop the port that is the default for the configured scheme. */
function normaliseHost(host: string, gitlabUrl: string | undefined): string {
  const lower = host.toLowerCase();
  const match = /^(.*):(\d{1,5})$/.exec(lower);
  if (!match) return lower;
  const [, name, port] = match;
  let scheme = "https:";
  try {
    if (gitlabUrl) scheme = new URL(gitlabUrl).protocol;
  } catch {
    // keep https
  }
  const defaultPort = scheme === "http:" ? "80" : "443";
  return port === defaultPort ? (name ?? lower) : lower;
}

/** The GitLab hosts that may be called: gitlab.com and the configured instance. */
export function allowedGitlabHosts(opts: ForgeHostOptions): string[] {
  const configured = configuredGitlabHost(opts.gitlabUrl);
  return configured && configured !== PUBLIC_GITLAB_HOST ? [PUBLIC_GITLAB_HOST, configured] : [PUBLIC_GITLAB_HOST];
}

/**
 * Check a policy value (or catalog value) before anything is requested.
 * GitHub: `owner/repo`. GitLab: `host[:port]/group[/subgroup…]/project` on an allowed host.
 */
export function checkForgeReference(kind: ForgeKind, value: string, opts: ForgeHostOptions = {}): ForgeReferenceCheck {
  const trimmed = value.trim();
  switch (kind) {
    case "github": {
      const parts = trimmed.split("/");
      if (parts.length !== 2 || !parts.every(isSafeSegment)) {
        const looksHosted = parts.length > 2 || /[:]/.test(trimmed);
        return {
          ok: false,
          error: looksHosted
            ? "GitHub repositories are given as owner/repo, without a host; only the configured GitHub API is called"
            : "must be owner/repo",
        };
      }
      return { ok: true, repository: trimmed };
    }
    case "gitlab": {
      const [rawHost, ...path] = trimmed.split("/");
      if (!rawHost || !/^[A-Za-z0-9.-]+(?::\d{1,5})?$/.test(rawHost)) {
        return { ok: false, error: "must be host/group/project" };
      }
      if (path.length < 2 || !path.every(isSafeSegment)) {
        return { ok: false, error: "must be host/group/project" };
      }
      const host = normaliseHost(rawHost, opts.gitlabUrl);
      const allowed = allowedGitlabHosts(opts);
      if (!allowed.includes(host)) {
        return {
          ok: false,
          error: `GitLab host ${host} is not allowed; only ${allowed.join(" and ")} ${allowed.length > 1 ? "are" : "is"} called (DRIFTWATCH_GITLAB_URL names the self-hosted one)`,
        };
      }
      return { ok: true, repository: [host, ...path].join("/") };
    }
    default: {
      const never: never = kind;
      return { ok: false, error: `unknown forge kind ${String(never)}` };
    }
  }
}

/** Split an allowed GitLab reference into its host and project path. */
export function splitGitlabReference(reference: string): { host: string; project: string } {
  const slash = reference.indexOf("/");
  return { host: reference.slice(0, slash), project: reference.slice(slash + 1) };
}

type ParsedSource = { host: string; path: string[] };

/** Parse the URL forms found in `org.opencontainers.image.source`: https, http, git+https, ssh and scp-like git@host:path. */
function parseSourceUrl(label: string): ParsedSource | null {
  const text = label.trim();
  if (!text || text.length > 500) return null;
  const scp = /^[A-Za-z0-9._-]+@([A-Za-z0-9.-]+):(?!\/)(.+)$/.exec(text);
  if (scp) {
    const [, host, rest] = scp;
    return { host: (host ?? "").toLowerCase(), path: (rest ?? "").split("/").filter(Boolean) };
  }
  let url: URL;
  try {
    url = new URL(text.replace(/^git\+/, ""));
  } catch {
    return null;
  }
  if (!["https:", "http:", "ssh:", "git:"].includes(url.protocol)) return null;
  // An ssh URL's port is the SSH port, not the web port: compare by host name only.
  const host = url.protocol === "ssh:" || url.protocol === "git:" ? url.hostname : url.host;
  return { host: host.toLowerCase(), path: url.pathname.split("/").filter(Boolean).map(decodeSegment) };
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function stripGitSuffix(segment: string): string {
  return segment.endsWith(".git") ? segment.slice(0, -4) : segment;
}

/**
 * Read an image's `org.opencontainers.image.source` label into a forge reference.
 * github.com, gitlab.com and the configured GitLab only; any other host gives null.
 */
export function forgeFromSourceLabel(label: string, opts: ForgeHostOptions = {}): ForgeReference | null {
  const parsed = parseSourceUrl(label);
  if (!parsed) return null;

  if (PUBLIC_GITHUB_HOSTS.has(parsed.host)) {
    const [owner, repoRaw] = parsed.path;
    if (!owner || !repoRaw) return null;
    const repository = `${owner}/${stripGitSuffix(repoRaw)}`;
    const check = checkForgeReference("github", repository, opts);
    return check.ok ? { kind: "github", repository: check.repository } : null;
  }

  const configured = configuredGitlabHost(opts.gitlabUrl);
  let path = parsed.path;
  if (configured && parsed.host !== PUBLIC_GITLAB_HOST) {
    // A self-hosted GitLab may live under a path prefix (https://example.com/gitlab).
    const prefix = new URL(opts.gitlabUrl ?? "").pathname.split("/").filter(Boolean);
    const sameHost = parsed.host === configured || parsed.host === configured.replace(/:\d+$/, "");
    if (!sameHost) return null;
    if (prefix.length > 0 && prefix.every((p, i) => path[i] === p)) path = path.slice(prefix.length);
  } else if (parsed.host !== PUBLIC_GITLAB_HOST) {
    return null;
  }

  const dash = path.indexOf("-");
  const projectPath = (dash >= 0 ? path.slice(0, dash) : path).map((s, i, all) =>
    i === all.length - 1 ? stripGitSuffix(s) : s,
  );
  if (projectPath.length < 2) return null;
  const host = parsed.host === PUBLIC_GITLAB_HOST ? PUBLIC_GITLAB_HOST : (configured ?? parsed.host);
  const check = checkForgeReference("gitlab", [host, ...projectPath].join("/"), opts);
  return check.ok ? { kind: "gitlab", repository: check.repository } : null;
}
