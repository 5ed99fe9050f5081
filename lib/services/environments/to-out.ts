// An environment as the API shows it.
import type { z } from "zod";
import { gateSettingsOf, gateSettingsOut } from "@/lib/domain/gate";
import type { environmentSchema } from "./schemas";

export type EnvironmentOut = z.infer<typeof environmentSchema>;

export function toEnvironmentOut(e: { name: string; position: number; production: boolean; gate?: unknown; _count: { targets: number } }): EnvironmentOut {
  return { name: e.name, position: e.position, production: e.production, targets: e._count.targets, gate: gateSettingsOut(gateSettingsOf(e.gate ?? null)) };
}
