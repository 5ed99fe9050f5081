// Small helpers for building SVG as strings: escaping, number formatting and
// ids. Output must be deterministic, so numbers are rounded the same way
// everywhere and nothing depends on the clock or the locale.

// Characters XML 1.0 forbids outright; one of them would make the whole image unreadable.
const INVALID_XML_CHARS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

const XML_ENTITIES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** Escapes text for XML content and attribute values; drops characters XML cannot carry. */
export function escapeXml(text: string): string {
  return text.replace(INVALID_XML_CHARS, "").replace(/[&<>"']/g, (c) => XML_ENTITIES[c] ?? c);
}

/** A coordinate or length: at most two decimals, no trailing zeros, never `-0`. */
export function num(value: number): string {
  if (!Number.isFinite(value)) return "0";
  const rounded = Math.round(value * 100) / 100;
  return Object.is(rounded, -0) ? "0" : String(rounded);
}

/** Attributes from a record, escaped, in insertion order; `undefined` values are left out. */
export function attrs(values: Record<string, string | number | undefined>): string {
  let out = "";
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined) continue;
    out += ` ${name}="${typeof value === "number" ? num(value) : escapeXml(value)}"`;
  }
  return out;
}

/** An id usable in `id` and `aria-labelledby` (letters, digits, `-` and `_`, starting with a letter). */
export function safeId(raw: string): string {
  const cleaned = raw.replace(/[^A-Za-z0-9_-]/g, "-");
  return /^[A-Za-z]/.test(cleaned) ? cleaned : `c-${cleaned}`;
}

/** "1 version", "4 versions". */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : pluralForm}`;
}
