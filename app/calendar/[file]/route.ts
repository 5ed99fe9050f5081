// GET /calendar/<key id>.<signature>.ics: the workspace calendar, no sign-in.
// Every failure (key id, signature, a reset key) is the same plain 404.
import { log } from "@/lib/log";
import { calendarEtag, renderCalendarIcs } from "@/lib/render/calendar";
import { getServerServices } from "@/lib/server/services";
import { loadSignedCalendar } from "@/lib/services/calendar/load-signed";

export const dynamic = "force-dynamic";

const FILE_RE = /^([A-Za-z0-9_-]{1,64})\.([A-Za-z0-9_-]{1,128})\.ics$/;

function notFound(): Response {
  return new Response("Not found\n", { status: 404, headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" } });
}

export async function GET(req: Request, { params }: { params: Promise<{ file: string }> }): Promise<Response> {
  const match = FILE_RE.exec((await params).file);
  if (match === null) return notFound();
  try {
    const services = await getServerServices();
    const now = new Date();
    const calendar = await loadSignedCalendar({ ctx: { db: services.db, config: services.config, now }, input: { keyId: match[1]!, sig: match[2]! } });
    if (!calendar) return notFound();
    const name = `Driftwatch · ${calendar.workspace}`;
    const etag = calendarEtag(name, calendar.events);
    const headers = {
      "content-type": "text/calendar; charset=utf-8",
      "cache-control": "private, max-age=300",
      etag,
      "content-security-policy": "default-src 'none'; sandbox",
    };
    const given = req.headers.get("if-none-match");
    if (given !== null && given.split(",").some((t) => t.trim() === etag)) return new Response(null, { status: 304, headers });
    return new Response(renderCalendarIcs({ name, events: calendar.events, stamp: now }), { status: 200, headers });
  } catch (err) {
    log.error("calendar failed", { error: String(err) });
    return new Response("Calendar unavailable\n", { status: 503, headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store", "retry-after": "60" } });
  }
}
