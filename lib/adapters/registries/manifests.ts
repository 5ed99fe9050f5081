// Manifests: HEAD for a tag's digest (cheap; not a pull on Docker Hub), GET
// for an index's platform manifests (a pull: used sparingly), and the config
// blob for image labels. Bodies are verified against their digest.
import { createHash } from "node:crypto";
import { isDigest } from "@/lib/domain/image-ref";
import { malformed, parseBody, statusError, unavailable } from "@/lib/adapters/registries/errors";
import {
  IMAGE_MEDIA_TYPES,
  INDEX_MEDIA_TYPES,
  MANIFEST_ACCEPT,
  imageConfigSchema,
  imageManifestSchema,
  indexSchema,
} from "@/lib/adapters/registries/schemas";
import type { Exchange, RepoFetch } from "@/lib/adapters/registries/transport";

export type Platform = { digest: string; os: string; architecture: string; variant?: string };

export type Manifest = {
  /** Digest of the manifest bytes: the index digest for a multi-platform image. */
  digest: string;
  mediaType: string;
  /** An index's entries (empty for a single-platform manifest). */
  platforms: Platform[];
  /** A single-platform manifest's config blob (null for an index). */
  configDigest: string | null;
};

const MANIFEST_MAX_BYTES = 4 * 1024 * 1024; // the distribution registry's own limit
const CONFIG_MAX_BYTES = 8 * 1024 * 1024;

function digestOf(body: Buffer, algorithm: "sha256" | "sha512"): string {
  return `${algorithm}:${createHash(algorithm).update(body).digest("hex")}`;
}

function algorithmOf(digest: string | null): "sha256" | "sha512" {
  return digest?.startsWith("sha512:") ? "sha512" : "sha256";
}

function mediaTypeOf(ex: Exchange): string {
  return (ex.headers.get("content-type") ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
}

/** The digest a tag (or digest) points at, from `Docker-Content-Digest`; null when unknown to the registry. */
export async function headDigest(fetch: RepoFetch, path: string, reference: string): Promise<string | null> {
  const what = `manifest ${path}:${reference}`;
  const ex = await fetch("HEAD", `/v2/${path}/manifests/${reference}`, { headers: { accept: MANIFEST_ACCEPT } });
  if (ex.status === 404) return null;
  if (ex.status !== 200) throw statusError(ex.status, ex.body, what);
  const digest = ex.headers.get("docker-content-digest")?.trim() ?? "";
  if (!isDigest(digest)) throw malformed(what, `Docker-Content-Digest ${JSON.stringify(digest)}`);
  return digest;
}

/** Parses manifest bytes as returned by a GET. */
export function parseManifest(body: Buffer, contentType: string, digest: string, what: string): Manifest {
  let declared: unknown;
  try {
    declared = (JSON.parse(body.toString("utf8")) as { mediaType?: unknown }).mediaType;
  } catch {
    throw malformed(what, "not JSON");
  }
  const mediaType = typeof declared === "string" && declared !== "" ? declared : contentType;
  const isIndex = INDEX_MEDIA_TYPES.has(mediaType) || (!IMAGE_MEDIA_TYPES.has(mediaType) && body.includes('"manifests"'));
  if (isIndex) {
    const index = parseBody(indexSchema, body, what);
    return {
      digest,
      mediaType: mediaType || "application/vnd.oci.image.index.v1+json",
      platforms: index.manifests.map((m) => ({
        digest: m.digest,
        os: m.platform?.os ?? "unknown",
        architecture: m.platform?.architecture ?? "unknown",
        ...(m.platform?.variant ? { variant: m.platform.variant } : {}),
      })),
      configDigest: null,
    };
  }
  if (!IMAGE_MEDIA_TYPES.has(mediaType) && !body.includes('"config"')) {
    throw unavailable(`${what}: unsupported manifest type ${JSON.stringify(mediaType)}`);
  }
  const image = parseBody(imageManifestSchema, body, what);
  return { digest, mediaType: mediaType || "application/vnd.oci.image.manifest.v1+json", platforms: [], configDigest: image.config.digest };
}

/** A full manifest (an index lists its platform manifests); null when unknown to the registry. */
export async function getManifest(fetch: RepoFetch, path: string, reference: string): Promise<Manifest | null> {
  const what = `manifest ${path}:${reference}`;
  const ex = await fetch("GET", `/v2/${path}/manifests/${reference}`, {
    headers: { accept: MANIFEST_ACCEPT },
    isPull: true,
    maxBytes: MANIFEST_MAX_BYTES,
  });
  if (ex.status === 404) return null;
  if (ex.status !== 200) throw statusError(ex.status, ex.body, what);
  const header = ex.headers.get("docker-content-digest")?.trim() || null;
  const expected = isDigest(reference) ? reference : header !== null && isDigest(header) ? header : null;
  const digest = digestOf(ex.body, algorithmOf(expected));
  if (expected !== null && expected !== digest) throw unavailable(`${what}: body digest ${digest} does not match ${expected}`);
  return parseManifest(ex.body, mediaTypeOf(ex), digest, what);
}

/** The platform whose config carries the labels: linux/amd64 first, else the first real platform. */
function pickPlatform(platforms: Platform[]): Platform | undefined {
  return (
    platforms.find((p) => p.os === "linux" && p.architecture === "amd64") ??
    platforms.find((p) => p.os !== "unknown" && p.architecture !== "unknown")
  );
}

async function getConfigLabels(fetch: RepoFetch, path: string, configDigest: string): Promise<Record<string, string>> {
  const what = `config blob ${path}@${configDigest}`;
  const ex = await fetch("GET", `/v2/${path}/blobs/${configDigest}`, { maxBytes: CONFIG_MAX_BYTES });
  if (ex.status !== 200) throw statusError(ex.status, ex.body, what);
  const digest = digestOf(ex.body, algorithmOf(configDigest));
  if (digest !== configDigest) throw unavailable(`${what}: body digest ${digest} does not match`);
  return parseBody(imageConfigSchema, ex.body, what).config?.Labels ?? {};
}

/** Image labels (such as `org.opencontainers.image.source`): index → linux/amd64 manifest → config blob. */
export async function getImageLabels(fetch: RepoFetch, path: string, reference: string): Promise<Record<string, string>> {
  let manifest = await getManifest(fetch, path, reference);
  if (manifest === null) throw statusError(404, Buffer.alloc(0), `manifest ${path}:${reference}`);
  if (manifest.configDigest === null) {
    const platform = pickPlatform(manifest.platforms);
    if (!platform) return {};
    manifest = await getManifest(fetch, path, platform.digest);
    if (manifest === null) throw statusError(404, Buffer.alloc(0), `manifest ${path}@${platform.digest}`);
    if (manifest.configDigest === null) throw unavailable(`manifest ${path}@${platform.digest}: an index inside an index`);
  }
  return getConfigLabels(fetch, path, manifest.configDigest);
}
