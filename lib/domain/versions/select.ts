// The newest upstream release for a running tag, and whether the policy alerts
// on it. `driftwatch tags newest` prints this result as it is.
import { invalid } from "@/lib/domain/errors";
import type { EffectivePolicy } from "@/lib/domain/policy";
import { compareParsed, hasVersion, isDateSerial, isRespinPair, isSameGroup, JUMP_RANK, jumpOf, type Jump } from "./compare";
import { compileTagFilter } from "./filter";
import { isInLine, isLongerVersionOf, newestInLine, newestOf, preferSemantic } from "./moving";
import { isBelowAt, makeLinePrefilter, REJECT, startsWithNumberAt } from "./prefilter";
import { parseTag, type ParsedTag } from "./parse";

export type NewestInput = { running: string; tags: readonly string[]; policy?: Partial<EffectivePolicy> | null };

export type NewestResult = {
  running: string;
  /** Newest release of the running line, null when none is newer; for a moving tag, the release it is compared with. */
  newest: string | null;
  /** running → newest; null for moving tags. */
  jump: Jump | null;
  /** Newest release the policy alerts on (within pin_major, at least the tracked jump); null for moving tags. */
  target: string | null;
  alert: boolean;
  /** Releases after running up to and including newest, ascending; [] for moving tags. */
  releases: string[];
};

function result(running: string, newest: ParsedTag | null): NewestResult {
  return { running, newest: newest?.raw ?? null, jump: null, target: null, alert: false, releases: [] };
}

/**
 * A bare major (`7`, `16-alpine`) moves when the repository has longer versions
 * of it; in a repository that only ever uses single numbers it is a version.
 */
function isBareMajor(p: ParsedTag): boolean {
  return p.kind === "version" && p.numbers.length === 1 && !p.isPrerelease;
}

/**
 * The release a moving tag is compared with, and whether a bare major moves at
 * all. Once a best candidate is known, tags whose numbers are below it are
 * skipped before parsing.
 */
function newestForMovingTag(
  running: ParsedTag,
  tags: readonly string[],
  admit: (p: ParsedTag) => boolean,
): { moves: boolean; newest: ParsedTag | null } {
  const prefilter = makeLinePrefilter(running, false);
  const major = running.kind === "version" ? (running.numbers[0] as number) : -1;
  let moves = running.kind !== "version";
  let best: ParsedTag | null = null;
  const rest: ParsedTag[] = [];
  // Registries list tags oldest-first or lexically; from the end, the best comes early and prunes the rest.
  for (let i = tags.length - 1; i >= 0; i--) {
    const raw = tags[i];
    if (typeof raw !== "string") continue;
    const at = prefilter(raw);
    if (at === REJECT) continue;
    if (best !== null && at >= 0 && isBelowAt(raw, at, best.numbers) && (moves || !startsWithNumberAt(raw, at, major))) continue;
    const c = parseTag(raw);
    if (!hasVersion(c)) continue;
    if (!moves && isLongerVersionOf(running, c)) moves = true;
    if (!admit(c) || !isInLine(running, c, false)) continue;
    if (c.kind === "version" && c.numbers.length > 1) {
      if (best === null || compareParsed(c, best) > 0) best = c;
    } else {
      rest.push(c); // only needed when the line has no multi-part semantic version at all
    }
  }
  return { moves, newest: best ?? newestInLine(running, rest) };
}

/**
 * A moving name's own line where releases carry the name as a flavour word
 * (`lts-jdk17` → `2.479.2-lts-jdk17`), as a flavour tag to look up; else null.
 */
export function namedLineOf(running: ParsedTag): ParsedTag | null {
  if (running.kind !== "moving" || running.isPrerelease || running.prefix !== "") return null;
  const name = running.raw.toLowerCase().split("-", 1)[0] ?? "";
  if (name === "" || name === "latest") return null;
  return { ...running, kind: "flavour", flavour: running.flavour === "" ? name : `${name}-${running.flavour}` };
}

const keepRaw = (prefilter: (raw: string) => number) => (raw: string) => prefilter(raw) !== REJECT;

/** Parses the tags that pass `keepRaw` (a cheap pre-check) and keeps the parsed ones that pass `keep`. */
function collect(tags: readonly string[], keepRaw: ((raw: string) => boolean) | null, keep: (p: ParsedTag) => boolean): ParsedTag[] {
  const out: ParsedTag[] = [];
  for (const tag of tags) {
    if (typeof tag !== "string" || (keepRaw !== null && !keepRaw(tag))) continue;
    const p = parseTag(tag);
    if (keep(p)) out.push(p);
  }
  return out;
}

/**
 * Picks the newest release for `running` among `tags`. Like with like unless
 * the policy has a tag_filter; prereleases only with policy.prerelease. Throws
 * AppError("invalid_input") for an invalid tag_filter.
 */
