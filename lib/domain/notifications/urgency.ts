// How loudly a notification should ring, for channels that have a notion of
// it (colour, priority, severity). One scale, mapped per channel.
import type { DriftKind } from "@/lib/domain/policy";
import type { NotificationPayload } from "./payloads";

export type Urgency = "high" | "medium" | "low" | "resolved";

/** End of life is the one drift that can become a security problem; a release behind upstream is the mildest. */
const KIND_URGENCY: Record<DriftKind, Urgency> = {
  eol: "high",
  env: "medium",
  inconsistent: "medium",
  declared: "medium",
  upstream: "low",
};

export function urgencyOf(payload: NotificationPayload): Urgency {
  switch (payload.event) {
    case "drift_resolved":
      return "resolved";
    case "drift_detected":
      return KIND_URGENCY[payload.kind] ?? "medium";
    case "upgrade_plan":
      return payload.items.some((i) => i.reason === "eol_passed") ? "medium" : "low";
    case "gate_refused":
      // A deploy was stopped as configured: someone waits on it, nothing is broken.
      return "medium";
  }
}
