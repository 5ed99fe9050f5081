// Container image tags → structured parts. A hand-written scanner over '-'
// tokens instead of one big regular expression: it runs over every tag of a
// repository on each check, must never throw, and stays linear in the tag length.
import {
  allDigits, allHex, byLength, isCommitAt, isDigit, isHexId, isLower, isPrereleaseAt, isWordAt, MAX_DIGITS, numberAt,
  pushNumbers, tokenEnd,
} from "./scan";
import { Suffix } from "./suffix";

export type TagKind = "version" | "date" | "flavour" | "moving" | "hash" | "signature" | "unknown";

export type ParsedTag = {
  raw: string;
  kind: TagKind;
  /** Text before the version (or before a moving name: `amd64-latest`), lower-cased: "" | "v" | "python-" | "amd64-" … */
  prefix: string;
  numbers: number[];
  prerelease: string | null;
  isPrerelease: boolean;
  /** Normalised flavour identity, lower-cased, versions inside words removed: "alpine" for alpine3.20. */
  flavour: string;
  /** Versions found inside flavour words, in order: alpine3.20 → [3, 20]. */
  flavourVersion: number[];
  /** Rebuild counter of one version: Bitnami -r4, linuxserver -ls45, Grafana -security-01. */
  revision: number | null;
  /** Metadata that never orders tags: +build, commit ids inside version tags. */
  build: string | null;
  /** A publisher's build-counter scheme (`ls` for linuxserver's `-ls363`): such a line never competes with plain tags. */
  scheme: string;
};

// Docker's own limit; anything longer is not a tag and not worth scanning.
const MAX_TAG_LENGTH = 128;

/** Names that point at whatever is current in some line. */
const MOVING_NAMES = byLength([
  "latest", "stable", "edge", "mainline", "lts", "current", "nightly", "main", "master", "develop",
  "development", "dev", "canary", "next", "beta", "alpha", "rc", "preview", "insiders", "testing",
  "unstable", "sid", "rolling", "release", "innovation", "snapshot", "experimental", "tip", "head",
]);

/** Moving names whose builds are not releases. */
const UNSTABLE_NAMES = byLength([
  "edge", "nightly", "main", "master", "develop", "development", "dev", "canary", "next", "beta",
  "alpha", "rc", "preview", "insiders", "testing", "unstable", "sid", "snapshot", "experimental",
  "tip", "head",
]);

/** Prerelease words glued to the version (`3.8.0b1`, `1.24rc1`, `3.14.0a1`). */
const GLUED_PRERELEASE = byLength(["a", "b", "c", "rc", "alpha", "beta", "pre", "preview", "dev", "m"]);

const HASH_PREFIXES = byLength(["sha", "sha1", "sha256", "sha512", "git", "commit"]);

/** Architecture prefixes of per-platform tags (linuxserver's `amd64-latest`, `arm64v8-1.2.3-ls4`). */
const ARCH_PREFIXES = byLength([
  "amd64", "arm64", "arm64v8", "arm32v7", "arm32v6", "arm32v5", "armhf", "armv7", "aarch64", "x86_64",
  "i386", "ppc64le", "s390x", "riscv64", "mips64le",
]);

function unknown(raw: string): ParsedTag {
  return {
    raw, kind: "unknown", prefix: "", numbers: [], prerelease: null, isPrerelease: false,
    flavour: "", flavourVersion: [], revision: null, build: null, scheme: "",
  };
}

function bare(raw: string, kind: TagKind): ParsedTag {
  const p = unknown(raw);
  p.kind = kind;
  return p;
}

function finish(raw: string, kind: TagKind, prefix: string, numbers: number[], gluedPre: string | null, suffix: Suffix, build: string | null): ParsedTag {
  const prerelease = gluedPre !== null && suffix.prerelease !== null ? `${gluedPre}.${suffix.prerelease}` : (gluedPre ?? suffix.prerelease);
  const ownBuild = suffix.build;
  return {
    raw,
    kind,
    prefix,
    numbers,
    prerelease,
    isPrerelease: prerelease !== null,
    flavour: suffix.flavour(),
    flavourVersion: suffix.flavourVersion,
    revision: suffix.revision,
    build: build === null ? ownBuild : ownBuild === null ? build : `${ownBuild}+${build}`,
    scheme: suffix.scheme,
  };
}

