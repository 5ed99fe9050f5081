// Low-level scanning for parse.ts. Tokens are index ranges [a, b) of one
// string, so the hot path compares characters in place instead of slicing
// every '-' token into a new string: parsing runs over every tag of a repository.

export const MAX_DIGITS = 15; // longer digit runs lose precision as numbers: ids, not versions

export const isDigit = (c: number) => c >= 48 && c <= 57;
export const isLower = (c: number) => c >= 97 && c <= 122;
const isHexLetter = (c: number) => c >= 97 && c <= 102;

/** Word lists indexed by length, for in-place comparison. */
export type WordTable = readonly (readonly string[] | undefined)[];

export function byLength(words: readonly string[]): WordTable {
  const table: string[][] = [];
  for (const w of words) (table[w.length] ??= []).push(w);
  return table;
}

export function isWordAt(s: string, a: number, b: number, table: WordTable): boolean {
  const list = table[b - a];
  if (list === undefined) return false;
  for (const w of list) {
    let k = 0;
    while (a + k < b && s.charCodeAt(a + k) === w.charCodeAt(k)) k++;
    if (a + k === b) return true;
  }
  return false;
}

export function allDigits(s: string, a: number, b: number): boolean {
  if (a >= b) return false;
  for (let i = a; i < b; i++) if (!isDigit(s.charCodeAt(i))) return false;
  return true;
}

export function allHex(s: string, a: number, b: number): boolean {
  for (let i = a; i < b; i++) {
    const c = s.charCodeAt(i);
    if (!isDigit(c) && !isHexLetter(c)) return false;
  }
  return true;
}

/** A commit or digest id: 7+ hex characters mixing letters and digits (`e3ea8b8a6`, `abc1234`). */
export function isHexId(s: string, a: number, b: number): boolean {
  if (b - a < 7 || b - a > 64) return false;
  let letters = false;
  let digits = false;
  for (let i = a; i < b; i++) {
    const c = s.charCodeAt(i);
    if (isDigit(c)) digits = true;
    else if (isHexLetter(c)) letters = true;
    else return false;
  }
  return letters && digits;
}

/** Jenkins' commit part (`92c105e0f819`, `9c670a_4748a_9`): hex with underscores, at least 7 hex characters. */
export function isCommitAt(s: string, a: number, b: number): boolean {
  let hex = 0;
  for (let i = a; i < b; i++) {
    const c = s.charCodeAt(i);
    if (isDigit(c) || isHexLetter(c)) hex++;
    else if (c !== 95) return false;
  }
  return hex >= 7 && hex <= 40;
}

/** `3.20`, `22.04`: digits with at least one dot, nothing else. */
export function isDottedNumber(s: string, a: number, b: number): boolean {
  let dots = 0;
  let prevDot = true;
  for (let i = a; i < b; i++) {
    const c = s.charCodeAt(i);
    if (c === 46) {
      if (prevDot) return false;
      dots++;
      prevDot = true;
    } else if (isDigit(c)) prevDot = false;
    else return false;
  }
  return dots > 0 && !prevDot;
}

/** Value of an all-digit range, or -1 when it is too long to be exact. */
export function numberAt(s: string, a: number, b: number): number {
  if (b - a > MAX_DIGITS) return -1;
  let n = 0;
  for (let i = a; i < b; i++) n = n * 10 + (s.charCodeAt(i) - 48);
  return n;
}

export function pushNumbers(s: string, a: number, b: number, into: number[]): void {
  let n = 0;
  let any = false;
  for (let i = a; i < b; i++) {
    const c = s.charCodeAt(i);
    if (isDigit(c)) {
      n = n * 10 + (c - 48);
      any = true;
    } else {
      if (any) into.push(n);
      n = 0;
      any = false;
    }
  }
  if (any) into.push(n);
}

/** `rc`, `rc2`, `rc.2`, `beta1`, `preview.7`: a prerelease word with an optional number. */
export function isPrereleaseAt(s: string, a: number, b: number, table: WordTable): boolean {
  let i = a;
  while (i < b && isLower(s.charCodeAt(i))) i++;
  if (i === a || !isWordAt(s, a, i, table)) return false;
  if (i === b) return !(b - a === 1 && s.charCodeAt(a) === 109); // a bare "m" is a word, "m02" a milestone
  const c = s.charCodeAt(i);
  const from = c === 46 || c === 95 ? i + 1 : i;
  return isDottedNumber(s, from, b) || allDigits(s, from, b);
}

/** `r4`, `ls45` → the number; else -1. */
export function revisionAt(s: string, a: number, b: number): number {
  let from: number;
  if (s.charCodeAt(a) === 114 /* r */) from = a + 1;
  else if (s.charCodeAt(a) === 108 /* l */ && s.charCodeAt(a + 1) === 115 /* s */) from = a + 2;
  else return -1;
  return allDigits(s, from, b) ? numberAt(s, from, b) : -1;
}

/** End of the '-' token starting at `a` (exclusive), within [a, end). */
export function tokenEnd(s: string, a: number, end: number): number {
  const j = s.indexOf("-", a);
  return j < 0 || j > end ? end : j;
}
