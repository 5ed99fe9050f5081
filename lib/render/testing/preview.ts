// Test support: turns the SVGs into PNGs with resvg so tests can check them
// and people can look at them (test-results/render/*.png, not committed).
import { mkdirSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { inflateSync } from "node:zlib";
import { Resvg } from "@resvg/resvg-js";

const require = createRequire(import.meta.url);
export const PREVIEW_DIR = path.resolve(import.meta.dirname, "../../../test-results/render");

/**
 * WOFF 1.0 → plain OpenType (resvg reads TrueType/OpenType only). Tables are
 * zlib-compressed when that saves bytes; the directory is rebuilt around them.
 */
export function woffToSfnt(woff: Buffer): Buffer {
  if (woff.toString("latin1", 0, 4) !== "wOFF") throw new Error("not a WOFF font");
  const flavor = woff.readUInt32BE(4);
  const numTables = woff.readUInt16BE(12);
  const tables: { tag: string; checksum: number; data: Buffer }[] = [];
  for (let i = 0; i < numTables; i++) {
    const entry = 44 + i * 20;
    const offset = woff.readUInt32BE(entry + 4);
    const compLength = woff.readUInt32BE(entry + 8);
    const origLength = woff.readUInt32BE(entry + 12);
    const raw = woff.subarray(offset, offset + compLength);
    tables.push({
      tag: woff.toString("latin1", entry, entry + 4),
      checksum: woff.readUInt32BE(entry + 16),
      data: compLength < origLength ? inflateSync(raw) : Buffer.from(raw),
    });
  }
  const entrySelector = Math.floor(Math.log2(numTables));
  const searchRange = 2 ** entrySelector * 16;
  const header = Buffer.alloc(12 + numTables * 16);
  header.writeUInt32BE(flavor, 0);
  header.writeUInt16BE(numTables, 4);
  header.writeUInt16BE(searchRange, 6);
  header.writeUInt16BE(entrySelector, 8);
  header.writeUInt16BE(numTables * 16 - searchRange, 10);
  const chunks: Buffer[] = [header];
  let offset = header.length;
  tables.forEach((table, i) => {
    const record = 12 + i * 16;
    header.write(table.tag, record, "latin1");
    header.writeUInt32BE(table.checksum, record + 4);
    header.writeUInt32BE(offset, record + 8);
    header.writeUInt32BE(table.data.length, record + 12);
    const padded = Buffer.alloc((table.data.length + 3) & ~3);
    table.data.copy(padded);
    chunks.push(padded);
    offset += padded.length;
  });
  return Buffer.concat(chunks);
}

let fontFiles: Promise<string[]> | null = null;

/** Inter 400 and 600 as .ttf files under the preview directory, for resvg. */
export function previewFontFiles(): Promise<string[]> {
  fontFiles ??= (async () => {
    const dir = path.join(PREVIEW_DIR, "fonts");
    mkdirSync(dir, { recursive: true });
    const out: string[] = [];
    for (const weight of [400, 600]) {
      const woff = await readFile(require.resolve(`@fontsource/inter/files/inter-latin-${weight}-normal.woff`));
      const file = path.join(dir, `inter-${weight}.ttf`);
      writeFileSync(file, woffToSfnt(woff));
      out.push(file);
    }
    return out;
  })();
  return fontFiles;
}

export type Png = { png: Buffer; width: number; height: number };

/** Renders `svg` at `zoom`× on `background` with Inter as the only font. */
export async function svgToPng(svg: string, options: { zoom?: number; background?: string } = {}): Promise<Png> {
  const resvg = new Resvg(svg, {
    fitTo: { mode: "zoom", value: options.zoom ?? 2 },
    background: options.background,
    font: { loadSystemFonts: false, fontFiles: await previewFontFiles(), defaultFontFamily: "Inter", sansSerifFamily: "Inter" },
  });
  const image = resvg.render();
  return { png: image.asPng(), width: image.width, height: image.height };
}

/** Width and height from a PNG's IHDR chunk. */
export function pngSize(png: Buffer): { width: number; height: number } {
  if (png.readUInt32BE(0) !== 0x89504e47 || png.toString("latin1", 12, 16) !== "IHDR") throw new Error("not a PNG");
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

export function writePreview(name: string, png: Buffer): string {
  mkdirSync(PREVIEW_DIR, { recursive: true });
  const file = path.join(PREVIEW_DIR, name);
  writeFileSync(file, png);
  return file;
}
