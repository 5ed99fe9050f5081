// Ordering of parsed tags. Tags compete only like with like (same kind,
// prefix, flavour and count of numeric parts); `compareParsed` also orders
// tags across groups for the cases where a tag_filter replaces that rule.
import { parseTag, type ParsedTag } from "./parse";

export type Jump = "major" | "minor" | "patch";

export const JUMP_RANK: Readonly<Record<Jump, number>> = { patch: 0, minor: 1, major: 2 };

/** Tags with a version of their own: exact or partial semantic versions and date versions. */
export function hasVersion(p: ParsedTag): boolean {
  return p.kind === "version" || p.kind === "date";
}

/**
 * A dated serial (`20240911`, `jammy-20240911.1`): a respin adds a part (`.1`)
 * without leaving the serial's line.
 */
export function isDateSerial(p: ParsedTag): boolean {
  return p.kind === "date" && (p.numbers[0] ?? 0) >= 10_000_000;
}

/** How many numeric parts a tag's group is keyed by; every dated serial counts as one. */
const partsKey = (p: ParsedTag) => (isDateSerial(p) ? 0 : p.numbers.length);

/** Group key of a parsed tag; null for tags without a version. */
export function likeKeyOf(p: ParsedTag): string | null {
  if (!hasVersion(p)) return null;
  return `${p.kind}|${p.prefix}|${partsKey(p)}|${p.flavour}|${p.flavourVersion.length > 0 ? "fv" : ""}|${p.scheme}`;
}

/** Tags with equal keys compete with each other; null for names, ids and signatures. */
export function likeGroupKey(tag: string): string | null {
  return likeKeyOf(parseTag(tag));
}

/** Same as comparing likeKeyOf results, without building strings (hot path). */
export function isSameGroup(a: ParsedTag, b: ParsedTag): boolean {
  return (
    hasVersion(a) &&
    a.kind === b.kind &&
    (a.numbers.length === b.numbers.length || (isDateSerial(a) && isDateSerial(b))) &&
    a.prefix === b.prefix &&
    a.flavour === b.flavour &&
    (a.flavourVersion.length > 0) === (b.flavourVersion.length > 0) &&
    a.scheme === b.scheme
  );
}

/**
 * `b` is a four-part respin of three-part `a`'s line or the reverse (`17.0.8` →
 * `17.0.8.1` → `17.0.9`): same group but for one more part. Whether it is a
 * respin (its three-part release exists) is the caller's to check.
 */
export function isRespinPair(a: ParsedTag, b: ParsedTag): boolean {
  const n = a.numbers.length;
  const m = b.numbers.length;
  if (a.kind !== "version" || b.kind !== "version" || !((n === 3 && m === 4) || (n === 4 && m === 3))) return false;
  return a.prefix === b.prefix && a.flavour === b.flavour && (a.flavourVersion.length > 0) === (b.flavourVersion.length > 0) && a.scheme === b.scheme;
}

// dev/nightly builds < alpha/milestone < beta < preview < rc, as PEP 440 and semver tools order them.
const PRERELEASE_RANK: Readonly<Record<string, number>> = {
  a: 1, alpha: 1, m: 1, b: 2, beta: 2, pre: 3, preview: 3, c: 4, rc: 4,
};

