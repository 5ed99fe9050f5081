// Release cycles for end-of-life look-ups: drop
// trailing parts of the running version, by major or by major.minor depending
// on how the product names its cycles.
import { hasVersion } from "./compare";
import { parseTag } from "./parse";

export type CycleShape = "major" | "major.minor";

/** `17.2` by major → `17`; `1.27.3` by major.minor → `1.27`; null when the version has too few parts. */
export function releaseCycle(version: string, by: CycleShape): string | null {
  const p = parseTag(version);
  if (!hasVersion(p)) return null;
  const need = by === "major" ? 1 : 2;
  if (p.numbers.length < need) return null;
  // Read the digits as written: Ubuntu's cycle is `24.04`, not `24.4`.
  const parts: string[] = [];
  let i = p.prefix.length;
  let start = i;
  for (; i <= version.length && parts.length < need; i++) {
    const c = version.charCodeAt(i);
    if (!(c >= 48 && c <= 57)) {
      if (i > start) parts.push(version.slice(start, i));
      if (c !== 46 && c !== 95 && c !== 45) break;
      start = i + 1;
    }
  }
  return parts.length === need ? parts.join(".") : null;
}

/** Decides from a product's cycle names: `17`, `16` → major; `1.27`, `1.26` → major.minor. The newest cycles decide. */
export function cycleShapeOf(cycleNames: readonly string[]): CycleShape {
  let bestMajor = -1;
  let dotted = false;
  for (const name of cycleNames) {
    const match = /^v?(\d{1,9})(\.\d)?/.exec(name.trim());
    if (match === null) continue;
    const major = Number(match[1]);
    if (major > bestMajor) {
      bestMajor = major;
      dotted = match[2] !== undefined;
    } else if (major === bestMajor && match[2] !== undefined) {
      dotted = true;
    }
  }
  return dotted ? "major.minor" : "major";
}
