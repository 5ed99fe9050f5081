// What the '-' tokens after a version (or all tokens of a name) say: flavour
// words, the version inside a flavour word, prerelease, revision and build.
import {
  allDigits, byLength, isDigit, isDottedNumber, isHexId, isPrereleaseAt, isWordAt, MAX_DIGITS, numberAt,
  pushNumbers, revisionAt, tokenEnd,
} from "./scan";

/** Prerelease words standing as their own token (`-rc.2`, `-beta`, `-testing`). */
const PRERELEASE_WORDS = byLength([
  "alpha", "beta", "rc", "pre", "preview", "dev", "nightly", "canary", "snapshot", "testing",
  "unstable", "insiders", "experimental", "next", "ea", "edge", "m",
]);

/**
 * Runtimes whose version inside a flavour word names a line of its own: `php8.2`
 * and `php8.3` images of one release are published side by side, never one
 * replacing the other. Operating-system bases (`alpine3.20`) float instead.
 */
const RUNTIME_WORDS = byLength([
  "php", "python", "py", "node", "nodejs", "ruby", "go", "golang", "java", "jdk", "jre", "openjdk", "dotnet",
  "perl", "erlang", "otp", "elixir", "rust", "pg", "postgres", "postgresql", "lua", "cuda", "scala",
]);

/** Words that, followed by a number, count rebuilds of one version (`-security-01`). */
const REVISION_WORDS = byLength(["security", "hotfix"]);

const enum Prev {
  Core,
  Word,
  Pre,
  Other,
}

/** What the tokens after the version (or all tokens of a name) say. */
export class Suffix {
  private flavStart = -1;
  private flavEnd = -1;
  private parts: string[] | null = null;
  flavourVersion: number[] = [];
  prerelease: string | null = null;
  revision: number | null = null;
  build: string | null = null;
  /** `ls` once a linuxserver build counter was read. */
  scheme = "";
  hasHexId = false;
  private prev: Prev;

  /** `afterVersion`: the tokens follow a version, so a bare number there is a revision (`26.0.5-0`). */
  constructor(
    private readonly s: string,
    afterVersion: boolean,
  ) {
    this.prev = afterVersion ? Prev.Core : Prev.Other;
  }

  flavour(): string {
    if (this.parts !== null) return this.parts.join("-");
    return this.flavStart < 0 ? "" : this.s.slice(this.flavStart, this.flavEnd);
  }

  hasFlavour(): boolean {
    return this.flavStart >= 0 || this.parts !== null;
  }

  /** A build number the version itself carried (`_11`, `-b06`). */
  setRevision(n: number): void {
    this.revision = n;
    this.prev = Prev.Other;
  }

  addBuild(text: string): void {
    this.build = this.build === null ? text : `${this.build}.${text}`;
    this.prev = Prev.Other;
  }

  addPrerelease(text: string): void {
    this.prerelease = this.prerelease === null ? text : `${this.prerelease}.${text}`;
    this.prev = Prev.Pre;
  }

  /** Flavour words that follow each other in the tag stay one slice: `alpine-perl`. */
  private addFlavourRange(a: number, b: number): void {
    if (this.parts === null) {
      if (this.flavStart < 0) {
        this.flavStart = a;
        this.flavEnd = b;
        return;
      }
      if (this.flavEnd === a - 1) {
        this.flavEnd = b;
        return;
      }
      this.parts = [this.s.slice(this.flavStart, this.flavEnd)];
    }
    this.parts.push(this.s.slice(a, b));
  }

  /** A flavour word; a dotted version glued to its end (`alpine3.20`) is kept apart. */
  addWord(a: number, b: number): void {
    const s = this.s;
    let j = b;
    while (j > a) {
      const c = s.charCodeAt(j - 1);
      if (isDigit(c) || c === 46) j--;
      else break;
    }
    if (j > a && j < b && isDottedNumber(s, j, b) && !isWordAt(s, a, j, RUNTIME_WORDS)) {
      this.addFlavourRange(a, j);
      pushNumbers(s, j, b, this.flavourVersion);
    } else {
      this.addFlavourRange(a, b);
    }
    this.prev = Prev.Word;
  }

  /** Adds token [a, b); [c, d) is the next one (c < 0: none). Returns true when it used the next token too. */
  add(a: number, b: number, c: number, d: number): boolean {
    const s = this.s;
    if (isDigit(s.charCodeAt(a))) {
      if (allDigits(s, a, b)) {
        if (this.prev === Prev.Word) this.addFlavourRange(a, b); // debian-12, nanoserver-1809
        else if (this.prev === Prev.Pre) this.addPrerelease(s.slice(a, b));
        else if (this.prev === Prev.Core && this.revision === null && b - a <= MAX_DIGITS) {
          this.revision = numberAt(s, a, b); // 26.0.5-0, 1.2.3-1
          this.prev = Prev.Other;
        } else this.addBuild(s.slice(a, b));
        return false;
      }
      if (isDottedNumber(s, a, b)) {
        if (this.prev === Prev.Word) pushNumbers(s, a, b, this.flavourVersion); // alpine-3.20
        else this.addBuild(s.slice(a, b));
        return false;
      }
    }
    if (isHexId(s, a, b)) {
      this.hasHexId = true;
      this.addBuild(s.slice(a, b));
      return false;
    }
    const rev = revisionAt(s, a, b);
    if (rev >= 0) {
      // linuxserver's `-r1-ls282`: the later counter is the one that always grows
      if (this.revision !== null) this.addBuild(String(this.revision));
      this.revision = rev;
      if (s.charCodeAt(a) === 108 /* l */) this.scheme = "ls";
      this.prev = Prev.Other;
      return false;
    }
    if (c >= 0 && allDigits(s, c, d) && d - c <= MAX_DIGITS && isWordAt(s, a, b, REVISION_WORDS)) {
      this.revision = numberAt(s, c, d);
      this.prev = Prev.Other;
      return true;
    }
    if (isPrereleaseAt(s, a, b, PRERELEASE_WORDS)) {
      this.addPrerelease(s.slice(a, b));
      return false;
    }
    this.addWord(a, b);
    return false;
  }

  /** Feeds the '-' tokens of [from, end). */
  addAll(from: number, end: number): void {
    let a = from;
    while (a < end) {
      const b = tokenEnd(this.s, a, end);
      const c = b < end ? b + 1 : -1;
      const d = c < 0 ? -1 : tokenEnd(this.s, c, end);
      a = this.add(a, b, c, d) ? d + 1 : b + 1;
    }
  }
}
