// Cheap checks on raw tag text that let selection skip parsing tags that
// cannot matter. Each check is a necessary condition for what the full parse
// would decide, never a substitute for it.
import type { ParsedTag } from "./parse";
import { isDigit } from "./scan";

/** The tag cannot be in the line. */
export const REJECT = -1;
/** The tag may be in the line; where its version starts is not known. */
export const UNKNOWN_START = -2;

function startsWithLower(raw: string, prefix: string): boolean {
  if (raw.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) {
    const c = raw.charCodeAt(i);
    if ((c >= 65 && c <= 90 ? c + 32 : c) !== prefix.charCodeAt(i)) return false;
  }
  return true;
}

/**
 * For a tag to be in the running tag's line it needs the same prefix and a
 * digit where the version starts (for `latest`-like names: a plain version
 * start) and every flavour word somewhere in the tag; with `sameCount`, also
 * the same count of numeric parts and numbers not below the running tag's (only
 * newer tags are wanted then). Returns REJECT, UNKNOWN_START or where the version starts.
 */
export function makeLinePrefilter(running: ParsedTag, sameCount: boolean, oneMorePart = false): (raw: string) => number {
  const words = running.flavour === "" ? [] : running.flavour.split("-");
  const hasWords = (raw: string) => {
    for (const w of words) {
      if (!raw.includes(w) && !raw.toLowerCase().includes(w)) return false;
    }
    return true;
  };
  // `alpine` is carried as a suffix (1.2.3-alpine) or as a prefix (alpine-1.2.3)
  if (running.kind === "flavour") {
    return (raw) => {
      if (!hasWords(raw)) return REJECT;
      const c0 = raw.charCodeAt(0);
      if (isDigit(c0)) return 0;
      return (c0 === 118 || c0 === 86) && isDigit(raw.charCodeAt(1)) ? 1 : UNKNOWN_START;
    };
  }
  const prefixes = running.kind === "moving" ? [running.prefix, `${running.prefix}v`] : [running.prefix];
  const count = sameCount && running.kind === "version" ? running.numbers.length : -1;
  const floor = running.numbers;
  return (raw) => {
    let start = REJECT;
    for (const prefix of prefixes) {
      if (start === REJECT && startsWithLower(raw, prefix) && isDigit(raw.charCodeAt(prefix.length))) start = prefix.length;
    }
    if (start === REJECT) return REJECT;
    if (count > 0) {
      let p = start;
      let runs = 0;
      let isAbove = false;
      let lastUnderscore = false;
      for (;;) {
        let value = 0;
        while (isDigit(raw.charCodeAt(p))) value = value * 10 + (raw.charCodeAt(p++) - 48);
        if (!isAbove && runs < count) {
          const own = floor[runs] as number;
          if (value < own) return REJECT;
          isAbove = value > own;
        }
        runs++;
        const sep = raw.charCodeAt(p);
        // Java's `8u432` (8.0.432): the parser decides
        if (sep === 117 && runs === 1 && isDigit(raw.charCodeAt(p + 1))) return hasWords(raw) ? start : REJECT;
        if ((sep === 46 || sep === 95) && isDigit(raw.charCodeAt(p + 1))) {
          lastUnderscore = sep === 95;
          p++;
        } else break;
      }
      // Java's `17.0.9_9` has a build after its version; `oneMorePart`: a respin's fourth part.
      const parts = lastUnderscore ? runs - 1 : runs;
      if (runs !== count && parts !== count && !(oneMorePart && (runs === count + 1 || parts === count + 1))) return REJECT;
    }
    return hasWords(raw) ? start : REJECT;
  };
}

/** Are the numeric parts starting at `at` below `numbers` (missing parts count as 0)? */
export function isBelowAt(raw: string, at: number, numbers: readonly number[]): boolean {
  let p = at;
  for (let i = 0; ; i++) {
    let value = 0;
    let digits = 0;
    while (isDigit(raw.charCodeAt(p))) {
      value = value * 10 + (raw.charCodeAt(p++) - 48);
      digits++;
    }
    if (digits > 15) return false; // not a number the parser would read; let it decide
    const own = numbers[i] ?? 0;
    if (value !== own) return value < own;
    const sep = raw.charCodeAt(p);
    if ((sep === 46 || sep === 95) && isDigit(raw.charCodeAt(p + 1))) p++;
    else {
      // the tag has no more parts: below only if the rest of `numbers` is not all zeros
      for (let j = i + 1; j < numbers.length; j++) if ((numbers[j] as number) > 0) return true;
      return false;
    }
  }
}

/** Does the version starting at `at` begin with the number `major`? */
export function startsWithNumberAt(raw: string, at: number, major: number): boolean {
  let p = at;
  let value = 0;
  while (isDigit(raw.charCodeAt(p))) value = value * 10 + (raw.charCodeAt(p++) - 48);
  return p > at && value === major;
}
