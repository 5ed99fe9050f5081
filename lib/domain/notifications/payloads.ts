// What a notification carries, whatever the channel: the JSON a webhook
// receives, and the input of every renderer. Field names are snake_case and
// timestamps RFC 3339 in UTC, like the REST API.
import type { GateMode, GateReason } from "@/lib/domain/gate";
import type { DriftKind } from "@/lib/domain/policy";
import { GATE_REFUSED_NAME } from "@/lib/domain/words";

export const DRIFT_EVENTS = ["drift_detected", "drift_resolved"] as const;
export type DriftEvent = (typeof DRIFT_EVENTS)[number];

export const NOTIFICATION_EVENTS = [...DRIFT_EVENTS, "upgrade_plan", "gate_refused"] as const;
export type NotificationEvent = (typeof NOTIFICATION_EVENTS)[number];

export type DriftState = "open" | "announced" | "resolved";

export const UPGRADE_REASONS = ["eol_passed", "eol_soon", "major", "minor", "behind_previous_env", "patch"] as const;
export type UpgradeReason = (typeof UPGRADE_REASONS)[number];

export type DriftEventPayload = {
  event: DriftEvent;
  /** The event id: the same event delivered twice has the same id. */
  id: string;
  /** The drift's id, shared by its detected and resolved events (absent in events stored before it was added). */
  drift_id?: string;
  occurred_at: string;
  workspace: string;
  service: string;
  team: string | null;
  environment: string;
  kind: DriftKind;
  state: DriftState;
  running: string | null;
  expected: string | null;
  opened_at: string;
  announced_at: string | null;
  resolved_at: string | null;
  /** `{base_url}/services/<service>` */
  url: string;
};

export type UpgradePlanItem = {
  service: string;
  environment: string;
  running: string | null;
  target_version: string | null;
  reason: UpgradeReason;
  release_notes_url: string | null;
  /** Not in the minimum shape; rules filter on it. */
  team: string | null;
  production: boolean;
};

export type UpgradePlanPayload = {
  event: "upgrade_plan";
  id: string;
  occurred_at: string;
  workspace: string;
  /** `{base_url}/updates` */
  url: string;
  items: UpgradePlanItem[];
};

/** One refusal of the promotion gate (enforce mode): a deploy was stopped. */
export type GateRefusedPayload = {
  event: "gate_refused";
  id: string;
  workspace: string;
  service: string;
  environment: string;
  /** The exact version judged; null when it could not be worked out from the image. */
  version: string | null;
  /** The image reference asked about, when the question named one. */
  image?: string;
  mode: GateMode;
  reasons: GateReason[];
  decided_at: string;
  /** `{base_url}/services/<service>` */
  url: string;
  /** Not in the minimum shape; rules filter on it. */
  team: string | null;
};

export type NotificationPayload = DriftEventPayload | UpgradePlanPayload | GateRefusedPayload;

export function isDriftEvent(payload: NotificationPayload): payload is DriftEventPayload {
  return payload.event === "drift_detected" || payload.event === "drift_resolved";
}

function joinUrl(baseUrl: string, path: string): string {
  return `${baseUrl.replace(/\/+$/, "")}${path}`;
}

export function serviceUrl(baseUrl: string, service: string): string {
  return joinUrl(baseUrl, `/services/${encodeURIComponent(service)}`);
}

export function updatesUrl(baseUrl: string): string {
  return joinUrl(baseUrl, "/updates");
}

const rfc3339 = (d: Date) => d.toISOString();
const rfc3339OrNull = (d: Date | null | undefined) => (d ? d.toISOString() : null);

export type DriftEventInput = {
  event: DriftEvent;
  eventId: string;
  occurredAt: Date;
  workspace: string;
  baseUrl: string;
  drift: {
    /** Absent for a sample (test send). */
    id?: string | undefined;
    service: string;
    team: string | null;
    environment: string;
    kind: DriftKind;
    state: DriftState;
    running: string | null;
    expected: string | null;
    openedAt: Date;
    announcedAt: Date | null;
    resolvedAt: Date | null;
  };
};

