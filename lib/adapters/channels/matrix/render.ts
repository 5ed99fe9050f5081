// Matrix m.room.message events: a plain `body` and the same as HTML
// (org.matrix.custom.html), sent as m.notice, the message type meant for bots.
import { gateRefusedLine, type NotificationPayload } from "@/lib/domain/notifications/payloads";
import { escapeHtml } from "@/lib/domain/notifications/render-email";
import { REASON_LABEL, driftFacts, driftSentence, driftSubject, driftTitle, planTitle, safeHttpUrl, versionMove } from "@/lib/domain/notifications/wording";
import { DRIFT_KIND_NAME, inSentence } from "@/lib/domain/words";

export type MatrixMessage = { msgtype: "m.notice"; body: string; format: "org.matrix.custom.html"; formatted_body: string };

/** Events are capped at 64 KiB; the plan stops well before that. */
export const MATRIX_MAX_PLAN_ITEMS = 100;

function link(url: string | null, label: string): string {
  const safe = safeHttpUrl(url);
  return safe ? `<a href="${escapeHtml(safe)}">${escapeHtml(label)}</a>` : escapeHtml(label);
}

export function renderMatrixMessage(payload: NotificationPayload): MatrixMessage {
  if (payload.event === "upgrade_plan") {
    const items = payload.items.slice(0, MATRIX_MAX_PLAN_ITEMS);
    const more = payload.items.length - items.length;
    const tail = more > 0 ? `…and ${more} more in the updates list.` : "";
    const text = items.map((i) => `☐ ${i.service} (${i.environment}): ${versionMove(i)} · ${REASON_LABEL[i.reason]}${safeHttpUrl(i.release_notes_url) ? ` · ${i.release_notes_url}` : ""}`);
    const html = items.map((i) => `<li>${escapeHtml(i.service)} (${escapeHtml(i.environment)}): ${escapeHtml(versionMove(i))} · ${REASON_LABEL[i.reason]}${safeHttpUrl(i.release_notes_url) ? ` · ${link(i.release_notes_url, "release notes")}` : ""}</li>`);
    return {
      msgtype: "m.notice",
      body: [planTitle(payload), ...(items.length ? text : ["Nothing to upgrade this week."]), ...(tail ? [tail] : []), payload.url].join("\n"),
      format: "org.matrix.custom.html",
      formatted_body: `<p><strong>${escapeHtml(planTitle(payload))}</strong></p>${items.length ? `<ul>${html.join("")}</ul>` : "<p>Nothing to upgrade this week.</p>"}${tail ? `<p>${escapeHtml(tail)}</p>` : ""}<p>${link(payload.url, "Open the updates list")}</p>`,
    };
  }
  if (payload.event === "gate_refused") {
    const line = gateRefusedLine(payload);
    return {
      msgtype: "m.notice",
      body: [line, payload.url].join("\n"),
      format: "org.matrix.custom.html",
      formatted_body: `<p>${escapeHtml(line)}</p><p>${link(payload.url, `Open ${payload.service} in Driftwatch`)}</p>`,
    };
  }
  const facts = driftFacts(payload);
  return {
    msgtype: "m.notice",
    body: [`${driftTitle(payload)}: ${driftSubject(payload)}`, driftSentence(payload), ...facts.map(([l, v]) => `${l}: ${v}`), payload.url].join("\n"),
    format: "org.matrix.custom.html",
    formatted_body:
      `<p><strong>${escapeHtml(driftTitle(payload))}</strong>: ${link(payload.url, payload.service)} in <strong>${escapeHtml(payload.environment)}</strong> (${escapeHtml(inSentence(DRIFT_KIND_NAME[payload.kind]))})</p>` +
      `<p>${escapeHtml(driftSentence(payload))}</p>` +
      `<ul>${facts.map(([l, v]) => `<li>${escapeHtml(l)}: ${escapeHtml(v)}</li>`).join("")}</ul>`,
  };
}
