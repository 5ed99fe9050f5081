// A generic webhook receives the payload itself, as compact JSON. The exact
// bytes are signed, so render once and send what was rendered.
import type { NotificationPayload } from "./payloads";

export function renderWebhookBody(payload: NotificationPayload): string {
  return JSON.stringify(payload);
}
