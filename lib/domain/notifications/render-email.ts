// E-mail: a one-line subject, a plain-text body and a simple HTML body with
// everything escaped. The upgrade plan is a checklist (markdown checkboxes in
// text, the same list in HTML), like the updates page's copy-as-checklist.
import { GATE_REFUSED_NAME } from "@/lib/domain/words";
import { gateRefusedLine, gateRefusedSubject, type DriftEventPayload, type GateRefusedPayload, type NotificationPayload, type UpgradePlanItem, type UpgradePlanPayload } from "./payloads";
import { REASON_LABEL, driftFacts, driftSentence, driftSubject, driftTitle, planTitle, safeHttpUrl, singleLine, versionMove } from "./wording";
import { DRIFT_KIND_NAME, inSentence } from "@/lib/domain/words";

export type RenderedEmail = { subject: string; text: string; html: string };

export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}

function htmlLink(url: string | null, label: string): string {
  const safe = safeHttpUrl(url);
  return safe ? `<a href="${escapeHtml(safe)}">${escapeHtml(label)}</a>` : escapeHtml(label);
}

function htmlDocument(title: string, body: string): string {
  return [
    "<!DOCTYPE html>",
    '<html><head><meta charset="utf-8"><title>' + escapeHtml(title) + "</title></head>",
    '<body style="font-family:system-ui,-apple-system,Segoe UI,sans-serif;line-height:1.5;color:#111">',
    body,
    "</body></html>",
  ].join("\n");
}

function footer(workspace: string, id: string): { text: string; html: string } {
  return {
    text: `Driftwatch · workspace ${workspace} · ${id}`,
    html: `<p style="color:#666;font-size:12px">Driftwatch · workspace ${escapeHtml(workspace)} · ${escapeHtml(id)}</p>`,
  };
}

function renderDrift(p: DriftEventPayload): RenderedEmail {
  const facts = driftFacts(p);
  const width = Math.max(...facts.map(([label]) => label.length)) + 2;
  const foot = footer(p.workspace, `event ${p.id}`);
  const text = [
    `${driftTitle(p)}: ${driftSubject(p)}`,
    "",
    driftSentence(p),
    "",
    ...facts.map(([label, value]) => `${`${label}:`.padEnd(width)}${value}`),
    "",
    `Open in Driftwatch: ${p.url}`,
    "",
    "-- ",
    foot.text,
    "",
  ].join("\n");
  const html = htmlDocument(
    driftTitle(p),
    [
      `<h2>${escapeHtml(driftTitle(p))}: ${htmlLink(p.url, p.service)} in ${escapeHtml(p.environment)} (${escapeHtml(inSentence(DRIFT_KIND_NAME[p.kind]))})</h2>`,
      `<p>${escapeHtml(driftSentence(p))}</p>`,
      "<table>",
      ...facts.map(([label, value]) => `<tr><th align="left">${escapeHtml(label)}</th><td>${escapeHtml(value)}</td></tr>`),
      "</table>",
      `<p>${htmlLink(p.url, "Open in Driftwatch")}</p>`,
      foot.html,
    ].join("\n"),
  );
  return { subject: singleLine(`[Driftwatch] ${driftTitle(p)} in ${p.workspace}: ${driftSubject(p)}`), text, html };
}

function textItem(item: UpgradePlanItem): string {
  const notes = safeHttpUrl(item.release_notes_url);
  return `- [ ] ${item.service} (${item.environment}): ${versionMove(item)} · ${REASON_LABEL[item.reason]}${notes ? ` · ${notes}` : ""}`;
}

function htmlItem(item: UpgradePlanItem): string {
  const notes = safeHttpUrl(item.release_notes_url) ? ` · ${htmlLink(item.release_notes_url, "release notes")}` : "";
  return `<li>☐ <strong>${escapeHtml(item.service)}</strong> (${escapeHtml(item.environment)}): ${escapeHtml(versionMove(item))} · ${escapeHtml(REASON_LABEL[item.reason])}${notes}</li>`;
}

function renderPlan(p: UpgradePlanPayload): RenderedEmail {
  const title = planTitle(p);
  const foot = footer(p.workspace, `plan ${p.id}`);
  const empty = p.items.length === 0;
  const text = [
    title,
    "",
    ...(empty ? ["Nothing to upgrade this week."] : p.items.map(textItem)),
    "",
    `Open the updates list: ${p.url}`,
    "",
    "-- ",
    foot.text,
    "",
  ].join("\n");
  const html = htmlDocument(
    title,
    [
      `<h2>${escapeHtml(title)}</h2>`,
      empty ? "<p>Nothing to upgrade this week.</p>" : `<ul style="list-style:none;padding-left:0">\n${p.items.map(htmlItem).join("\n")}\n</ul>`,
      `<p>${htmlLink(p.url, "Open the updates list")}</p>`,
      foot.html,
    ].join("\n"),
  );
  return { subject: singleLine(`[Driftwatch] ${title}`), text, html };
}

function renderGateRefused(p: GateRefusedPayload): RenderedEmail {
  const line = gateRefusedLine(p);
  const foot = footer(p.workspace, `event ${p.id}`);
  const text = [line, "", `Open in Driftwatch: ${p.url}`, "", "-- ", foot.text, ""].join("\n");
  const html = htmlDocument(line, [`<p>${escapeHtml(line)}</p>`, `<p>${htmlLink(p.url, "Open in Driftwatch")}</p>`, foot.html].join("\n"));
  return { subject: singleLine(`[Driftwatch] ${GATE_REFUSED_NAME} ${gateRefusedSubject(p)} in ${p.environment}`), text, html };
}

export function renderEmail(payload: NotificationPayload): RenderedEmail {
  switch (payload.event) {
    case "drift_detected":
    case "drift_resolved":
      return renderDrift(payload);
    case "upgrade_plan":
      return renderPlan(payload);
    case "gate_refused":
      return renderGateRefused(payload);
    default: {
      const never: never = payload;
      throw new Error(`Unknown event ${String((never as { event: unknown }).event)}`);
    }
  }
}
