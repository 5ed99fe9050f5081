// The calendar's signed address. It shares the badge key: a badge reset (CLI or
// Settings) stops every calendar address too. The signed message differs from
// a badge's in shape, so no badge signature ever opens a calendar.
import { createHmac } from "node:crypto";
import type { BadgeKey } from "../badges/keys";

/** HMAC-SHA256 over ("calendar", workspace id), base64url. */
export function signCalendar(secret: string, workspaceId: string): string {
  return createHmac("sha256", secret).update(JSON.stringify(["calendar", workspaceId])).digest("base64url");
}

/** `{base}/calendar/<key id>.<signature>.ics` */
export function calendarUrl(baseUrl: string, key: BadgeKey, workspaceId: string): string {
  return `${baseUrl}/calendar/${key.keyId}.${signCalendar(key.secret, workspaceId)}.ics`;
}
