import { z } from "zod";
import { defineOperation } from "../operation";

export const calendarAddressSchema = z
  .object({
    url: z.string().meta({ description: "`{base_url}/calendar/<key id>.<signature>.ics`: iCalendar (RFC 5545), needs no sign-in" }),
  })
  .meta({ id: "CalendarAddress" });

export const calendarOps = {
  getCalendarAddress: defineOperation({
    id: "getCalendarAddress", method: "GET", path: "/api/v1/calendar", summary: "The workspace calendar's signed address", tags: ["insights"], auth: "member",
    description: [
      "An all-day event for each end-of-life date of a cycle that runs somewhere in the workspace (listing the services and environments that run it), one for each open drift on the day its kind's `drift_alert_after` delay announces it, and one for each announced drift put off for a duration, on the day the put-off ends.",
      "The address is signed with the badge key: `driftwatch badges reset` (or the reset in Settings) invalidates it; a wrong or stale address answers 404.",
    ].join("\n"),
    responses: { 200: { description: "The address", schema: calendarAddressSchema } },
  }),
};
