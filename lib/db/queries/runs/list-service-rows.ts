// The workspace's services as drift reads them, without their rows: to split the evaluation into ranges.
import type { Db } from "@/lib/db/client";
import { servicesDocument, type ServiceRow } from "./list-current-runs";

export async function listServiceRows(db: Db, workspaceId: string): Promise<ServiceRow[]> {
  const [row] = await db.$queryRaw<{ j: string }[]>`SELECT (${servicesDocument(workspaceId)}) AS j`;
  return JSON.parse(row?.j ?? "[]") as ServiceRow[];
}