export function selectNewest(input: NewestInput): NewestResult {
  const policy = input.policy ?? {};
  const track = policy.track ?? "patch";
  const pinMajor = policy.pin_major;
  let filter: ((tag: string) => boolean) | null = null;
  if (policy.tag_filter !== undefined && policy.tag_filter !== null) {
    const compiled = compileTagFilter(policy.tag_filter);
    if (!compiled.ok) throw invalid("/tag_filter", compiled.error);
    filter = compiled.test;
  }

  const running = parseTag(input.running);
  if (running.kind === "hash" || running.kind === "signature" || running.kind === "unknown") {
    return result(input.running, null);
  }
  const includePrereleases = policy.prerelease === true;
  const admit = (p: ParsedTag) => hasVersion(p) && (includePrereleases || !p.isPrerelease) && (filter === null || filter(p.raw));

  // Without a filter a bare major (`7`, `20-alpine`) competes like with like with the other
  // bare majors of its flavour (`8`, `22-alpine`): its exact version is only known from a digest.
  if (running.kind === "moving" || running.kind === "flavour" || (filter !== null && isBareMajor(running))) {
    if (filter === null) {
      // Jenkins' `lts-jdk17` points at the `…-lts-jdk17` releases where its repository names them so.
      const named = namedLineOf(running);
      const namedNewest = named === null ? null : newestForMovingTag(named, input.tags, admit).newest;
      if (namedNewest !== null && named !== null && namedNewest.flavour === named.flavour) return result(input.running, namedNewest);
      const line = newestForMovingTag(running, input.tags, admit);
      if (line.moves && line.newest === null && running.kind === "moving") {
        // no plain release at all: `latest` may still name releases with a word prefix
        return result(input.running, newestInLine(running, collect(input.tags, null, admit), true));
      }
      if (line.moves) return result(input.running, line.newest);
    } else {
      const all = collect(input.tags, null, hasVersion);
      if (running.kind !== "version" || all.some((c) => isLongerVersionOf(running, c))) {
        // the filter decides what counts; the tag's own flavour line still wins where it has matches
        const pool = all.filter(admit);
        return result(input.running, newestInLine(running, pool) ?? newestOf(preferSemantic(pool)));
      }
    }
  }

  // A three-part line also reaches its four-part respins (and a respin the releases after it),
  // and a dated serial its `.1` respins: the part count alone does not separate them.
  const mayRespin = filter === null && running.kind === "version" && (running.numbers.length === 3 || running.numbers.length === 4);
  // A respin's three-part release is below it: a four-part running tag reads every tag of its line.
  const sameCount = !isDateSerial(running) && !(mayRespin && running.numbers.length === 4);
  const seen = new Set<string>();
  /** The line's three- and four-part releases seen, when four-part tags are in play. */
  const threes: ParsedTag[] = [];
  const fours: ParsedTag[] = [];
  const inGroup = (c: ParsedTag) => {
    if (filter !== null) return c.kind === running.kind;
    if (!isSameGroup(running, c) && !(mayRespin && isRespinPair(running, c))) return false;
    if (mayRespin && !c.isPrerelease) (c.numbers.length === 3 ? threes : fours).push(c);
    return true;
  };
  let newer = collect(
    input.tags,
    filter === null ? keepRaw(makeLinePrefilter(running, sameCount, mayRespin)) : null,
    (c) => inGroup(c) && admit(c) && compareParsed(c, running) > 0 && !seen.has(c.raw) && (seen.add(c.raw), true),
  );
  if (mayRespin && (fours.length > 0 || running.numbers.length === 4)) {
    // A four-part tag is a respin of the three-part release it extends, unless every three-part
    // tag has four-part versions: then the three-part ones are line tags (24.10.2 → 24.10.2.80).
    const baseOf = (p: ParsedTag) => p.numbers.slice(0, 3).join(".");
    const bases = new Set([...threes, ...(running.numbers.length === 3 ? [running] : [])].map(baseOf));
    const extended = new Set([...fours, ...(running.numbers.length === 4 ? [running] : [])].map(baseOf));
    const hasRespins = [...bases].some((b) => !extended.has(b));
    const isRespinOf = (four: ParsedTag) => hasRespins && bases.has(baseOf(four));
    newer = newer.filter((c) => c.numbers.length === running.numbers.length || isRespinOf(running.numbers.length === 3 ? c : running));
  }
  newer.sort(compareParsed);
  const newest = newer[newer.length - 1] ?? null;

  let target: ParsedTag | null = null;
  for (let i = newer.length - 1; i >= 0 && target === null; i--) {
    const c = newer[i] as ParsedTag;
    const jump = jumpOf(running, c);
    const withinPin = pinMajor === undefined || pinMajor === null || (c.numbers[0] ?? 0) <= pinMajor;
    if (withinPin && jump !== null && JUMP_RANK[jump] >= JUMP_RANK[track]) target = c;
  }

  return {
    running: input.running,
    newest: newest?.raw ?? null,
    jump: newest === null ? null : jumpOf(running, newest),
    target: target?.raw ?? null,
    alert: target !== null,
    releases: newer.map((c) => c.raw),
  };
}
