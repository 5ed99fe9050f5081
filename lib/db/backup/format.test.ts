import { describe, expect, it } from "vitest";
import { BackupFileError, BackupWriter, readBackup, verifyBackup, type BackupHeader, type BackupRecord } from "./format";
import { orderByDependencies } from "./schema";

const header: BackupHeader = {
  created_at: "2026-11-22T06:00:00.000Z",
  postgres: "17.2",
  migrations: [{ name: "0001_init", checksum: "a".repeat(64) }],
  tables: ["parents", "children"],
  sequences: [{ name: "children_id_seq", last_value: "7", is_called: true }],
};

/** COPY text rows as PostgreSQL writes them: escaped backslashes, tabs and newlines; \N for NULL. */
const parents = "1\tplain\n2\tback\\\\slash \\\\. and tab\\tand newline\\n\n3\t\\N\n";
const children = "10\t1\t{\"a\": [1, 2]}\n";

async function write(): Promise<Buffer> {
  const chunks: Buffer[] = [];
  const w = new BackupWriter(async (c) => void chunks.push(Buffer.from(c)));
  await w.begin(header);
  await w.beginTable("parents", ["id", "name"]);
  // COPY output arrives in chunks that do not respect row boundaries.
  await w.rows(Buffer.from(parents.slice(0, 5)));
  await w.rows(Buffer.from(parents.slice(5)));
  expect(await w.endTable()).toBe(3);
  await w.beginTable("children", ["id", "parent_id", "data"]);
  await w.rows(Buffer.from(children));
  await w.endTable();
  expect(await w.finish()).toEqual({ tables: 2, rows: 4 });
  return Buffer.concat(chunks);
}

async function* pieces(buf: Buffer, size: number) {
  for (let i = 0; i < buf.length; i += size) yield buf.subarray(i, i + size);
}

async function readAll(buf: Buffer, size = 7): Promise<BackupRecord[]> {
  const out: BackupRecord[] = [];
  for await (const r of readBackup(pieces(buf, size))) out.push(r);
  return out;
}

describe("backup format", () => {
  it("reads back exactly what was written, whatever the chunking", async () => {
    const file = await write();
    for (const size of [1, 3, 7, 64, file.length]) {
      const records = await readAll(file, size);
      expect(records[0]).toEqual({ kind: "header", header });
      const rows = (table: string) => Buffer.concat(records.flatMap((r) => (r.kind === "rows" && r.name === table ? [r.data] : []))).toString();
      expect(rows("parents")).toBe(parents);
      expect(rows("children")).toBe(children);
      expect(records.filter((r) => r.kind === "end")).toEqual([{ kind: "end", name: "parents", rows: 3 }, { kind: "end", name: "children", rows: 1 }]);
      expect(records.at(-1)).toEqual({ kind: "done", summary: { tables: 2, rows: 4 } });
    }
  });

  it("is plain text a person can read", async () => {
    const text = (await write()).toString();
    expect(text.split("\n").slice(0, 3)).toEqual(["DRIFTWATCH-BACKUP 1", `HEADER ${JSON.stringify(header)}`, 'TABLE {"name":"parents","columns":["id","name"]}']);
    expect(text).toMatch(/\n\\\.\nEND \{"name":"parents","rows":3,"sha256":"[0-9a-f]{64}"\}\n/);
    expect(text).toMatch(/\nDONE \{"tables":2,"rows":4,"sha256":"[0-9a-f]{64}"\}\n$/);
  });

  it("finds every truncation, wherever the file is cut", async () => {
    const file = await write();
    for (let cut = 0; cut < file.length; cut++) {
      const err = await verifyBackup(readBackup(pieces(file.subarray(0, cut), 5))).then(() => null, (e: unknown) => e);
      expect(err, `cut at ${cut}`).toBeInstanceOf(BackupFileError);
      expect((err as Error).message, `cut at ${cut}`).toMatch(/^the (backup file is (truncated|corrupt)|file is not a Driftwatch backup) \(/);
    }
  });

  it("finds any changed byte", async () => {
    const file = await write();
    for (let at = 0; at < file.length; at++) {
      const changed = Buffer.from(file);
      changed[at] = changed[at] === 0x41 ? 0x42 : 0x41;
      const err = await verifyBackup(readBackup(pieces(changed, 64))).then(() => null, (e: unknown) => e);
      expect(err, `byte ${at}`).toBeInstanceOf(BackupFileError);
    }
  });

  it("names the problem with a file from elsewhere", async () => {
    const fail = (text: string) => verifyBackup(readBackup(pieces(Buffer.from(text), 8)));
    await expect(fail("")).rejects.toThrow("the file is not a Driftwatch backup (it is empty)");
    await expect(fail("hello\n")).rejects.toThrow("the file is not a Driftwatch backup");
    await expect(fail("DRIFTWATCH-BACKUP 2\n")).rejects.toThrow("the backup file has format version 2, and this Driftwatch reads version 1: use a newer Driftwatch");
    await expect(fail("DRIFTWATCH-BACKUP 1\nHEADER {}\n")).rejects.toThrow("the backup file is corrupt (invalid HEADER line after the first line)");
  });
});

describe("table load order", () => {
  it.each([
    [["b", "a"], [], ["a", "b"]],
    [["runs", "services", "workspaces"], [{ child: "runs", parent: "services" }, { child: "services", parent: "workspaces" }, { child: "runs", parent: "workspaces" }], ["workspaces", "services", "runs"]],
    [["x", "y", "z"], [{ child: "x", parent: "y" }, { child: "y", parent: "x" }], ["z", "x", "y"]],
    [["a"], [{ child: "a", parent: "elsewhere" }], ["a"]],
  ])("%j with %j loads as %j", (tables, edges, order) => {
    expect(orderByDependencies(tables, edges)).toEqual(order);
  });
});
