// Applies a lifecycle plan inside the evaluation's transaction with a handful
// of set-based statements (no per-row round trips), and writes one outbox
// event per lifecycle event. Events are keyed `drift_detected:<drift id>` /
// `drift_resolved:<drift id>` and inserted ON CONFLICT DO NOTHING, so applying
// the same outcome twice emits nothing new.
import type { SqlTx } from "@/lib/db/client";
import { liftAcks } from "@/lib/db/queries/acks/lift-acks";
import { announceDrifts } from "@/lib/db/queries/drifts/announce-drifts";
import { openDrifts, type OpenDriftRow } from "@/lib/db/queries/drifts/open-drifts";
import { resolveDrifts } from "@/lib/db/queries/drifts/resolve-drifts";
import { updateDrifts } from "@/lib/db/queries/drifts/update-drifts";
import { createEventsOnce, type OutboxEventRow } from "@/lib/db/queries/notifications/create-events-once";
import type { DriftEvent, DriftRecord, LifecyclePlan } from "@/lib/domain/drift";
import { driftKeyOf } from "@/lib/domain/drift";
import { buildDriftEventPayload, type DriftState } from "@/lib/domain/notifications";

export type PlanNames = {
  workspace: string;
  baseUrl: string;
  services: ReadonlyMap<string, { name: string; team: string | null }>;
  environments: ReadonlyMap<string, string>;
};

export type PersistInput = {
  workspaceId: string;
  plan: LifecyclePlan;
  records: readonly DriftRecord[];
  lifted: readonly { id: string }[];
  names: PlanNames;
  now: Date;
  newId: () => string;
  /** Rows a statement writes at most (default WRITE_CHUNK_ROWS). */
  chunkRows?: number;
};

type Lookup = {
  records: ReadonlyMap<string, DriftRecord>;
  opened: ReadonlyMap<string, LifecyclePlan["toOpen"][number]>;
  openedIds: ReadonlyMap<string, string>;
  /** When each resolved record ends, by id (a lookup per event, not a search: thousands may resolve at once). */
  resolvedAt: ReadonlyMap<string, Date>;
};

export async function persistPlan(tx: SqlTx, input: PersistInput): Promise<{ events: number; silencedEvents: number }> {
  const { plan, now, workspaceId } = input;

  // Resolve first: a duplicate live record must leave before anything reuses its slot.
  if (plan.toResolve.length > 0) {
    // Each at the plan's time: never before the drift opened or was announced, even with the clock set back.
    await resolveDrifts(tx, plan.toResolve, now);
  }
  if (plan.toUpdate.length > 0) {
    await updateDrifts(tx, plan.toUpdate, now);
  }
  if (plan.toAnnounce.length > 0) {
    await announceDrifts(tx, plan.toAnnounce.map((a) => a.id), now);
  }

  // Openings and events are sent a chunk at a time, each built while PostgreSQL writes the one
  // before: a first evaluation opens and announces a drift for nearly every service and
  // environment, and building their rows and JSON is work worth overlapping.
  const pipe = statementPipe(tx);
  const openedIds = new Map<string, string>();
  for (const chunk of chunksOf(plan.toOpen, input.chunkRows ?? WRITE_CHUNK_ROWS)) {
    const rows = chunk.map((d): OpenDriftRow => {
      const id = input.newId();
      openedIds.set(driftKeyOf(d), id);
      return [id, d.serviceId, d.environmentId, d.targetId, d.kind, d.announcedAt === null ? "open" : "announced", d.running, d.expected, d.since, d.announcedAt];
    });
    await pipe.send((ptx) => openDrifts(ptx, workspaceId, rows, now));
  }

  if (input.lifted.length > 0) {
    const ids = input.lifted.map((a) => a.id);
    await pipe.send((ptx) => liftAcks(ptx, ids, now));
  }

  let written = 0;
  let silencedEvents = 0;
  if (plan.events.length > 0) {
    const lookup: Lookup = {
      records: new Map(input.records.map((r) => [r.id, r] as const)),
      opened: new Map(plan.toOpen.map((o) => [driftKeyOf(o), o] as const)),
      openedIds,
      resolvedAt: new Map(plan.toResolve.map((r) => [r.id, r.resolvedAt] as const)),
    };
    for (const chunk of chunksOf(plan.events, input.chunkRows ?? WRITE_CHUNK_ROWS)) {
      const events = chunk.map((e) => eventRow(e, input, lookup)).filter((e) => e !== null);
      if (events.length === 0) continue;
      silencedEvents += events.filter((e) => e.routedAt !== null).length;
      await pipe.send((ptx) => createEventsOnce(ptx, workspaceId, events, now), (n) => (written += n));
    }
  }
  await pipe.flush();
  return { events: written, silencedEvents };
}

