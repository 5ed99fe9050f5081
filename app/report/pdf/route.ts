// GET /report/pdf?month=YYYY-MM&paper=a4|letter: the monthly report as a
// PDF, rendered by the server's Chromium for the signed-in user; without
// Chromium, back to the page, whose "Save as PDF" then uses the browser's
// print dialog.
import { NextResponse } from "next/server";
import { parsePaper } from "@/lib/domain/report/paper";
import { requirePageSession } from "@/lib/http/context";
import { renderPdf } from "@/lib/server/pdf";
import { currentMonth, monthRange } from "@/lib/services/reports/get-monthly";

export const dynamic = "force-dynamic";

export async function GET(req: Request): Promise<Response> {
  const { ctx, workspaceName } = await requirePageSession();
  const url = new URL(req.url);
  const raw = url.searchParams.get("month") ?? "";
  const month = monthRange(raw) ? raw : currentMonth(ctx.now);
  // The server's own address as this request reached it: the page rendered is ours, never another host.
  const page = new URL(`/report?month=${month}`, url.origin).toString();
  const pdf = await renderPdf(page, req.headers.get("cookie"), parsePaper(url.searchParams.get("paper")));
  if (!pdf) return NextResponse.redirect(new URL(`/report?month=${month}&pdf=unavailable`, url.origin), 303);
  return new Response(new Uint8Array(pdf), {
    headers: {
      "content-type": "application/pdf",
      "content-disposition": `attachment; filename="driftwatch-${workspaceName.replace(/[^A-Za-z0-9._-]/g, "_")}-${month}.pdf"`,
      "cache-control": "private, no-store",
    },
  });
}
