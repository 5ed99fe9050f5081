// `eol` drift: the cycle of a version that runs ends within 60 days, or has
// ended. Where several versions run, the cycle that ends first counts. Once
// the end has passed, the drift dates from the end-of-life day itself (or from
// when that version began running there, if later): one date on every page.
import { EOL_SOON_DAYS } from "@/lib/domain/eol";
import type { DetectContext } from "./detect-context";
import { listVersions, maxDate } from "./runs";
import type { Difference } from "./types";

const DAY_MS = 86_400_000;
const SOON_MS = EOL_SOON_DAYS * DAY_MS;

export function detectEolDrift(ctx: DetectContext): Difference[] {
  const out: Difference[] = [];
  const now = ctx.now.getTime();
  for (const [serviceId, byEnv] of ctx.runs) {
    const service = ctx.services.get(serviceId);
    if (service === undefined || service.eol.size === 0) continue;
    for (const env of byEnv.values()) {
      let first: { version: string; since: Date; eol: number } | null = null;
      for (const { version, since } of listVersions(env.effective)) {
        const eol = service.eol.get(version)?.eolDate?.getTime();
        if (eol === undefined) continue;
        const isEarlier = first === null || eol < first.eol || (eol === first.eol && (ctx.compare(version, first.version) ?? 0) < 0);
        if (isEarlier) first = { version, since, eol };
      }
      if (first === null || first.eol - now > SOON_MS) continue;
      out.push({
        serviceId,
        environmentId: env.environmentId,
        kind: "eol",
        targetId: null,
        running: first.version,
        expected: null,
        since: maxDate(new Date(now >= first.eol ? first.eol : first.eol - SOON_MS), first.since),
        reason: now >= first.eol ? "eol_passed" : "eol_soon",
      });
    }
  }
  return out;
}
