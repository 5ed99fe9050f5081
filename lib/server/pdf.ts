// Server-side PDF of a page of this server, with playwright-core driving the
// system's Chromium, when both are present; callers fall back to the browser's
// print dialog otherwise.
import { existsSync } from "node:fs";
import type { Paper } from "@/lib/domain/report/paper";

type PdfBrowser = {
  newContext(opts: { extraHTTPHeaders?: Record<string, string> }): Promise<{
    newPage(): Promise<{
      goto(url: string, opts: { waitUntil: "networkidle" }): Promise<{ ok(): boolean; status(): number } | null>;
      emulateMedia(opts: { media: "print" }): Promise<void>;
      pdf(opts: { format: string; printBackground: boolean; preferCSSPageSize: boolean }): Promise<Buffer>;
    }>;
  }>;
  close(): Promise<void>;
};
type PlaywrightCore = { chromium: { launch(opts: { executablePath: string; args: string[] }): Promise<PdfBrowser> } };

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

async function loadPlaywright(): Promise<PlaywrightCore | null> {
  try {
    // Resolved at run time from node_modules, never bundled.
    return (await import(/* turbopackIgnore: true */ /* webpackIgnore: true */ "playwright-core")) as unknown as PlaywrightCore;
  } catch {
    return null;
  }
}

export function canRenderPdf(): boolean {
  // An absolute path from the environment: nothing of the project to trace into the build's output.
  return existsSync(/* turbopackIgnore: true */ CHROMIUM_PATH);
}

const FORMAT: Record<Paper, string> = { a4: "A4", letter: "Letter" };

/** The PDF of `url` as the signed-in user sees it (their cookie is passed on), or null when no renderer is available. */
export async function renderPdf(url: string, cookie: string | null, paper: Paper = "a4"): Promise<Buffer | null> {
  if (!canRenderPdf()) return null;
  const pw = await loadPlaywright();
  if (!pw) return null;
  const browser = await pw.chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking", "--disable-component-update", "--no-first-run", "--disable-sync"],
  });
  try {
    const context = await browser.newContext(cookie ? { extraHTTPHeaders: { cookie } } : {});
    const page = await context.newPage();
    const res = await page.goto(url, { waitUntil: "networkidle" });
    if (!res?.ok()) throw new Error(`the report answered ${res?.status() ?? "nothing"}`);
    await page.emulateMedia({ media: "print" });
    // Margins, and the page numbers and running title in them, come from the page's own @page rules.
    return await page.pdf({ format: FORMAT[paper], printBackground: true, preferCSSPageSize: false });
  } finally {
    await browser.close();
  }
}
