// The gate's fact reads, shared: reviews that wait for a read slot go out
// together, in one statement for all the services they ask about, when they
// ask the same workspace about the same environment. Under a wave of rollouts
// each statement's fixed cost (and its round trip) is then paid once for the
// reviews of up to MAX_SERVICES services. Each review judges only its own
// services: facts read for more services answer it the same.
import type { DbTx } from "@/lib/db/client";
import { readGateFacts, type GateFacts, type GateFactsInput } from "@/lib/db/queries/gate/read-gate-facts";

/**
 * Statements at once. More only queue inside PostgreSQL, where each then costs more CPU (unshared,
 * at 2,000 services and 10 concurrent reviews on two cores: two at a time 221 reviews/s, one 180,
 * no limit 197). Shared, one to three gave the same within noise (840–930 reviews/s); two keeps
 * one slow read (another workspace's) from holding every other.
 */
const SLOTS = 2;
/** Services of different reviews in one statement at most: its cost grows with each. */
const MAX_SERVICES = 32;

type Waiting = { db: DbTx; group: string; input: GateFactsInput; resolve: (f: GateFacts) => void; reject: (e: unknown) => void };

const waiting: Waiting[] = [];
let running = 0;

/** The facts `input` asks for, possibly read with other reviews' (a superset of what it asked). */
export function readSharedGateFacts(db: DbTx, input: GateFactsInput): Promise<GateFacts> {
  const group = JSON.stringify(["id" in input.workspace ? input.workspace.id : `key:${input.workspace.badgeKeyId}`, input.environment ?? null]);
  return new Promise((resolve, reject) => {
    waiting.push({ db, group, input, resolve, reject });
    pump();
  });
}

function pump(): void {
  while (running < SLOTS && waiting.length > 0) {
    const first = waiting.shift()!;
    const batch = [first];
    let services = first.input.services.length;
    for (let i = 0; i < waiting.length && services < MAX_SERVICES; ) {
      const w = waiting[i]!;
      if (w.db === first.db && w.group === first.group) {
        batch.push(w);
        services += w.input.services.length;
        waiting.splice(i, 1);
      } else i++;
    }
    running++;
    readGateFacts(first.db, merged(batch.map((w) => w.input))).then(
      (facts) => batch.forEach((w) => w.resolve(facts)),
      (err: unknown) => batch.forEach((w) => w.reject(err)),
    ).finally(() => {
      running--;
      pump();
    });
  }
}

function merged(inputs: readonly GateFactsInput[]): GateFactsInput {
  if (inputs.length === 1) return inputs[0]!;
  const images = new Map(inputs.flatMap((i) => i.images).map((im) => [`${im.key}@${im.digest ?? ""}`, im]));
  return {
    workspace: inputs[0]!.workspace,
    ...(inputs[0]!.environment === undefined ? {} : { environment: inputs[0]!.environment }),
    services: [...new Set(inputs.flatMap((i) => i.services))],
    images: [...images.values()],
    containers: [...new Set(inputs.flatMap((i) => i.containers ?? []))],
  };
}
