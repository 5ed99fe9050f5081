// End-of-life rules:
// which endoflife.date product an image is, which release cycle a version
// belongs to, and whether that cycle's end is passed, soon or far. Pure.
import { parseImageRef } from "./image-ref";
import { cycleShapeOf, releaseCycle, type CycleShape } from "./versions";

/** `eol` drift opens this many days before a cycle's support ends. */
export const EOL_SOON_DAYS = 60;

export type EolState = "ok" | "soon" | "passed";

/** One release cycle of an endoflife.date product (API v1 field names). */
export type EolCycle = {
  name: string;
  releaseDate: string | null;
  isEol: boolean;
  eolFrom: string | null;
  isMaintained: boolean;
  isLts: boolean;
  latest: { name: string; date: string | null; link: string | null } | null;
  isEoas?: boolean;
  eoasFrom?: string | null;
};

/** One entry of `GET /identifiers/purl`. */
export type PurlIdentifier = { identifier: string; product: { name: string; uri?: string } };

const DAY_MS = 24 * 60 * 60 * 1000;

function parseDay(day: string): number | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(day);
  if (!match) return null;
  const time = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  return Number.isNaN(time) ? null : time;
}

/**
 * `passed` once the cycle's end date has come (or the source says it is EOL),
 * `soon` within the 60 days before it, else `ok`. A cycle without a date is
 * `ok` unless the source marks it EOL.
 */
export function eolState(cycle: { eolFrom: string | null; isEol: boolean }, now: Date): EolState {
  if (cycle.isEol) return "passed";
  const end = cycle.eolFrom ? parseDay(cycle.eolFrom) : null;
  if (end === null) return "ok";
  const nowMs = now.getTime();
  if (nowMs >= end) return "passed";
  return end - nowMs <= EOL_SOON_DAYS * DAY_MS ? "soon" : "ok";
}

/**
 * The cycle a version belongs to, by dropping trailing parts to the shape of
 * the product's cycle names (`17.2` → `17`, `1.27.3` → `1.27`), then to the
 * other shape for products whose old cycles differ (Node.js `0.12` beside `22`).
 */
export function findCycle<T extends { name: string }>(version: string, releases: readonly T[]): T | null {
  const byName = new Map(releases.map((r) => [r.name, r] as const));
  const shape = cycleShapeOf(releases.map((r) => r.name));
  const other: CycleShape = shape === "major" ? "major.minor" : "major";
  for (const by of [shape, other]) {
    const cycle = releaseCycle(version, by);
    const hit = cycle === null ? undefined : byName.get(cycle);
    if (hit) return hit;
  }
  return null;
}

/** The repository key (`docker.io/library/postgres`) of any spelling, a URL-ish `https://ghcr.io/o/app` included; null when not an image name. */
export function normaliseRepositoryKey(repository: string): string | null {
  const text = repository.trim().replace(/^[a-z][a-z0-9+.-]*:\/\//i, "").replace(/\/+$/, "");
  const [first, ...rest] = text.split("/");
  // Package URLs name Docker Hub by its web address.
  const spelled = first?.toLowerCase() === "hub.docker.com" ? ["docker.io", ...rest].join("/") : text;
  return parseImageRef(spelled)?.key ?? null;
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * The repository keys a container package URL may stand for. endoflife.date
 * writes `pkg:oci/<name>?repository_url=<registry>/<namespace>` (without the
 * name) as well as the purl spec's full repository URL, so both are offered.
 */
export function repositoryKeysForPurl(purl: string): string[] {
  const match = /^pkg:(docker|oci)\/([^?#@]+)(?:@[^?#]*)?(?:\?([^#]*))?/i.exec(purl.trim());
  if (!match) return [];
  const type = (match[1] ?? "").toLowerCase();
  const path = (match[2] ?? "").split("/").filter(Boolean).map(decode);
  const repositoryUrl = new URLSearchParams(match[3] ?? "").get("repository_url");
  const name = path[path.length - 1];
  if (!name) return [];

  const spellings: string[] = [];
  if (repositoryUrl) {
    const base = decode(repositoryUrl).replace(/\/+$/, "");
    if (type === "docker") spellings.push([base, ...path].join("/"));
    else spellings.push(`${base}/${name}`);
    if (type === "oci" && base.split("/").length > 1 && base.split("/").pop() === name) spellings.push(base);
  } else if (type === "docker") {
    spellings.push(path.join("/"));
  } // an OCI purl without repository_url names no registry

  const keys = spellings.map(normaliseRepositoryKey).filter((k): k is string => k !== null);
  return [...new Set(keys)];
}

/** The endoflife.date product whose package URLs name this image repository, or null. */
export function productForImage(repositoryKey: string, purls: readonly PurlIdentifier[]): string | null {
  const key = normaliseRepositoryKey(repositoryKey);
  if (key === null) return null;
  for (const entry of purls) {
    if (repositoryKeysForPurl(entry.identifier).includes(key)) return entry.product.name;
  }
  return null;
}

/**
 * The product to look up: the policy's `eol` first (`none` turns tracking
 * off), then the catalog's, then the package-URL match.
 */
export function resolveEolProduct(input: {
  policyEol?: string | null | undefined;
  catalogEol?: string | null | undefined;
  purlMatch?: string | null | undefined;
}): string | null {
  for (const candidate of [input.policyEol, input.catalogEol]) {
    if (candidate === "none") return null;
    if (candidate) return candidate;
  }
  return input.purlMatch ?? null;
}