const isValidYmd = (y: number, m: number, d: number) => y >= 1990 && y <= 2100 && m >= 1 && m <= 12 && d >= 1 && d <= 31;
const isYear = (n: number) => n >= 1990 && n <= 2100;

function isYmdAt(s: string, a: number): boolean {
  return isValidYmd(numberAt(s, a, a + 4), numberAt(s, a + 4, a + 6), numberAt(s, a + 6, a + 8));
}

function isSignature(s: string): boolean {
  if (!(s.startsWith("sha256-") || s.startsWith("sha512-"))) return false;
  const dot = s.lastIndexOf(".");
  const ext = s.slice(dot);
  return (ext === ".sig" || ext === ".att" || ext === ".sbom") && dot - 7 >= 32 && allHex(s, 7, dot);
}

/** MinIO's `RELEASE.2024-11-07T00-52-20Z[.fips]`: a timestamp that '-' tokens would split apart. */
function parseReleaseStamp(raw: string, s: string): ParsedTag | null {
  const dot = s.indexOf(".");
  if (dot <= 0 || s.length < dot + 21 || s.charCodeAt(dot + 11) !== 116 /* t */ || s.charCodeAt(dot + 20) !== 122 /* z */) return null;
  for (let i = 0; i < dot; i++) if (!isLower(s.charCodeAt(i))) return null;
  for (let i = 0; i < 19; i++) {
    const c = s.charCodeAt(dot + 1 + i);
    const sep = i === 4 || i === 7 || i === 13 || i === 16 ? 45 : i === 10 ? 116 : -1;
    if (sep >= 0 ? c !== sep : !isDigit(c)) return null;
  }
  const numbers: number[] = [];
  pushNumbers(s, dot + 1, dot + 20, numbers);
  if (!isValidYmd(numbers[0] ?? 0, numbers[1] ?? 0, numbers[2] ?? 0)) return null;
  // `.fips`: the rest is read like any suffix, with '.' as a separator too
  const rest = s.slice(dot + 21).replaceAll(".", "-");
  if (rest.length > 0 && (rest.charCodeAt(0) !== 45 || rest.length === 1 || rest.includes("--") || rest.endsWith("-"))) return null;
  const suffix = new Suffix(rest, false);
  suffix.addAll(1, rest.length);
  return finish(raw, "date", s.slice(0, dot + 1), numbers, null, suffix, null);
}

/** A tag without a version: a moving name (`latest`, `stable-alpine`), a flavour (`alpine`), or a commit id. */
function parseName(raw: string, s: string, end: number, build: string | null): ParsedTag {
  let firstEnd = tokenEnd(s, 0, end);
  if (firstEnd < end && tokenEnd(s, firstEnd + 1, end) === end && isWordAt(s, 0, firstEnd, HASH_PREFIXES)
    && end - firstEnd - 1 >= 7 && allHex(s, firstEnd + 1, end)) {
    return bare(raw, "hash");
  }
  let start = 0;
  if (firstEnd < end && isWordAt(s, 0, firstEnd, ARCH_PREFIXES)) {
    start = firstEnd + 1;
    firstEnd = tokenEnd(s, start, end);
  }
  const isMoving = isWordAt(s, start, firstEnd, MOVING_NAMES);
  const suffix = new Suffix(s, false);
  suffix.addAll(isMoving ? Math.min(firstEnd + 1, end) : start, end);
  if (suffix.hasHexId) return bare(raw, "hash");
  if (isMoving && isWordAt(s, start, firstEnd, UNSTABLE_NAMES)) {
    const name = s.slice(start, firstEnd);
    suffix.prerelease = suffix.prerelease === null ? name : `${name}.${suffix.prerelease}`;
  }
  const kind = isMoving || !suffix.hasFlavour() ? "moving" : "flavour";
  return finish(raw, kind, s.slice(0, start), [], null, suffix, build);
}

