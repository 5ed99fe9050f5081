// Microsoft Teams through a Workflows webhook ("Post to a channel when a
// webhook request is received"): a message with one Adaptive Card attachment.
import { gateRefusedLine, type DriftEventPayload, type GateRefusedPayload, type NotificationPayload, type UpgradePlanPayload } from "@/lib/domain/notifications/payloads";
import { urgencyOf, type Urgency } from "@/lib/domain/notifications/urgency";
import { REASON_LABEL, driftFacts, driftSentence, driftSubject, driftTitle, planTitle, safeHttpUrl, versionMove } from "@/lib/domain/notifications/wording";

export type AdaptiveElement =
  | { type: "TextBlock"; text: string; wrap: true; weight?: "Bolder"; size?: "Medium" | "Small"; color?: "Attention" | "Warning" | "Accent" | "Good" | "Default"; isSubtle?: boolean; spacing?: "None" | "Small" }
  | { type: "FactSet"; facts: Array<{ title: string; value: string }> };
export type AdaptiveAction = { type: "Action.OpenUrl"; title: string; url: string };
export type AdaptiveCard = {
  $schema: "http://adaptivecards.io/schemas/adaptive-card.json";
  type: "AdaptiveCard";
  version: "1.4";
  body: AdaptiveElement[];
  actions: AdaptiveAction[];
  msteams: { width: "Full" };
};
export type TeamsMessage = {
  type: "message";
  attachments: [{ contentType: "application/vnd.microsoft.card.adaptive"; contentUrl: null; content: AdaptiveCard }];
};

/** At most this many plan lines on a card; Teams refuses cards over about 28 KB. */
export const TEAMS_MAX_PLAN_ITEMS = 40;

const COLOR: Record<Urgency, "Attention" | "Warning" | "Accent" | "Good"> = { high: "Attention", medium: "Warning", low: "Accent", resolved: "Good" };

function card(body: AdaptiveElement[], actions: AdaptiveAction[]): TeamsMessage {
  return {
    type: "message",
    attachments: [{
      contentType: "application/vnd.microsoft.card.adaptive",
      contentUrl: null,
      content: { $schema: "http://adaptivecards.io/schemas/adaptive-card.json", type: "AdaptiveCard", version: "1.4", body, actions, msteams: { width: "Full" } },
    }],
  };
}

function openAction(url: string | null, title: string): AdaptiveAction[] {
  const safe = safeHttpUrl(url);
  return safe ? [{ type: "Action.OpenUrl", title, url: safe }] : [];
}

function renderDrift(p: DriftEventPayload): TeamsMessage {
  return card(
    [
      { type: "TextBlock", text: `${driftTitle(p)}: ${driftSubject(p)}`, wrap: true, weight: "Bolder", size: "Medium", color: COLOR[urgencyOf(p)] },
      { type: "TextBlock", text: driftSentence(p), wrap: true },
      { type: "FactSet", facts: driftFacts(p).map(([title, value]) => ({ title, value })) },
      { type: "TextBlock", text: `Driftwatch · ${p.workspace}`, wrap: true, isSubtle: true, size: "Small" },
    ],
    openAction(p.url, `Open ${p.service} in Driftwatch`),
  );
}

function renderPlan(p: UpgradePlanPayload): TeamsMessage {
  const shown = p.items.slice(0, TEAMS_MAX_PLAN_ITEMS);
  const more = p.items.length - shown.length;
  const body: AdaptiveElement[] = [{ type: "TextBlock", text: planTitle(p), wrap: true, weight: "Bolder", size: "Medium", color: COLOR[urgencyOf(p)] }];
  if (shown.length === 0) body.push({ type: "TextBlock", text: "Nothing to upgrade this week.", wrap: true });
  else {
    body.push({
      type: "FactSet",
      facts: shown.map((item) => {
        const notes = safeHttpUrl(item.release_notes_url);
        return { title: `${item.service} (${item.environment})`, value: `${versionMove(item)} · ${REASON_LABEL[item.reason]}${notes ? ` · [release notes](${notes})` : ""}` };
      }),
    });
  }
  if (more > 0) body.push({ type: "TextBlock", text: `…and ${more} more in the updates list.`, wrap: true, isSubtle: true });
  return card(body, openAction(p.url, "Open the updates list"));
}

function renderGateRefused(p: GateRefusedPayload): TeamsMessage {
  return card(
    [
      { type: "TextBlock", text: gateRefusedLine(p), wrap: true, weight: "Bolder", color: COLOR[urgencyOf(p)] },
      { type: "TextBlock", text: `Driftwatch · ${p.workspace}`, wrap: true, isSubtle: true, size: "Small" },
    ],
    openAction(p.url, `Open ${p.service} in Driftwatch`),
  );
}

export function renderTeamsMessage(payload: NotificationPayload): TeamsMessage {
  if (payload.event === "gate_refused") return renderGateRefused(payload);
  return payload.event === "upgrade_plan" ? renderPlan(payload) : renderDrift(payload);
}
