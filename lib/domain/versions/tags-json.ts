// Tag lists as users hand them over: a JSON array of names, or a registry's
// `tags/list` body `{name, tags}` (whose `tags` is null for an empty repository).
import { AppError } from "@/lib/domain/errors";

function stringsOrThrow(list: readonly unknown[], pointer: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < list.length; i++) {
    const tag = list[i];
    if (typeof tag !== "string") {
      throw new AppError("invalid_input", `tag ${i} must be a string`, {
        errors: [{ pointer: `${pointer}/${i}`, detail: "must be a string" }],
      });
    }
    out.push(tag);
  }
  return out;
}

/** Tag names from a JSON array of strings or a registry `tags/list` body; AppError("invalid_input") otherwise. */
export function tagsFromJson(value: unknown): string[] {
  if (Array.isArray(value)) return stringsOrThrow(value, "");
  if (typeof value === "object" && value !== null && "tags" in value) {
    const tags = (value as { tags: unknown }).tags;
    if (tags === null) return [];
    if (Array.isArray(tags)) return stringsOrThrow(tags, "/tags");
  }
  throw new AppError("invalid_input", "expected a JSON array of tag names or a registry tags/list body {name, tags: [...]}", {
    errors: [{ pointer: "", detail: "must be an array of strings or an object with a tags array" }],
  });
}
