// The calendar behind a public, signed address.
import { getSigningKey } from "@/lib/db/queries/calendar/get-signing-key";
import { findWorkspaceName } from "@/lib/db/queries/workspaces/find-workspace-name";
import type { CalendarEvent } from "@/lib/domain/calendar";
import type { RequestCtx } from "../context";
import { isSameSignature } from "../badges/keys";
import { signCalendar } from "./address";
import { listCalendarEvents } from "./list-events";

/**
 * The workspace's name and events, or null when the key id or the signature is
 * wrong (or stale after a reset): callers answer 404 without saying which.
 */
export async function loadSignedCalendar({
  ctx: deps,
  input,
}: {
  ctx: Pick<RequestCtx, "db" | "config" | "now">;
  input: { keyId: string; sig: string };
}): Promise<{ workspace: string; events: CalendarEvent[] } | null> {
  const key = await getSigningKey(deps.db, input.keyId);
  // An unknown key id still costs one HMAC, so timing does not tell the parts apart.
  const expected = signCalendar(key?.secret ?? "", key?.workspaceId ?? "");
  if (!isSameSignature(input.sig, expected) || !key) return null;
  const workspace = await findWorkspaceName(deps.db, key.workspaceId);
  if (workspace === null) return null;
  const ctx: RequestCtx = { ...deps, actor: { kind: "system", workspaceId: key.workspaceId } };
  return { workspace, events: await listCalendarEvents({ ctx }) };
}
