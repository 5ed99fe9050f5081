// The outside world an upstream check talks to: one registry, forge and
// end-of-life client per process (the entry points build them).
import type { EolClient } from "@/lib/adapters/eol";
import type { createForgeClients } from "@/lib/adapters/forges";
import type { RegistryClient } from "@/lib/adapters/registries/client";

export type UpstreamClients = {
  registry: RegistryClient;
  forges: ReturnType<typeof createForgeClients>;
  eol: EolClient;
};
