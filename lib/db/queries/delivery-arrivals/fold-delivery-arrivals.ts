import type { DbTx } from "@/lib/db/client";

export type Arrival = { serviceId: string; environmentId: string; version: string; first: Date; last: Date };

/** Widens each version's first and last moment in its environment to cover these, creating the rows that are missing. */
export async function foldDeliveryArrivals(db: DbTx, workspaceId: string, arrivals: readonly Arrival[]): Promise<void> {
  await db.$executeRaw`
          INSERT INTO delivery_arrivals (workspace_id, service_id, environment_id, version, first_from, last_to)
          SELECT ${workspaceId}::uuid, a.service_id, a.environment_id, a.version, a.first_from, a.last_to
          FROM unnest(${arrivals.map((a) => a.serviceId)}::uuid[], ${arrivals.map((a) => a.environmentId)}::uuid[], ${arrivals.map((a) => a.version)}::text[],
                      ${arrivals.map((a) => a.first)}::timestamptz[], ${arrivals.map((a) => a.last)}::timestamptz[])
            AS a(service_id, environment_id, version, first_from, last_to)
          ON CONFLICT (service_id, environment_id, version) DO UPDATE
            SET first_from = least(delivery_arrivals.first_from, excluded.first_from), last_to = greatest(delivery_arrivals.last_to, excluded.last_to)`;
}
