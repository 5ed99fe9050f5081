// PagerDuty Events API v2: drift_detected triggers an alert, drift_resolved
// resolves it. The drift's id is the dedup key, so the incident a drift
// opened closes when that drift does. A gate refusal triggers a warning keyed
// by service, environment and version: a CI job retrying the same deploy, or a
// controller re-creating its pods, adds to one alert instead of paging anew;
// nothing resolves it (a later allowed deploy is not an event).
import { gateRefusedLine, gateRefusedSubject, type DriftEventPayload, type GateRefusedPayload } from "@/lib/domain/notifications/payloads";
import { urgencyOf, type Urgency } from "@/lib/domain/notifications/urgency";
import { driftSentence, driftSubject, driftTitle, safeHttpUrl, singleLine } from "@/lib/domain/notifications/wording";

export type PagerDutySeverity = "critical" | "error" | "warning" | "info";
export const PAGERDUTY_SEVERITY: Record<Urgency, PagerDutySeverity> = { high: "error", medium: "warning", low: "info", resolved: "info" };

export type PagerDutyTrigger = {
  routing_key: string;
  event_action: "trigger";
  dedup_key: string;
  payload: {
    summary: string;
    source: string;
    severity: PagerDutySeverity;
    timestamp: string;
    component: string;
    group: string;
    class: string;
    custom_details: Record<string, string | null>;
  };
  client: "Driftwatch";
  client_url?: string;
  links: Array<{ href: string; text: string }>;
};
export type PagerDutyResolve = { routing_key: string; event_action: "resolve"; dedup_key: string };
export type PagerDutyEvent = PagerDutyTrigger | PagerDutyResolve;

/** The drift's id; events stored before it was carried fall back to what names one live drift. */
export function pagerDutyDedupKey(p: DriftEventPayload): string {
  return (p.drift_id ?? `${p.workspace}/${p.service}/${p.environment}/${p.kind}`).slice(0, 255);
}

export function renderPagerDutyEvent(p: DriftEventPayload | GateRefusedPayload, routingKey: string): PagerDutyEvent {
  if (p.event === "gate_refused") return renderGateRefused(p, routingKey);
  const dedupKey = pagerDutyDedupKey(p);
  if (p.event === "drift_resolved") return { routing_key: routingKey, event_action: "resolve", dedup_key: dedupKey };
  const url = safeHttpUrl(p.url);
  return {
    routing_key: routingKey,
    event_action: "trigger",
    dedup_key: dedupKey,
    payload: {
      summary: singleLine(`${driftTitle(p)}: ${driftSubject(p)}. ${driftSentence(p)}`, 1024),
      source: singleLine(`${p.service} in ${p.environment}`, 255),
      severity: PAGERDUTY_SEVERITY[urgencyOf(p)],
      timestamp: p.occurred_at,
      component: p.service,
      group: p.environment,
      class: p.kind,
      custom_details: { workspace: p.workspace, team: p.team, running: p.running, expected: p.expected, opened_at: p.opened_at, event_id: p.id },
    },
    client: "Driftwatch",
    ...(url ? { client_url: url } : {}),
    links: url ? [{ href: url, text: `${p.service} in Driftwatch` }] : [],
  };
}

/** One alert per refused version in one environment, across repeats. */
export function gateRefusedDedupKey(p: GateRefusedPayload): string {
  return `gate_refused/${p.workspace}/${p.service}/${p.environment}/${p.version ?? p.image ?? ""}`.slice(0, 255);
}

function renderGateRefused(p: GateRefusedPayload, routingKey: string): PagerDutyTrigger {
  const url = safeHttpUrl(p.url);
  return {
    routing_key: routingKey,
    event_action: "trigger",
    dedup_key: gateRefusedDedupKey(p),
    payload: {
      summary: singleLine(gateRefusedLine(p), 1024),
      source: singleLine(`${gateRefusedSubject(p)} in ${p.environment}`, 255),
      severity: PAGERDUTY_SEVERITY[urgencyOf(p)],
      timestamp: p.decided_at,
      component: p.service,
      group: p.environment,
      class: "gate_refused",
      custom_details: {
        workspace: p.workspace, team: p.team, version: p.version, image: p.image ?? null, mode: p.mode,
        reasons: p.reasons.map((r) => r.code).join(", "), decided_at: p.decided_at, event_id: p.id,
      },
    },
    client: "Driftwatch",
    ...(url ? { client_url: url } : {}),
    links: url ? [{ href: url, text: `${p.service} in Driftwatch` }] : [],
  };
}
