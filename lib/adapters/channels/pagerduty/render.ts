// PagerDuty Events API v2: drift_detected triggers an alert, drift_resolved
// resolves it. The drift's id is the dedup key, so the incident a drift
// opened closes when that drift does.
import type { DriftEventPayload } from "@/lib/domain/notifications/payloads";
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

export function renderPagerDutyEvent(p: DriftEventPayload, routingKey: string): PagerDutyEvent {
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
