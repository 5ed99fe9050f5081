// How fast one thread runs on this (shared) machine right now: the same CPU-bound
// work (parsing 2,000 registry tags) timed before each section, in millions of
// tags a second. It falls with the host's speed (a VM on a shared host, whose
// speed swings within an hour at the same load average) and with whatever
// else is running (a server still starting). A figure measured on a slow machine
// says so beside it, and a growth factor between two sizes can be read against the
// speeds at which each was measured.
import { parseTag } from "@/lib/domain/versions";
import { median } from "./figures";
import { buildRealisticTags } from "./versions";

const TAGS = buildRealisticTags(2_000);

/** Millions of tags parsed a second: the median of 7 runs of 10 passes (about 50 ms in all). */
export function machineSpeed(): number {
  const runs: number[] = [];
  for (let r = 0; r < 7; r++) {
    const start = performance.now();
    for (let pass = 0; pass < 10; pass++) for (const tag of TAGS) parseTag(tag);
    runs.push((10 * TAGS.length) / ((performance.now() - start) * 1000));
  }
  return Math.round(median(runs) * 100) / 100;
}
