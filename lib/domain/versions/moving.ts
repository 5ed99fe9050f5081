// Moving tags (`latest`, `alpine`, `7`, `1.27-alpine`): which exact versions
// they could be (for digest resolution) and which release they are compared with.
import { compareParsed, hasVersion } from "./compare";
import { parseTag, type ParsedTag } from "./parse";

function sameList(a: readonly number[], b: readonly number[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function startsWith(list: readonly number[], head: readonly number[]): boolean {
  if (list.length < head.length) return false;
  for (let i = 0; i < head.length; i++) if (list[i] !== head[i]) return false;
  return true;
}

const isPlainPrefix = (prefix: string) => prefix === "" || prefix === "v";

/** `latest` → "" or "v"; `amd64-latest` → "amd64-" or "amd64-v". */
const isPrefixOfName = (name: ParsedTag, c: ParsedTag) => c.prefix === name.prefix || c.prefix === `${name.prefix}v`;

/** A flavour carried as a prefix: `jammy-20240911.1` carries `jammy`. */
function prefixFlavour(prefix: string): string {
  const last = prefix.charCodeAt(prefix.length - 1);
  return last === 45 || last === 95 || last === 46 ? prefix.slice(0, -1) : prefix;
}

/**
 * Does `c` belong to the line of moving tag `r`? `strictBase` (digest
 * resolution) also requires the same version inside the flavour: `16-alpine3.20`
 * can only be a `…-alpine3.20` (or an unversioned `…-alpine`) image. `anyPrefix`
 * lets `latest` reach releases that all carry a word prefix (MinIO's `RELEASE.`).
 */
export function isInLine(r: ParsedTag, c: ParsedTag, strictBase: boolean, anyPrefix = false): boolean {
  if (!hasVersion(c)) return false;
  let sameFlavour: boolean;
  if (r.kind === "flavour") {
    sameFlavour = c.flavour === r.flavour || (c.flavour === "" && c.prefix.length > 1 && prefixFlavour(c.prefix) === r.flavour);
    if (c.flavour === r.flavour && !isPlainPrefix(c.prefix)) return false;
  } else if (r.kind === "moving") {
    sameFlavour = c.flavour === r.flavour && (anyPrefix || isPrefixOfName(r, c));
  } else {
    sameFlavour = c.kind === r.kind && c.flavour === r.flavour && c.prefix === r.prefix;
  }
  if (!sameFlavour) return false;
  const rHas = r.flavourVersion.length > 0;
  const cHas = c.flavourVersion.length > 0;
  if (!strictBase) return rHas === cHas || (r.kind === "flavour" && c.flavour === "");
  if (!rHas) return !cHas;
  return !cHas || sameList(r.flavourVersion, c.flavourVersion);
}

/** Full versions only: drop `1.27` when `1.27.3` of the same shape is there too. */
function keepLeaves(tags: ParsedTag[]): ParsedTag[] {
  const shape = (p: ParsedTag, n: number) =>
    `${p.kind}|${p.prefix}|${p.flavour}|${p.flavourVersion.join(".")}|${p.numbers.slice(0, n).join(".")}`;
  const extended = new Set<string>();
  for (const p of tags) for (let n = 1; n < p.numbers.length; n++) extended.add(shape(p, n));
  return tags.filter((p) => !extended.has(shape(p, p.numbers.length)));
}

/** Prefer semantic versions over date versions: they never compete with each other. */
export function preferSemantic(tags: ParsedTag[]): ParsedTag[] {
  const semantic = tags.filter((p) => p.kind === "version");
  return semantic.length > 0 ? semantic : tags;
}

/** Could `c` be what bare or partial version `r` currently points at? `1` → 1.27.3, `8.0.39` → 8.0.39-r4. */
export function isLongerVersionOf(r: ParsedTag, c: ParsedTag): boolean {
  return (
    !c.isPrerelease &&
    isInLine(r, c, true) &&
    ((c.numbers.length > r.numbers.length && startsWith(c.numbers, r.numbers)) ||
      (r.revision === null && c.revision !== null && sameList(c.numbers, r.numbers)))
  );
}

function candidatesOf(r: ParsedTag, parsed: readonly ParsedTag[]): ParsedTag[] {
  if (r.kind === "version" || r.kind === "date") return parsed.filter((c) => isLongerVersionOf(r, c));
  if (r.kind === "moving" || r.kind === "flavour") {
    const line = parsed.filter((c) => !c.isPrerelease && isInLine(r, c, true));
    return preferSemantic(line.length > 0 || r.kind === "flavour" ? line : parsed.filter((c) => !c.isPrerelease && isInLine(r, c, true, true)));
  }
  return [];
}

/**
 * Exact version tags a moving tag could currently be, newest first, prereleases
 * excluded: `1` → 1.x.y, `1.27-alpine` → 1.27.x-alpine, `latest` → plain
 * releases, `alpine` → x.y.z-alpine. The caller checks digests in this order.
 */
export function movingTagCandidates(running: string, tags: readonly string[]): string[] {
  return movingCandidatesParsed(parseTag(running), tags.map(parseTag)).map((p) => p.raw);
}

function movingCandidatesParsed(r: ParsedTag, parsed: readonly ParsedTag[]): ParsedTag[] {
  const seen = new Set<string>([r.raw]);
  const unique = candidatesOf(r, parsed).filter((p) => !seen.has(p.raw) && (seen.add(p.raw), true));
  return keepLeaves(unique).sort((a, b) => compareParsed(b, a));
}

/**
 * The newest release a moving or flavour tag is compared with: the newest full
 * version of its flavour line (`latest` → newest plain release, `alpine` →
 * newest x.y.z-alpine, `7` → newest plain release). Single-number versions
 * (`1809`) only count when the line has nothing longer.
 */
export function newestInLine(r: ParsedTag, candidates: readonly ParsedTag[], anyPrefix = false): ParsedTag | null {
  let pool = preferSemantic(candidates.filter((c) => isInLine(r, c, false, anyPrefix)));
  if (pool.some((c) => c.numbers.length > 1)) pool = pool.filter((c) => c.numbers.length > 1);
  return newestOf(pool);
}

export function newestOf(pool: readonly ParsedTag[]): ParsedTag | null {
  let best: ParsedTag | null = null;
  for (const c of pool) if (best === null || compareParsed(c, best) > 0) best = c;
  return best;
}
