// tag_filter: user-supplied regular expressions run with RE2 (re2js), so a
// pattern can never take more than linear time on a tag.
import { RE2JS } from "re2js";

export const MAX_TAG_FILTER_LENGTH = 500;

export type TagFilter = { ok: true; test: (tag: string) => boolean } | { ok: false; error: string };

/** Compiles a tag_filter. The pattern is unanchored (like RegExp.test): write `^…$` to match whole tags. */
export function compileTagFilter(pattern: string): TagFilter {
  if (typeof pattern !== "string" || pattern.length === 0) return { ok: false, error: "tag_filter must not be empty" };
  if (pattern.length > MAX_TAG_FILTER_LENGTH) {
    return { ok: false, error: `tag_filter must be at most ${MAX_TAG_FILTER_LENGTH} characters` };
  }
  try {
    const re = RE2JS.compile(pattern);
    return { ok: true, test: (tag: string) => re.test(tag) };
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    return { ok: false, error: `tag_filter is not a valid RE2 regular expression: ${reason.replace(/\s+/g, " ")}` };
  }
}
