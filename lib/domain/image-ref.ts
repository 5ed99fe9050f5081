// Image references (`nginx:1.27`, `ghcr.io/o/app:1.2@sha256:…`) parsed and
// normalised the way the Docker CLI and containerd do, so one repository has
// one `key` whatever spelling a runtime, a Compose file or a user wrote.

export type ImageRef = {
  /** Registry host, lower case, with port when given; Docker Hub is always `docker.io`. */
  host: string;
  /** Repository path; single-segment Docker Hub names get `library/`. */
  path: string;
  tag: string | null;
  digest: string | null;
  /** `host/path`: the repository's identity. */
  key: string;
};

export const DOCKER_HUB_HOST = "docker.io";
const DOCKER_HUB_API_HOST = "registry-1.docker.io";
const DOCKER_HUB_ALIASES = new Set(["docker.io", "index.docker.io", "registry-1.docker.io", "registry.hub.docker.com"]);

// Runtimes prefix image IDs with a transport (old kubelets: `docker-pullable://`).
const TRANSPORT_PREFIXES = ["docker-pullable://", "docker://"];

const NAME_MAX_LENGTH = 255;
const DOMAIN_LABEL = "(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])";
const HOST_RE = new RegExp(`^(?:${DOMAIN_LABEL}(?:\\.${DOMAIN_LABEL})*|\\[[0-9a-fA-F:.]+\\])(?::([0-9]{1,5}))?$`);
const PATH_COMPONENT_RE = /^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*$/;
const TAG_RE = /^[\w][\w.-]{0,127}$/;
const DIGEST_RE = /^(?:sha256:[a-f0-9]{64}|sha512:[a-f0-9]{128})$/;

/** Is this a well-formed content digest (`sha256:<64 hex>` or `sha512:<128 hex>`)? */
export function isDigest(value: string): boolean {
  return DIGEST_RE.test(value);
}

/** Is this a well-formed tag (`[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}`)? */
export function isTag(value: string): boolean {
  return TAG_RE.test(value);
}

/** Is this a well-formed repository path (`a/b-c/d_e`, lower case)? */
export function isRepositoryPath(value: string): boolean {
  return value.length <= NAME_MAX_LENGTH && value.split("/").every((s) => PATH_COMPONENT_RE.test(s));
}

/** Is this a well-formed registry host (`name[.name…][:port]`, or `[ipv6][:port]`)? */
export function isRegistryHost(value: string): boolean {
  const m = HOST_RE.exec(value);
  if (!m) return false;
  const port = m[1];
  return port === undefined || (Number(port) >= 1 && Number(port) <= 65535);
}

/** Lower-cases a registry host and folds Docker Hub's aliases into `docker.io`. */
export function normaliseRegistryHost(host: string): string {
  const lower = host.trim().toLowerCase();
  return DOCKER_HUB_ALIASES.has(lower) ? DOCKER_HUB_HOST : lower;
}

/** The host that serves the registry API for a reference host (Docker Hub's differs). */
export function registryApiHost(host: string): string {
  const normal = normaliseRegistryHost(host);
  return normal === DOCKER_HUB_HOST ? DOCKER_HUB_API_HOST : normal;
}

/** Parses an image reference; null when it is not one. */
export function parseImageRef(input: string): ImageRef | null {
  let rest = input.trim();
  for (const prefix of TRANSPORT_PREFIXES) if (rest.startsWith(prefix)) rest = rest.slice(prefix.length);
  if (rest === "" || /\s/.test(rest)) return null;

  let digest: string | null = null;
  const at = rest.indexOf("@");
  if (at !== -1) {
    digest = rest.slice(at + 1);
    rest = rest.slice(0, at);
    if (!isDigest(digest)) return null;
  }

  let tag: string | null = null;
  const colon = rest.lastIndexOf(":");
  if (colon > rest.lastIndexOf("/")) {
    tag = rest.slice(colon + 1);
    rest = rest.slice(0, colon);
    if (!TAG_RE.test(tag)) return null;
  }

  // The first segment is a host when it looks like one (the Docker CLI's rule).
  const slash = rest.indexOf("/");
  const first = slash === -1 ? "" : rest.slice(0, slash);
  const hasHost = slash !== -1 && (/[.:]/.test(first) || first === "localhost" || first !== first.toLowerCase());
  let host = hasHost ? first : DOCKER_HUB_HOST;
  let path = hasHost ? rest.slice(slash + 1) : rest;
  if (!isRegistryHost(host)) return null;
  host = normaliseRegistryHost(host);

  const segments = path.split("/");
  if (!segments.every((s) => PATH_COMPONENT_RE.test(s))) return null;
  if (host === DOCKER_HUB_HOST && segments.length === 1) path = `library/${path}`;
  if (host.length + 1 + path.length > NAME_MAX_LENGTH) return null;

  return { host, path, tag, digest, key: `${host}/${path}` };
}

/** The full, canonical spelling: `host/path[:tag][@digest]`. */
export function formatImageRef(ref: Pick<ImageRef, "host" | "path" | "tag" | "digest">): string {
  return `${ref.host}/${ref.path}${ref.tag ? `:${ref.tag}` : ""}${ref.digest ? `@${ref.digest}` : ""}`;
}

/** The short spelling people write: `nginx`, `bitnami/redis`, `ghcr.io/o/app`. */
export function familiarName(ref: Pick<ImageRef, "host" | "path">): string {
  if (ref.host !== DOCKER_HUB_HOST) return `${ref.host}/${ref.path}`;
  return ref.path.startsWith("library/") ? ref.path.slice("library/".length) : ref.path;
}
