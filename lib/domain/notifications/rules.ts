// Which notifications a rule receives. Every filter list left empty means
// "all", except that the weekly upgrade plan and gate refusals are sent only
// to rules that name them: an empty event list means every drift event.
import { z } from "zod";
import { DRIFT_KINDS, type DriftKind } from "@/lib/domain/policy";
import {
  DRIFT_EVENTS,
  NOTIFICATION_EVENTS,
  type NotificationEvent,
  type NotificationPayload,
  type UpgradePlanItem,
  type UpgradeReason,
} from "./payloads";

export type NotificationRuleFilter = {
  events: readonly string[];
  kinds: readonly string[];
  services: readonly string[];
  environments: readonly string[];
  teams: readonly string[];
};

const names = z.array(z.string().min(1).max(200)).max(100).default([]);

export const ruleFilterSchema = z.object({
  events: z.array(z.enum(NOTIFICATION_EVENTS)).max(NOTIFICATION_EVENTS.length).default([]),
  kinds: z.array(z.enum(DRIFT_KINDS)).max(DRIFT_KINDS.length).default([]),
  services: names,
  environments: names,
  teams: names,
});

/** The drift kind behind each reason of the updates list, so `kinds` filters plans too. */
export const REASON_KIND: Record<UpgradeReason, DriftKind> = {
  eol_passed: "eol",
  eol_soon: "eol",
  major: "upstream",
  minor: "upstream",
  patch: "upstream",
  behind_previous_env: "env",
};

const allows = (list: readonly string[], value: string | null) =>
  list.length === 0 || (value !== null && list.includes(value));

function subscribes(rule: NotificationRuleFilter, event: NotificationEvent): boolean {
  if (rule.events.length === 0) return (DRIFT_EVENTS as readonly string[]).includes(event);
  return rule.events.includes(event);
}

function itemMatches(rule: NotificationRuleFilter, item: UpgradePlanItem): boolean {
  return (
    allows(rule.kinds, REASON_KIND[item.reason]) &&
    allows(rule.services, item.service) &&
    allows(rule.environments, item.environment) &&
    allows(rule.teams, item.team)
  );
}

/**
 * The payload this rule should receive, or null. A drift event passes whole
 * or not at all; an upgrade plan keeps the items the rule's filters allow and
 * is dropped when none is left.
 */
export function payloadForRule(rule: NotificationRuleFilter, payload: NotificationPayload): NotificationPayload | null {
  if (!subscribes(rule, payload.event)) return null;
  if (payload.event === "upgrade_plan") {
    const items = payload.items.filter((item) => itemMatches(rule, item));
    return items.length === 0 ? null : { ...payload, items };
  }
  if (payload.event === "gate_refused") {
    // `kinds` names drift kinds; a refusal is none, so only the other filters apply.
    const matches = allows(rule.services, payload.service) && allows(rule.environments, payload.environment) && allows(rule.teams, payload.team);
    return matches ? payload : null;
  }
  const matches =
    allows(rule.kinds, payload.kind) &&
    allows(rule.services, payload.service) &&
    allows(rule.environments, payload.environment) &&
    allows(rule.teams, payload.team);
  return matches ? payload : null;
}

export function ruleMatches(rule: NotificationRuleFilter, payload: NotificationPayload): boolean {
  return payloadForRule(rule, payload) !== null;
}