function prereleaseParts(text: string): (string | number)[] {
  const parts: (string | number)[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      let n = 0;
      while (i < text.length && text.charCodeAt(i) >= 48 && text.charCodeAt(i) <= 57) {
        n = n * 10 + (text.charCodeAt(i) - 48);
        i++;
      }
      parts.push(n);
    } else if (c === 46 || c === 45 || c === 95) {
      i++;
    } else {
      const start = i;
      while (i < text.length) {
        const d = text.charCodeAt(i);
        if ((d >= 48 && d <= 57) || d === 46 || d === 45 || d === 95) break;
        i++;
      }
      parts.push(text.slice(start, i));
    }
  }
  return parts;
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Orders two prerelease labels: `b1` < `rc1` < `rc.2`. */
export function comparePrerelease(a: string, b: string): number {
  const pa = prereleaseParts(a);
  const pb = prereleaseParts(b);
  const n = Math.max(pa.length, pb.length);
  for (let i = 0; i < n; i++) {
    const x = pa[i];
    const y = pb[i];
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    if (typeof x === "number" && typeof y === "number") {
      if (x !== y) return x - y;
    } else if (typeof x === "string" && typeof y === "string") {
      const rank = (PRERELEASE_RANK[x] ?? 0) - (PRERELEASE_RANK[y] ?? 0);
      if (rank !== 0) return rank;
      const text = compareText(x, y);
      if (text !== 0) return text;
    } else {
      return typeof x === "number" ? -1 : 1;
    }
  }
  return 0;
}

function compareNumbers(a: readonly number[], b: readonly number[]): number {
  const n = Math.max(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

function compareLists(a: readonly number[], b: readonly number[]): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const d = (a[i] as number) - (b[i] as number);
    if (d !== 0) return d;
  }
  return a.length - b.length;
}

/**
 * Total order over version tags: the version first (missing parts are 0), then
 * release above prerelease, then the version inside the flavour, then the
 * revision, then more parts, then the raw text so that only equal tags tie.
 */
export function compareParsed(a: ParsedTag, b: ParsedTag): number {
  const byNumbers = compareNumbers(a.numbers, b.numbers);
  if (byNumbers !== 0) return Math.sign(byNumbers);
  if (a.prerelease !== b.prerelease) {
    if (a.prerelease === null) return 1;
    if (b.prerelease === null) return -1;
    const byPre = comparePrerelease(a.prerelease, b.prerelease);
    if (byPre !== 0) return Math.sign(byPre);
  }
  const byFlavourVersion = compareLists(a.flavourVersion, b.flavourVersion);
  if (byFlavourVersion !== 0) return Math.sign(byFlavourVersion);
  const byRevision = (a.revision ?? -1) - (b.revision ?? -1);
  if (byRevision !== 0) return Math.sign(byRevision);
  if (a.numbers.length !== b.numbers.length) return Math.sign(a.numbers.length - b.numbers.length);
  return compareText(a.raw, b.raw);
}

/** null when the tags are not like with like; else negative, 0 (same tag) or positive. */
export function compareTags(a: string, b: string): number | null {
  const pa = parseTag(a);
  const pb = parseTag(b);
  return isSameGroup(pa, pb) ? compareParsed(pa, pb) : null;
}

/** `20241015` → [2024, 10, 15]: a compact date jumps by year, month and day like `2024.10.15`. */
function jumpParts(p: ParsedTag): readonly number[] {
  const first = p.numbers[0] ?? 0;
  if (p.kind !== "date" || first < 10_000_000) return p.numbers;
  const digits = String(first);
  const parts = [Number(digits.slice(0, 4)), Number(digits.slice(4, 6)), Number(digits.slice(6, 8))];
  if (digits.length > 8) parts.push(Number(digits.slice(8)));
  return parts.concat(p.numbers.slice(1));
}

/** The size of the step from one version to a newer one; null when `to` is not newer or either has no version. */
export function jumpOf(from: ParsedTag, to: ParsedTag): Jump | null {
  if (!hasVersion(from) || from.kind !== to.kind || compareParsed(to, from) <= 0) return null;
  const a = jumpParts(from);
  const b = jumpParts(to);
  const n = Math.max(a.length, b.length);
  for (let i = 0; i < n; i++) {
    if ((a[i] ?? 0) !== (b[i] ?? 0)) return i === 0 ? "major" : i === 1 ? "minor" : "patch";
  }
  // Same version, newer build (prerelease → release, new base image, new revision).
  return "patch";
}

export function jumpBetween(from: string, to: string): Jump | null {
  return jumpOf(parseTag(from), parseTag(to));
}
