// Gate decisions are written a batch at a time (lib/services/gate/decision-writer.ts):
// each request's decisions are logged and counted once, and one record that cannot
// be written fails only its own request.
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { writeGateDecision } from "@/lib/services/gate/decision-writer";
import { api, makeWorkspace, testDb } from "../support/api";

describe("writeGateDecision", () => {
  it("writes the records that arrive during a write together, and a bad record fails alone", async () => {
    const ws = await makeWorkspace("gate-writer");
    expect((await api(ws.member).post("/api/v1/environments", { name: "production", position: 1 })).status).toBe(201);
    const env = await testDb().environment.findFirstOrThrow({ where: { workspaceId: ws.id, name: "production" } });
    const record = (environmentId: string, subject: string) => ({
      workspaceId: ws.id, environmentId, actor: "admission", now: new Date(),
      entries: [{ subject, decision: "refused" as const, data: { via: "admission" } }],
    });
    // The first write goes out alone; the six that arrive meanwhile are one batch, one of them for an unknown environment.
    const writes = [record(env.id, "first"), ...["a", "b", "c"].map((s) => record(env.id, s)), record(randomUUID(), "bad"), ...["d", "e"].map((s) => record(env.id, s))]
      .map((r) => writeGateDecision(testDb(), r).then(() => "written", (err: unknown) => (err instanceof Error ? "failed" : String(err))));
    expect(await Promise.all(writes)).toEqual(["written", "written", "written", "written", "failed", "written", "written"]);
    const logged = await testDb().auditEntry.findMany({ where: { workspaceId: ws.id, action: "gate.decided" }, select: { subject: true } });
    expect(logged.map((l) => l.subject).sort()).toEqual(["a", "b", "c", "d", "e", "first"]);
    const counts = await testDb().$queryRaw<{ n: bigint }[]>`SELECT count AS n FROM gate_decision_counts WHERE environment_id = ${env.id}::uuid AND decision = 'refused'`;
    expect(counts.map((c) => Number(c.n))).toEqual([6]);
  });
});
