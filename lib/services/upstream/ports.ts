// What the upstream use cases need from outside: a registry, forge and
// end-of-life client (built once per process at the edge, lib/server), the
// database, the configuration and the clock.
import type { ChartIndexClient } from "@/lib/adapters/charts/classic/client";
import type { EolClient } from "@/lib/adapters/eol";
import type { ForgeClients } from "@/lib/adapters/forges";
import type { RegistryClient } from "@/lib/adapters/registries/client";
import type { Config } from "@/lib/config";
import type { Db } from "@/lib/db/client";

/** `charts`: classic Helm chart repositories; built on first use when absent. */
export type UpstreamClients = { registry: RegistryClient; forges: ForgeClients; eol: EolClient; charts?: ChartIndexClient };

export type CheckDeps = { db: Db; config: Config; clients: UpstreamClients; now: Date };
