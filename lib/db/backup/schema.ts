// What a backup covers, read from the catalog rather than listed by hand, so a
// table added by a later migration is backed up without touching this code.
import type pg from "pg";

export const MIGRATIONS_TABLE = "_prisma_migrations";

/**
 * Not backed up: the migrations table (the header lists the migrations), the notes of recent
 * writing transactions that cached insights are checked against (insight_writes), and the markers of
 * the last drift evaluations (drift_evaluations), labelled with transaction snapshots. Their
 * transaction ids belong to the cluster they were taken on; the migrations that create them set
 * them up afresh on restore, and a workspace with no marker is evaluated at the next tick.
 */
export const NOT_BACKED_UP = [MIGRATIONS_TABLE, "insight_writes", "insight_writes_pruned", "drift_evaluations"];

/** The same session settings on both ends, so COPY text round-trips exactly (as pg_dump does). */
export const COPY_SESSION_SETTINGS = "SET DateStyle = ISO, YMD; SET IntervalStyle = postgres; SET TimeZone = 'UTC'; SET extra_float_digits = 3; SET bytea_output = hex";

export const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** Application tables of the current schema, parents before the tables that reference them. */
export async function listTablesInLoadOrder(client: pg.ClientBase): Promise<string[]> {
  const tables = await client.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') AND NOT c.relispartition AND c.relname <> ALL($1)
     ORDER BY c.relname`,
    [NOT_BACKED_UP],
  );
  const edges = await client.query<{ child: string; parent: string }>(
    `SELECT ch.relname AS child, pa.relname AS parent FROM pg_constraint k
     JOIN pg_class ch ON ch.oid = k.conrelid JOIN pg_class pa ON pa.oid = k.confrelid
     JOIN pg_namespace n ON n.oid = ch.relnamespace
     WHERE k.contype = 'f' AND n.nspname = current_schema() AND ch.oid <> pa.oid`,
  );
  return orderByDependencies(tables.rows.map((r) => r.name), [...edges.rows, ...KEPT_BY_TRIGGERS]);
}

/**
 * References kept by triggers rather than foreign keys, which the catalog does not list as such: history
 * rows are checked against their service, environment and target per statement (prisma/migrations/
 * 20261125161121_runs_checked_per_statement), so those load first.
 */
const KEPT_BY_TRIGGERS = [
  { child: "runs", parent: "services" },
  { child: "runs", parent: "environments" },
  { child: "runs", parent: "targets" },
];

/** Topological order, alphabetical among equals; tables caught in a cycle come last, alphabetically. */
export function orderByDependencies(tables: string[], edges: { child: string; parent: string }[]): string[] {
  const names = new Set(tables);
  const parents = new Map(tables.map((t) => [t, new Set<string>()]));
  for (const e of edges) if (names.has(e.child) && names.has(e.parent)) parents.get(e.child)!.add(e.parent);
  const done = new Set<string>();
  const order: string[] = [];
  for (;;) {
    const ready = [...names].filter((t) => !done.has(t) && [...parents.get(t)!].every((p) => done.has(p))).sort();
    if (ready.length === 0) break;
    for (const t of ready) {
      done.add(t);
      order.push(t);
    }
  }
  return [...order, ...[...names].filter((t) => !done.has(t)).sort()];
}

/** Columns COPY can write back (generated columns are computed again). */
export async function listCopyColumns(client: pg.ClientBase, table: string): Promise<string[]> {
  const r = await client.query<{ name: string }>(
    `SELECT column_name AS name FROM information_schema.columns
     WHERE table_schema = current_schema() AND table_name = $1 AND is_generated = 'NEVER'
     ORDER BY ordinal_position`,
    [table],
  );
  return r.rows.map((x) => x.name);
}

export async function readSequences(client: pg.ClientBase): Promise<{ name: string; last_value: string; is_called: boolean }[]> {
  const r = await client.query<{ name: string; last_value: string | null; is_called: boolean }>(
    `SELECT s.sequencename AS name, s.last_value::text AS last_value, (s.last_value IS NOT NULL) AS is_called
     FROM pg_sequences s WHERE s.schemaname = current_schema() ORDER BY s.sequencename`,
  );
  // pg_sequences shows NULL until the first nextval; the sequence's own row has the start value.
  const out: { name: string; last_value: string; is_called: boolean }[] = [];
  for (const s of r.rows) {
    if (s.last_value !== null) out.push({ name: s.name, last_value: s.last_value, is_called: true });
    else {
      const own = await client.query<{ last_value: string }>(`SELECT last_value::text AS last_value FROM ${quoteIdent(s.name)}`);
      out.push({ name: s.name, last_value: own.rows[0]!.last_value, is_called: false });
    }
  }
  return out;
}

/** Tables that hold at least one row (the migrations record does not count). */
export async function tablesWithRows(client: pg.ClientBase): Promise<string[]> {
  const tables = await listTablesInLoadOrder(client);
  const nonEmpty: string[] = [];
  for (const t of tables) {
    const r = await client.query(`SELECT 1 FROM ${quoteIdent(t)} LIMIT 1`);
    if (r.rowCount) nonEmpty.push(t);
  }
  return nonEmpty;
}

/**
 * Drop everything the migrations create in the current schema (tables, views,
 * sequences, types, functions), leaving the schema itself and anything an
 * extension owns. Runs inside the caller's transaction.
 */
export async function dropSchemaObjects(client: pg.ClientBase) {
  const notFromExtension = (catalog: string, oid: string) =>
    `NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = '${catalog}'::regclass AND d.objid = ${oid} AND d.deptype = 'e')`;
  const rels = await client.query<{ name: string; relkind: string }>(
    `SELECT c.relname AS name, c.relkind::text AS relkind FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p', 'v', 'm', 'S', 'f') AND ${notFromExtension("pg_class", "c.oid")}`,
  );
  const byKind = (kinds: string[]) => rels.rows.filter((r) => kinds.includes(r.relkind)).map((r) => quoteIdent(r.name));
  const statements: [string, string[]][] = [
    ["DROP VIEW IF EXISTS", byKind(["v"])],
    ["DROP MATERIALIZED VIEW IF EXISTS", byKind(["m"])],
    ["DROP FOREIGN TABLE IF EXISTS", byKind(["f"])],
    ["DROP TABLE IF EXISTS", byKind(["r", "p"])],
    ["DROP SEQUENCE IF EXISTS", byKind(["S"])],
  ];
  const types = await client.query<{ name: string; typtype: string }>(
    `SELECT t.typname AS name, t.typtype::text AS typtype FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace
     LEFT JOIN pg_class c ON c.oid = t.typrelid
     WHERE n.nspname = current_schema() AND (t.typtype IN ('e', 'r', 'd') OR (t.typtype = 'c' AND c.relkind = 'c'))
       AND ${notFromExtension("pg_type", "t.oid")}`,
  );
  const ownTypes = types.rows.filter((t) => t.typtype !== "d").map((t) => quoteIdent(t.name));
  const domains = types.rows.filter((t) => t.typtype === "d").map((t) => quoteIdent(t.name));
  const routines = await client.query<{ signature: string }>(
    `SELECT p.oid::regprocedure::text AS signature FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
     WHERE n.nspname = current_schema() AND p.prokind IN ('f', 'p') AND ${notFromExtension("pg_proc", "p.oid")}`,
  );
  statements.push(["DROP DOMAIN IF EXISTS", domains], ["DROP TYPE IF EXISTS", ownTypes], ["DROP ROUTINE IF EXISTS", routines.rows.map((r) => r.signature)]);
  for (const [verb, names] of statements) {
    if (names.length > 0) await client.query(`${verb} ${names.join(", ")} CASCADE`);
  }
}