/** Parses a tag. Never throws: anything it cannot read is `kind: "unknown"`. */
export function parseTag(tag: string): ParsedTag {
  if (typeof tag !== "string") return unknown("");
  const n = tag.length;
  if (n === 0 || n > MAX_TAG_LENGTH) return unknown(tag);
  let hasUpper = false;
  let plus = -1;
  let prevDash = true; // a leading '-' is an empty token
  for (let i = 0; i < n; i++) {
    const c = tag.charCodeAt(i);
    if (c === 45) {
      if (prevDash) return unknown(tag);
      prevDash = true;
      continue;
    }
    if (c === 43) {
      if (prevDash || plus >= 0) return unknown(tag);
      plus = i;
    } else if (c >= 65 && c <= 90) hasUpper = true;
    else if (!(isDigit(c) || isLower(c) || c === 46 || c === 95)) return unknown(tag);
    prevDash = false;
  }
  if (prevDash || plus === n - 1) return unknown(tag);
  const s = hasUpper ? tag.toLowerCase() : tag;
  const c0 = s.charCodeAt(0);
  if (c0 === 115 /* s */ && isSignature(s)) return bare(tag, "signature");
  if (c0 === 114 /* r */) {
    const stamp = parseReleaseStamp(tag, s);
    if (stamp !== null) return stamp;
  }
  const end = plus >= 0 ? plus : n;
  const build = plus >= 0 ? s.slice(plus + 1) : null;

  // The version starts at the first token that starts with a digit (or v + digit) and is not a commit id.
  const firstEnd = tokenEnd(s, 0, end);
  const isHashPair = firstEnd < end && !isDigit(c0) && tokenEnd(s, firstEnd + 1, end) === end && isWordAt(s, 0, firstEnd, HASH_PREFIXES);
  let core = -1;
  let coreEnd = -1;
  for (let a = 0, b = firstEnd; !isHashPair && a < end; a = b + 1, b = a < end ? tokenEnd(s, a, end) : end) {
    const t0 = s.charCodeAt(a);
    if ((isDigit(t0) || (t0 === 118 /* v */ && a + 1 < b && isDigit(s.charCodeAt(a + 1)))) && !isHexId(s, a, b)) {
      core = a;
      coreEnd = b;
      break;
    }
  }
  if (core < 0) return parseName(tag, s, end, build);

  const hasV = s.charCodeAt(core) === 118;
  let p = hasV ? core + 1 : core;
  const numbers: number[] = [];
  let firstRun = 0;
  let ownRevision: number | null = null;
  let commit: string | null = null;
  let dots = 0;
  for (;;) {
    const start = p;
    let value = 0;
    while (p < coreEnd && isDigit(s.charCodeAt(p))) {
      value = value * 10 + (s.charCodeAt(p) - 48);
      p++;
    }
    if (p === start || p - start > MAX_DIGITS) return unknown(tag);
    if (numbers.length === 0) firstRun = p - start;
    numbers.push(value);
    const sep = s.charCodeAt(p);
    if (p + 1 < coreEnd && sep === 95 && dots >= 2 && allDigits(s, p + 1, coreEnd) && coreEnd - p - 1 <= MAX_DIGITS) {
      // Java's `21.0.5_11`, `17.0.8.1_1`: the build of that version, not a part of it
      ownRevision = numberAt(s, p + 1, coreEnd);
      p = coreEnd;
      break;
    }
    if (p + 1 < coreEnd && (sep === 46 || sep === 95) && isDigit(s.charCodeAt(p + 1))) {
      if (sep === 46) dots++;
      p++;
    } else break;
  }
  if (p + 2 < coreEnd && s.charCodeAt(p) === 46 && s.charCodeAt(p + 1) === 118 /* v */ && isCommitAt(s, p + 2, coreEnd)) {
    // Jenkins' `3283.v92c105e0f819`: a build number and the commit it was built from
    commit = s.slice(p + 1, coreEnd);
    p = coreEnd;
  } else if (numbers.length === 1 && firstRun <= 2 && s.charCodeAt(p) === 117 /* u */ && allDigits(s, p + 1, coreEnd) && coreEnd - p - 1 <= 4) {
    // Java's update numbering: `8u432` is update 432 of Java 8, a patch release of 8.0
    numbers.push(0, numberAt(s, p + 1, coreEnd));
    if (coreEnd < end && s.charCodeAt(coreEnd + 1) === 98 /* b */) {
      const bEnd = tokenEnd(s, coreEnd + 2, end);
      if (allDigits(s, coreEnd + 2, bEnd) && bEnd - coreEnd - 2 <= 4) {
        ownRevision = numberAt(s, coreEnd + 2, bEnd); // `-b06`: its build
        coreEnd = bEnd;
      }
    }
    p = coreEnd;
  }

  const suffix = new Suffix(s, true);
  if (ownRevision !== null) suffix.setRevision(ownRevision);
  if (commit !== null) suffix.build = commit; // a packaging revision may follow (`-1`)
  let gluedPre: string | null = null;
  if (p < coreEnd) {
    const c = s.charCodeAt(p);
    const from = c === 46 || c === 95 ? p + 1 : p;
    if (from < coreEnd && isPrereleaseAt(s, from, coreEnd, GLUED_PRERELEASE)) gluedPre = s.slice(from, coreEnd);
    else if (from === p && isLower(c)) suffix.addWord(p, coreEnd); // 20H2: a word glued to a number
    else return unknown(tag);
  }

  let next = coreEnd + 1;
  let kind: TagKind = "version";
  const first = numbers[0] as number;
  const versionStart = hasV ? core + 1 : core;
  if (numbers.length === 1 && p === coreEnd) {
    if ((firstRun === 8 || firstRun === 12 || firstRun === 14) && isYmdAt(s, versionStart)) kind = "date";
    else if (firstRun === 4 && isYear(first) && next < end) {
      // 2024-11-05: a date written with '-' between its parts
      const monthEnd = tokenEnd(s, next, end);
      const month = monthEnd - next <= 2 && allDigits(s, next, monthEnd) ? numberAt(s, next, monthEnd) : 0;
      if (month >= 1 && month <= 12) {
        numbers.push(month);
        next = monthEnd + 1;
        kind = "date";
        const dayEnd = next < end ? tokenEnd(s, next, end) : end;
        const day = dayEnd - next <= 2 && allDigits(s, next, dayEnd) ? numberAt(s, next, dayEnd) : 0;
        if (day >= 1 && day <= 31) {
          numbers.push(day);
          next = dayEnd + 1;
        }
      }
    }
    if (kind === "version" && core > 0 && !hasV) {
      // nanoserver-1809, windowsservercore-1809: a name ending in a number, not a version
      return parseName(tag, s, end, build);
    }
  } else if (firstRun === 4 && isYear(first) && numbers.length > 1 && (numbers[1] as number) >= 1 && (numbers[1] as number) <= 12) {
    kind = "date";
  } else if (firstRun === 8 && isYmdAt(s, versionStart)) {
    kind = "date";
  }

  if (next < end) suffix.addAll(next, end);
  const prefix = core === 0 ? (hasV ? "v" : "") : s.slice(0, hasV ? core + 1 : core);
  return finish(tag, kind, prefix, numbers, gluedPre, suffix, build);
}

/** An exact or partial version (`1.27.3`, `1`, `2024.10.1`), not a name, id or signature. */
export function isVersionTag(tag: string): boolean {
  const kind = parseTag(tag).kind;
  return kind === "version" || kind === "date";
}

/** True for tags that move on their own: names, flavours and bare majors. */
export function isMovingParsed(p: ParsedTag): boolean {
  // A build number with its commit (`3283.v92c105e0f819`) is one build, not a major line.
  return p.kind === "moving" || p.kind === "flavour" || (p.kind === "version" && p.numbers.length === 1 && !p.isPrerelease && p.build === null);
}

/**
 * `latest`, `stable`, `edge`, `mainline`, `stable-alpine`, flavour-only names (`alpine`,
 * `bookworm`) and bare majors (`7`, `16-alpine`). Whether `1.27` moves depends on the
 * repository (does it have `1.27.x` tags?), which only the caller knows.
 */
export function isMovingTag(tag: string): boolean {
  return isMovingParsed(parseTag(tag));
}
