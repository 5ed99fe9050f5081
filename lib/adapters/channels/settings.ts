// A rule's settings as given (native, or `{url}` written as a Shoutrrr
// address) turned into the channel's stored settings, or the problems with
// them as JSON pointers under /config. Messages never echo a value.
import type { NotificationEvent } from "@/lib/domain/notifications/payloads";
import { CHANNEL_TABLE, channelDefinition, isChannel, type Channel } from "./table";

export type SettingsProblem = { pointer: string; detail: string };
export type ParsedSettings = { ok: true; settings: Record<string, unknown> } | { ok: false; problems: SettingsProblem[] };

const SHOUTRRR_SCHEMES = new Map(
  Object.entries(CHANNEL_TABLE).flatMap(([channel, def]) => (def.shoutrrr ? [[def.shoutrrr.scheme, channel] as const] : [])),
);

function shoutrrrScheme(url: string): string | null {
  const m = /^([a-z][a-z0-9+.-]*):\/\//i.exec(url);
  const scheme = m?.[1]?.toLowerCase();
  return scheme && SHOUTRRR_SCHEMES.has(scheme) ? scheme : null;
}

export function parseChannelSettings(channel: Channel, raw: unknown): ParsedSettings {
  const def = channelDefinition(channel);
  let input: unknown = raw;
  const url = raw && typeof raw === "object" && typeof (raw as { url?: unknown }).url === "string" ? (raw as { url: string }).url : null;
  const scheme = url === null ? null : shoutrrrScheme(url);
  if (url !== null && scheme !== null) {
    if (def.shoutrrr?.scheme !== scheme) {
      return { ok: false, problems: [{ pointer: "/config/url", detail: `a ${scheme}:// address belongs to a ${SHOUTRRR_SCHEMES.get(scheme)} rule` }] };
    }
    let parsedUrl: URL;
    try {
      parsedUrl = new URL(url);
    } catch {
      return { ok: false, problems: [{ pointer: "/config/url", detail: `is not a valid ${scheme}:// Shoutrrr address` }] };
    }
    let converted;
    try {
      converted = def.shoutrrr.parse(parsedUrl);
    } catch {
      // decodeURIComponent on a malformed escape
      converted = { ok: false as const, detail: `is not a valid ${scheme}:// Shoutrrr address` };
    }
    if (!converted.ok) return { ok: false, problems: [{ pointer: "/config/url", detail: `Shoutrrr address: ${converted.detail}` }] };
    const { url: _shoutrrr, ...rest } = raw as Record<string, unknown>;
    input = { ...rest, ...converted.settings };
  }
  const parsed = def.schema.safeParse(input);
  if (!parsed.success) {
    return {
      ok: false,
      problems: parsed.error.issues.map((i) => ({ pointer: `/config${i.path.map((p) => `/${String(p)}`).join("")}`, detail: i.message })),
    };
  }
  return { ok: true, settings: parsed.data };
}

/** The events a channel can carry; an empty rule list means drift detected and resolved. */
export function channelCarries(channel: Channel, event: NotificationEvent): boolean {
  const events = channelDefinition(channel).events;
  return events === undefined || events.includes(event);
}

export function channelResolvesIncidents(channel: string): boolean {
  return isChannel(channel) && channelDefinition(channel).opensIncidents === true;
}
