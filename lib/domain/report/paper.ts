// Paper sizes for the printed report: A4 everywhere but the few countries
// that use US Letter, judged from the reader's preferred languages.

export type Paper = "a4" | "letter";

export const PAPER_LABEL: Record<Paper, string> = { a4: "A4", letter: "Letter" };

/** Regions whose offices print on US Letter. */
const LETTER_REGIONS = new Set(["US", "CA", "MX", "PH", "CL", "CO", "VE", "PR", "GT", "CR", "PA", "DO", "SV", "NI"]);

/** `letter` or `a4` from a query value; anything else is A4. */
export function parsePaper(raw: string | null | undefined): Paper {
  return raw?.toLowerCase() === "letter" ? "letter" : "a4";
}

/** The paper of the reader's first language that names a region (`en-US` → Letter); A4 when none does. */
export function paperForLanguages(acceptLanguage: string | null | undefined): Paper {
  for (const part of (acceptLanguage ?? "").split(",")) {
    const tag = part.split(";")[0]!.trim();
    const region = /^[A-Za-z]{2,3}[-_](?:[A-Za-z]{4}[-_])?([A-Za-z]{2}|\d{3})\b/.exec(tag)?.[1];
    if (region) return LETTER_REGIONS.has(region.toUpperCase()) ? "letter" : "a4";
  }
  return "a4";
}
