// The workspace calendar as iCalendar text (RFC 5545): all-day events, lines
// folded at 75 octets and ended by CRLF (ical-generator folds; the last line's
// CRLF is added here, as the grammar asks for it too).
import { createHash } from "node:crypto";
import ical from "ical-generator";
import type { CalendarEvent } from "@/lib/domain/calendar";

/** A weak validator of the events: the body differs between requests only in DTSTAMP. */
export function calendarEtag(name: string, events: readonly CalendarEvent[]): string {
  return `W/"${createHash("sha256").update(JSON.stringify([name, events])).digest("base64url").slice(0, 27)}"`;
}

export function renderCalendarIcs({ name, events, stamp }: { name: string; events: readonly CalendarEvent[]; stamp: Date }): string {
  const cal = ical({ prodId: { company: "Driftwatch", product: "Driftwatch", language: "EN" }, name, scale: "gregorian" });
  for (const e of events) {
    const [y, m, d] = e.day.split("-").map(Number) as [number, number, number];
    cal.createEvent({ id: e.uid, start: new Date(Date.UTC(y, m - 1, d)), allDay: true, stamp, summary: e.summary, description: e.description });
  }
  const text = cal.toString();
  return text.endsWith("\r\n") ? text : `${text}\r\n`;
}
