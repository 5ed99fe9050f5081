// Version engine figures: newest-tag selection over a realistic 10,000-tag
// repository, parsing throughput, and the same selection done the way many
// tools do it (semver.coerce + semver.compare), for scale only.
import { pathToFileURL } from "node:url";
import semver from "semver";
import { median, type Figure } from "@/bench/figures";
import { parseTag, selectNewest } from "@/lib/domain/versions";

const FLAVOURS = [
  "", "-alpine", "-alpine-slim", "-alpine-perl", "-alpine-otel", "-perl", "-otel", "-bookworm",
  "-bookworm-perl", "-bookworm-otel", "-alpine3.X", "-alpine3.X-perl", "-alpine3.X-slim",
];
const NAMES = [
  "latest", "stable", "mainline", "alpine", "alpine-slim", "alpine-perl", "perl", "otel", "bookworm",
  "stable-alpine", "stable-perl", "mainline-alpine", "mainline-alpine-slim", "mainline-bookworm",
];

/**
 * An nginx-shaped repository of `count` distinct tags, in the lexical order
 * registries list them: every release in 13 flavours (the Alpine base moving
 * on every few minors), 2-part lines, prereleases, names, commit ids and signatures.
 */
export function buildRealisticTags(count = 10_000): string[] {
  const tags = new Set<string>(NAMES);
  const hex = (n: number) => ((n * 2_654_435_761) >>> 0).toString(16).padStart(8, "0");
  for (let i = 0; tags.size < count; i++) {
    const major = 1 + Math.floor(i / 600);
    const minor = Math.floor(i / 24) % 25;
    const patch = i % 24;
    const flavours = FLAVOURS.map((f) => f.replace("X", String(10 + Math.floor(minor / 3))));
    for (const f of flavours) tags.add(`${major}.${minor}.${patch}${f}`);
    if (patch === 0) {
      for (const f of flavours) tags.add(`${major}.${minor}${f}`);
      tags.add(`${major}.${minor}.0-rc.1`);
      tags.add(`${major}.${minor}.0rc2-alpine`);
    }
    if (i % 7 === 0) tags.add(`sha256-${hex(i).repeat(8)}.sig`);
    if (i % 11 === 0) tags.add(`sha-${hex(i).slice(0, 7)}`);
  }
  return [...tags].slice(0, count).sort();
}

function time(run: () => void): number {
  const start = performance.now();
  run();
  return performance.now() - start;
}

function newestBySemver(tags: readonly string[]): string | null {
  let best: { tag: string; version: semver.SemVer } | null = null;
  for (const tag of tags) {
    const version = semver.coerce(tag);
    if (version === null) continue;
    if (best === null || semver.compare(version, best.version) > 0) best = { tag, version };
  }
  return best?.tag ?? null;
}

export async function benchVersions(): Promise<Figure[]> {
  // Tags arrive as JSON from registries: flat strings, as in production.
  const tags = JSON.parse(JSON.stringify(buildRealisticTags(10_000))) as string[];
  const input = { running: "1.20.3-alpine", tags, policy: { track: "minor" as const } };

  for (let i = 0; i < 20; i++) selectNewest(input); // warm-up: let the JIT settle
  const selectRuns: number[] = [];
  for (let i = 0; i < 200; i++) selectRuns.push(time(() => selectNewest(input)));
  const selectMs = median(selectRuns);

  let sink = 0;
  for (let i = 0; i < 5; i++) for (const tag of tags) sink += parseTag(tag).numbers.length;
  const parseRuns: number[] = [];
  for (let i = 0; i < 50; i++) {
    parseRuns.push(time(() => {
      for (const tag of tags) sink += parseTag(tag).numbers.length;
    }));
  }
  const tagsPerSecond = tags.length / (median(parseRuns) / 1000);

  const movingInput = { running: "latest", tags };
  for (let i = 0; i < 20; i++) selectNewest(movingInput);
  const movingRuns: number[] = [];
  for (let i = 0; i < 200; i++) movingRuns.push(time(() => selectNewest(movingInput)));
  const movingMs = median(movingRuns);

  for (let i = 0; i < 5; i++) newestBySemver(tags);
  const semverRuns: number[] = [];
  for (let i = 0; i < 50; i++) semverRuns.push(time(() => newestBySemver(tags)));
  const semverMs = median(semverRuns);
  if (sink < 0) console.log(sink); // keep the parse loop observable

  return [
    {
      name: "versions.newest_10k_tags.median_ms",
      value: Number(selectMs.toFixed(3)),
      unit: "ms",
      target: "< 5 ms",
      pass: selectMs < 5,
      note: `selectNewest over ${tags.length} tags, median of ${selectRuns.length} runs`,
    },
    {
      name: "versions.parse.tags_per_second",
      value: Math.round(tagsPerSecond),
      unit: "tags/s",
      target: "> 1,000,000 tags/s",
      pass: tagsPerSecond > 1_000_000,
      note: `parseTag over ${tags.length} tags, median of ${parseRuns.length} runs`,
    },
    {
      name: "versions.newest_10k_tags_moving.median_ms",
      value: Number(movingMs.toFixed(3)),
      unit: "ms",
      target: "",
      pass: null,
      note: `selectNewest for the moving tag "latest" over the same tags, median of ${movingRuns.length} runs`,
    },
    {
      name: "versions.newest_10k_tags.vs_semver_ratio",
      value: Number((selectMs / semverMs).toFixed(2)),
      unit: "x",
      target: "",
      pass: null,
      note: `selectNewest ${selectMs.toFixed(2)} ms vs semver.coerce + semver.compare ${semverMs.toFixed(2)} ms on the same tags (semver picks "${newestBySemver(tags)}", ignoring flavours)`,
    },
  ];
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const f of await benchVersions()) {
    const verdict = f.pass === null ? "info" : f.pass ? "PASS" : "FAIL";
    console.log(`${verdict.padEnd(4)} ${f.name} = ${f.value} ${f.unit}${f.target ? ` (target ${f.target})` : ""}${f.note ? `  ${f.note}` : ""}`);
  }
}
