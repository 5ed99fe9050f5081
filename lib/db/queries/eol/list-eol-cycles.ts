import type { Db } from "@/lib/db/client";
import type { EolCycle } from "@/lib/domain/eol";

/** product → its cycles, of cached products, following renames. */
export async function listEolCycles(db: Db, names: string[]): Promise<Map<string, EolCycle[]>> {
  const out = new Map<string, EolCycle[]>();
  let pending = [...new Set(names)];
  for (let hop = 0; hop < 3 && pending.length; hop++) {
    const rows = await db.eolProduct.findMany({ where: { name: { in: pending } } });
    pending = [];
    for (const row of rows) {
      if (row.movedTo) pending.push(row.movedTo);
      const releases = (row.data as { releases?: EolCycle[] } | null)?.releases;
      if (Array.isArray(releases)) out.set(row.name, releases);
    }
    for (const row of rows) if (row.movedTo && out.has(row.movedTo)) out.set(row.name, out.get(row.movedTo)!);
  }
  return out;
}
