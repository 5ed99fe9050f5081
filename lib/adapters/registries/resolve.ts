// Moving-tag resolution: which exact version
// tag points at the digest that runs. Index digests are compared with the
// candidates' HEAD digests, newest first, stopping at the first match. A
// platform digest is looked for inside the indexes of the two newest
// candidates only (two manifest GETs at most); it is never compared with an
// index digest. Caching lookups across checks is the caller's job: it hands
// in what earlier pulls taught (a tag's platform digests), and is told of
// each pull's lesson at once, so a resolution cut short keeps what it paid for.
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
  /** Tag → its platform digests, stored from earlier pulls (a single-platform tag's own digest); no pull for these. */
  knownPlatformDigests?: Map<string, readonly string[]>;
  /** Told of each manifest GET's lesson before the next request, so it is kept even if a later one fails. */
  onPlatformDigests?: (tag: string, digest: string, platformDigests: string[]) => Promise<void>;
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
      const stored = input.knownPlatformDigests?.get(tag);
      if (stored && stored.length > 0) {
        if (stored.includes(input.runningDigest)) return { ...result, tag };
        continue;
      }
      result.manifestGets++;
      const manifest = await client.getManifest(input.repo, tag);
      if (manifest === null) continue;
      // A single-platform tag's own digest is a platform digest too: same kind, so comparable.
      const platformDigests = manifest.configDigest !== null ? [manifest.digest] : manifest.platforms.map((p) => p.digest);
      result.learned.set(tag, manifest.digest);
      if (platformDigests.length > 0) result.platformDigestsLearned.set(tag, platformDigests);
      await input.onPlatformDigests?.(tag, manifest.digest, platformDigests);
      if (platformDigests.includes(input.runningDigest)) return { ...result, tag };
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
