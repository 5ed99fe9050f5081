// The exact version an image reference stands for, worked out as history works
// out a run's: a digest that upstream resolved (or that ran before with a known
// version) wins; a tag that names a version is that version unless upstream
// shows it is a line tag that moves (`1.27` beside `1.27.3`).
import { versionOfTag } from "../intake/report";
import { exactVersionOf } from "../running-version";

export type ImageVersionInput = {
  tag: string | null;
  digest: string | null;
  /** The release upstream resolved the digest to, where it did. */
  resolvedVersion: string | null;
  /** Runs of the service with their digests and exact versions. */
  runs: readonly { digest: string | null; version: string | null }[];
  /** The service's upstream tags, where checked. */
  upstreamTags: readonly string[] | null;
};

export function versionOfImage(input: ImageVersionInput): string | null {
  const tag = input.tag ?? (input.digest ? null : "latest");
  let resolved = input.resolvedVersion;
  if (resolved === null && input.digest !== null) {
    resolved = input.runs.find((r) => r.digest === input.digest && r.version !== null)?.version ?? null;
  }
  if (tag === null) return resolved;
  return exactVersionOf({ tag, tagVersion: versionOfTag(tag), resolvedVersion: resolved }, input.upstreamTags);
}