export function buildDriftEventPayload(input: DriftEventInput): DriftEventPayload {
  const { drift } = input;
  return {
    event: input.event,
    id: input.eventId,
    ...(drift.id === undefined ? {} : { drift_id: drift.id }),
    occurred_at: rfc3339(input.occurredAt),
    workspace: input.workspace,
    service: drift.service,
    team: drift.team,
    environment: drift.environment,
    kind: drift.kind,
    state: drift.state,
    running: drift.running,
    expected: drift.expected,
    opened_at: rfc3339(drift.openedAt),
    announced_at: rfc3339OrNull(drift.announcedAt),
    resolved_at: rfc3339OrNull(drift.resolvedAt),
    url: serviceUrl(input.baseUrl, drift.service),
  };
}

/** A line of the updates list, as far as the plan needs it. */
export type UpgradePlanLine = {
  service: string;
  environment: string;
  team?: string | null | undefined;
  production?: boolean | undefined;
  running: string | null;
  target_version: string | null;
  reason: UpgradeReason;
  release_notes_url: string | null;
};

export type UpgradePlanInput = {
  planId: string;
  occurredAt: Date;
  workspace: string;
  baseUrl: string;
  /** In the updates list's order (most urgent first); acknowledged lines left out. */
  lines: readonly UpgradePlanLine[];
};

export function buildUpgradePlanPayload(input: UpgradePlanInput): UpgradePlanPayload {
  return {
    event: "upgrade_plan",
    id: input.planId,
    occurred_at: rfc3339(input.occurredAt),
    workspace: input.workspace,
    url: updatesUrl(input.baseUrl),
    items: input.lines.map((line) => ({
      service: line.service,
      environment: line.environment,
      running: line.running,
      target_version: line.target_version,
      reason: line.reason,
      release_notes_url: line.release_notes_url,
      team: line.team ?? null,
      production: line.production ?? false,
    })),
  };
}

export type GateRefusedInput = {
  eventId: string;
  decidedAt: Date;
  workspace: string;
  baseUrl: string;
  service: string;
  team: string | null;
  environment: string;
  version: string | null;
  image?: string | undefined;
  mode: GateMode;
  reasons: readonly GateReason[];
};

export function buildGateRefusedPayload(input: GateRefusedInput): GateRefusedPayload {
  return {
    event: "gate_refused",
    id: input.eventId,
    workspace: input.workspace,
    service: input.service,
    environment: input.environment,
    version: input.version,
    ...(input.image === undefined ? {} : { image: input.image }),
    mode: input.mode,
    reasons: input.reasons.map((r) => ({ code: r.code, detail: r.detail })),
    decided_at: rfc3339(input.decidedAt),
    url: serviceUrl(input.baseUrl, input.service),
    team: input.team,
  };
}

/** What was refused, in a few words: `web 3.0.0`, or the image when its version is not known. */
export function gateRefusedSubject(payload: GateRefusedPayload): string {
  return `${payload.service} ${payload.version ?? payload.image ?? "(unknown version)"}`;
}

/** A title for channels that have one: `Gate refused: web 3.0.0 in production`. */
export function gateRefusedTitle(payload: GateRefusedPayload): string {
  return `${GATE_REFUSED_NAME}: ${gateRefusedSubject(payload)} in ${payload.environment}`;
}

/** The one line every channel shows: `Gate refused web 3.0.0 in production: 20 hours of soak left in staging …`. */
export function gateRefusedLine(payload: GateRefusedPayload): string {
  const why = payload.reasons.map((r) => r.detail.replace(/\.$/, "")).join("; ");
  return `${GATE_REFUSED_NAME} ${gateRefusedSubject(payload)} in ${payload.environment}${why ? `: ${why}` : ""}`;
}
