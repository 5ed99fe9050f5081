// Moving-tag resolution: which exact version
// tag points at the digest that runs. Index digests are compared with the
// candidates' HEAD digests, newest first, stopping at the first match. A
// platform digest is looked for inside the indexes of the two newest
// candidates only (two manifest GETs at most); it is never compared with an
// index digest. Caching lookups across checks is the caller's job.
import type { RegistryClient, RegistryRepo } from "@/lib/adapters/registries/client";

export type ResolveInput = {
  repo: RegistryRepo;
  runningDigest: string;
  /** The runtime recorded a platform manifest's digest, not the index digest. */
  isPlatformDigest: boolean;
  /** Exact version tags, newest first (from the version engine). */
  candidates: string[];
  /** Tag → index digest already stored (null: known to have none); no HEAD for these. */
  knownDigests: Map<string, string | null>;
};

export type ResolveResult = {
  /** The exact version tag whose image runs, or null. */
  tag: string | null;
  headRequests: number;
  manifestGets: number;
  /** Tag → top-level digest learned on the way (to store). */
  learned: Map<string, string>;
  /** Tag → platform digests of its index, learned from manifest GETs (to store). */
  platformDigestsLearned: Map<string, string[]>;
};

/** Manifest GETs count against Docker Hub's pull limit, so a resolution makes two at most. */
export const MAX_MANIFEST_GETS = 2;

export async function resolveDigest(client: RegistryClient, input: ResolveInput): Promise<ResolveResult> {
  const result: ResolveResult = { tag: null, headRequests: 0, manifestGets: 0, learned: new Map(), platformDigestsLearned: new Map() };
  const candidates = [...new Set(input.candidates)];

  if (input.isPlatformDigest) {
    for (const tag of candidates.slice(0, MAX_MANIFEST_GETS)) {
      result.manifestGets++;
      const manifest = await client.getManifest(input.repo, tag);
      if (manifest === null) continue;
      result.learned.set(tag, manifest.digest);
      const platformDigests = manifest.platforms.map((p) => p.digest);
      if (platformDigests.length > 0) result.platformDigestsLearned.set(tag, platformDigests);
      // A single-platform tag's own digest is a platform digest too: same kind, so comparable.
      const isMatch = manifest.configDigest !== null ? manifest.digest === input.runningDigest : platformDigests.includes(input.runningDigest);
      if (isMatch) return { ...result, tag };
    }
    return result;
  }

  for (const tag of candidates) {
    let digest: string | null;
    if (input.knownDigests.has(tag)) {
      digest = input.knownDigests.get(tag) ?? null;
    } else {
      result.headRequests++;
      digest = await client.headDigest(input.repo, tag);
      if (digest !== null) result.learned.set(tag, digest);
    }
    if (digest === input.runningDigest) return { ...result, tag };
  }
  return result;
}
