// Inter from @fontsource, read from node_modules once per process. Satori
// reuses its parsed fonts when it is handed the same array again, so the
// array itself is cached, not only the bytes.
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import type { Font } from "satori";

const require = createRequire(import.meta.url);

export const BADGE_FONT_WEIGHT = 600;

let badgeFonts: Promise<Font[]> | null = null;

async function loadInterSemiBold(): Promise<ArrayBuffer> {
  // A literal path, so that bundlers tracing the server's files keep the font.
  const bytes = await readFile(require.resolve(/* turbopackIgnore: true */ "@fontsource/inter/files/inter-latin-600-normal.woff"));
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
}

/** The fonts the badge is set in (Inter SemiBold, Latin); loaded on first use. */
export function getBadgeFonts(): Promise<Font[]> {
  badgeFonts ??= loadInterSemiBold()
    .then((data) => [{ name: "Inter", data, weight: BADGE_FONT_WEIGHT, style: "normal" } satisfies Font])
    .catch((error: unknown) => {
      badgeFonts = null; // let the next badge try again
      throw error;
    });
  return badgeFonts;
}
