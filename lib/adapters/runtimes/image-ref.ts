// Image references as runtimes report them (`nginx:1.27`, `ghcr.io/org/app:1.2@sha256:…`,
// `docker-pullable://nginx@sha256:…`): only what the agent needs to pick the right digest.

import { isDigest as isDigestString, parseImageRef as parseDomainRef } from "@/lib/domain/image-ref";

export type ImageRef = {
  /** `docker.io`, `ghcr.io`, `registry.example.com:5000` */
  registry: string;
  /** `library/nginx`, `org/app` */
  path: string;
  /** `registry/path`: the key two references are compared by. */
  repository: string;
  tag: string | null;
  digest: string | null;
};

export const isDigest = (value: string | null | undefined): value is string => !!value && isDigestString(value);

/** Parse a reference with the shared parser (lib/domain/image-ref.ts); null when it is not one (an image ID such as `sha256:…`). */
export function parseImageRef(input: string): ImageRef | null {
  const ref = parseDomainRef(input.trim());
  if (!ref) return null;
  return { registry: ref.host, path: ref.path, repository: ref.key, tag: ref.tag, digest: ref.digest };
}

/** The repository key of a reference, or null. */
export const repositoryOf = (ref: string): string | null => parseImageRef(ref)?.repository ?? null;

/**
 * The reference to report as `image`: a pinned `name:tag@sha256:…` loses its
 * digest (reported apart); a digest-only reference is kept whole, since it
 * has no tag to stand for it.
 */
export function displayImage(ref: string): string {
  const trimmed = ref.trim();
  const parsed = parseImageRef(trimmed);
  if (parsed?.digest && parsed.tag) return trimmed.slice(0, trimmed.lastIndexOf("@"));
  return trimmed;
}

/**
 * The digest of `imageRef` among `repoDigests` (`nginx@sha256:…`): the one
 * recorded for the same repository, so a locally retagged image never borrows
 * another repository's digest.
 */
export function digestForRepository(imageRef: string, repoDigests: readonly string[]): string | null {
  const wanted = parseImageRef(imageRef);
  if (!wanted) return null;
  if (wanted.digest) return wanted.digest;
  for (const entry of repoDigests) {
    const candidate = parseImageRef(entry);
    if (candidate?.digest && candidate.repository === wanted.repository) return candidate.digest;
  }
  return null;
}

/** `linux/amd64`, `linux/arm64/v8`; null when the OS or architecture is unknown. */
export function platformString(os: string | null | undefined, arch: string | null | undefined, variant?: string | null): string | null {
  if (!os || !arch) return null;
  const a = normaliseArch(arch);
  return variant ? `${os.toLowerCase()}/${a}/${variant}` : `${os.toLowerCase()}/${a}`;
}

// Swarm node descriptions report `uname -m` names; images use GOARCH names.
const ARCH_ALIASES: Record<string, string> = { x86_64: "amd64", aarch64: "arm64", armv7l: "arm", i386: "386", i686: "386" };
export const normaliseArch = (arch: string): string => ARCH_ALIASES[arch.toLowerCase()] ?? arch.toLowerCase();