/**
 * Rows a statement of the evaluation writes at most, so that one statement's JSON document
 * fits in PostgreSQL's default work_mem rather than spilling to disk.
 */
export const WRITE_CHUNK_ROWS = 2_000;

function* chunksOf<T>(items: readonly T[], size: number): Generator<readonly T[]> {
  for (let i = 0; i < items.length; i += size) yield items.slice(i, i + size);
}

/**
 * Statements sent in order on the transaction's connection, one at a time: `send` builds its
 * statement at once, waits for the statement before, starts this one and returns while it runs,
 * so the caller builds the next statement while PostgreSQL works on this one. `flush` waits for
 * the last. A failed statement fails the `send` or `flush` that waits for it (and the transaction
 * rolls back).
 */
function statementPipe(tx: SqlTx) {
  let running: Promise<void> | null = null;
  const flush = async () => {
    const last = running;
    running = null;
    if (last) await last;
  };
  return {
    send: async (write: (tx: SqlTx) => Promise<number>, onWritten?: (rows: number) => void) => {
      const before = running;
      const settled = before ?? Promise.resolve();
      // The statement is built now, and sent once the one before has succeeded.
      const afterBefore: SqlTx = {
        rows: (sql) => settled.then(() => tx.rows(sql)),
        execute: (sql) => settled.then(() => tx.execute(sql)),
      };
      running = write(afterBefore).then((n) => onWritten?.(n));
      running.catch(() => undefined); // awaited by the next send or flush
      if (before) await before;
    },
    flush,
  };
}

/**
 * The outbox row of one lifecycle event. A silenced event is recorded with
 * `routedAt` already set, so it stays in the log but is never routed.
 */
type EventRow = OutboxEventRow;

function eventRow(event: DriftEvent, input: PersistInput, lookup: Lookup): EventRow | null {
  const { names, now } = input;
  const record = lookup.records.get(event.driftKey);
  const driftId = record?.id ?? lookup.openedIds.get(event.driftKey);
  const service = names.services.get(event.serviceId);
  const environment = names.environments.get(event.environmentId);
  if (driftId === undefined || service === undefined || environment === undefined) return null;

  const opened = lookup.opened.get(event.driftKey);
  const isDetected = event.type === "drift_detected";
  const state: DriftState = isDetected ? "announced" : "resolved";
  const announcedAt = isDetected ? (opened?.announcedAt ?? now) : (record?.announcedAt ?? null);
  const id = input.newId();
  const payload = buildDriftEventPayload({
    event: event.type,
    eventId: id,
    occurredAt: now,
    workspace: names.workspace,
    baseUrl: names.baseUrl,
    drift: {
      id: driftId, service: service.name, team: service.team, environment, kind: event.kind, state,
      running: event.running, expected: event.expected, openedAt: event.openedAt, announcedAt,
      resolvedAt: isDetected ? null : (lookup.resolvedAt.get(driftId) ?? now),
    },
  });
  return {
    id,
    type: event.type,
    dedupeKey: `${event.type}:${driftId}`,
    payload: event.silenced ? { ...payload, silenced: true } : payload,
    routedAt: event.silenced ? now : null,
  };
}
