// What a channel is: its settings (a zod schema, optionally written as a
// Shoutrrr address), which events it can carry, how its settings are shown
// again and checked, and how it sends. Each channel is a folder exporting one
// of these; table.ts lists them.
import type { z } from "zod";
import type { DeliveryResult } from "@/lib/domain/notifications/retry";
import type { NotificationEvent, NotificationPayload } from "@/lib/domain/notifications/payloads";
import type { Resolve } from "@/lib/net/destination";

export type SendContext<C> = {
  config: C;
  payload: NotificationPayload;
  /** Stable across retries of one delivery: the receiver's idempotency key. */
  deliveryId: string;
  now: Date;
  /** DRIFTWATCH_SMTP_URL, for e-mail. */
  smtpUrl?: string | undefined;
  /** Sender for e-mail; default from the SMTP URL's `?from=`, else Driftwatch <driftwatch@localhost>. */
  emailFrom?: string | undefined;
  /** An administrator's permission to deliver to private networks. */
  allowPrivate: boolean;
  resolve?: Resolve | undefined;
  timeoutMs?: number | undefined;
};

/** A settings field as the form shows it. */
export type ChannelField = {
  name: string;
  label: string;
  help: string;
  placeholder?: string;
  secret?: boolean;
  optional?: boolean;
  /** `list`: comma-separated into an array; `checkbox`: a boolean. */
  type?: "text" | "list" | "checkbox";
};

/** An address in the settings that the outbound guard checks when the rule is saved (and again at send time). */
export type ChannelDestination = { pointer: string; url: string; schemes?: readonly string[]; allowCredentials?: boolean };

/** A Shoutrrr address turned into settings, or what is wrong with it (pointer under `/config`). */
export type ShoutrrrResult = { ok: true; settings: Record<string, unknown> } | { ok: false; detail: string };

export type ChannelDefinition<C = Record<string, unknown>> = {
  /** "Microsoft Teams": the form's option and the rule list's pill. */
  label: string;
  /** Lower-case in a sentence: "Invalid Teams settings". */
  noun: string;
  /** One line of help under the channel's fields. */
  help: string;
  schema: z.ZodType<C>;
  fields: readonly ChannelField[];
  /** `{url}` in this scheme is read as a Shoutrrr address. */
  shoutrrr?: { scheme: string; parse: (url: URL) => ShoutrrrResult };
  /** The events it can carry; all when absent. */
  events?: readonly NotificationEvent[];
  /** A detected drift opens an incident that its resolution closes (the test send closes its sample). */
  opensIncidents?: boolean;
  /** Needs DRIFTWATCH_SMTP_URL on the server. */
  needsSmtp?: boolean;
  /** Settings as shown again: secrets masked. Gets the stored settings, parsed or not. */
  mask: (config: Record<string, unknown>) => Record<string, unknown>;
  /** Every value in the stored settings that must never reach a message or a log. */
  secrets: (config: Record<string, unknown>) => string[];
  destinations: (config: C) => ChannelDestination[];
  send: (ctx: SendContext<C>) => Promise<DeliveryResult>;
};

/** A channel's settings type checks its own functions; the table holds them erased (settings are parsed before use). */
export type AnyChannelDefinition = ChannelDefinition<Record<string, unknown>>;

export function defineChannel<C>(definition: ChannelDefinition<C>): AnyChannelDefinition {
  return definition as unknown as AnyChannelDefinition;
}

export const MASK = "********";

/** `https://hooks.example.com/***`: enough to recognise the destination, nothing that may be a secret. */
export function maskUrl(raw: unknown): string {
  if (typeof raw !== "string") return MASK;
  try {
    const url = new URL(raw);
    const hasMore = url.pathname.length > 1 || url.search !== "";
    return `${url.protocol}//${url.host}${hasMore ? "/***" : "/"}`;
  } catch {
    return MASK;
  }
}

/** The address with its password (if any) masked: for addresses whose path is no secret. */
export function maskPassword(raw: unknown): string {
  if (typeof raw !== "string") return MASK;
  try {
    const url = new URL(raw);
    if (url.password) url.password = "***";
    url.search = url.search ? "?***" : "";
    return url.href;
  } catch {
    return MASK;
  }
}

/** `value` if it is a string, else nothing: for secrets() over unparsed settings. */
export const str = (value: unknown): string[] => (typeof value === "string" && value !== "" ? [value] : []);

/** A string field shown as stored, or dropped. */
export function shown(config: Record<string, unknown>, ...names: string[]): Record<string, unknown> {
  return Object.fromEntries(names.filter((n) => config[n] !== undefined).map((n) => [n, config[n]]));
}
