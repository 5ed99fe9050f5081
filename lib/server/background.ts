// Work that runs beside the web server (and alone in `driftwatch worker`):
// the scheduler's ticks. Each tick is a plain function; this file only times them.
import type { Config } from "@/lib/config";

export type BackgroundWork = { stop: () => Promise<void> };

export async function startBackgroundWork(_opts: { config: Config; databaseUrl: string }): Promise<BackgroundWork> {
  return { stop: async () => {} };
}
