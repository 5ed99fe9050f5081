// The backup file: gzip of a line-oriented text stream, readable with `zcat`.
//
//   DRIFTWATCH-BACKUP 1
//   HEADER {"created_at":…,"postgres":…,"migrations":[{name,checksum}],"tables":[…],"sequences":[…]}
//   TABLE {"name":"workspaces","columns":["id",…]}
//   <rows in COPY text format, one a line>
//   \.
//   END {"name":"workspaces","rows":3,"sha256":"<of the TABLE line, the rows and the \. line>"}
//   … one TABLE…END section per table, parents before children …
//   DONE {"tables":24,"rows":1234,"sha256":"<of every byte before this line>"}
//
// COPY text format escapes backslashes and newlines, so no row is ever the line `\.`.
import { createHash, type Hash } from "node:crypto";
import { z } from "zod";

export const FORMAT_VERSION = 1;
export const MAGIC = `DRIFTWATCH-BACKUP ${FORMAT_VERSION}`;
const END_OF_ROWS = "\\.";
/** A longer line can only come from a damaged file. */
const MAX_LINE_BYTES = 256 * 1024 * 1024;
/** Rows are handed to COPY in batches of about this size. */
const BATCH_BYTES = 256 * 1024;

export class BackupFileError extends Error {
  override name = "BackupFileError";
}

export const headerSchema = z.object({
  created_at: z.string(),
  postgres: z.string(),
  migrations: z.array(z.object({ name: z.string().min(1), checksum: z.string() })),
  tables: z.array(z.string().min(1)),
  sequences: z.array(z.object({ name: z.string().min(1), last_value: z.string().regex(/^-?\d+$/), is_called: z.boolean() })),
});
export type BackupHeader = z.infer<typeof headerSchema>;

const tableSchema = z.object({ name: z.string().min(1), columns: z.array(z.string().min(1)).min(1) });
const endSchema = z.object({ name: z.string().min(1), rows: z.number().int().min(0), sha256: z.string().regex(/^[0-9a-f]{64}$/) });
const doneSchema = z.object({ tables: z.number().int().min(0), rows: z.number().int().min(0), sha256: z.string().regex(/^[0-9a-f]{64}$/) });

export type BackupSummary = { tables: number; rows: number };

export type BackupRecord =
  | { kind: "header"; header: BackupHeader }
  | { kind: "table"; name: string; columns: string[] }
  /** Whole rows in COPY text format, each ending in a newline. */
  | { kind: "rows"; name: string; data: Buffer; rows: number }
  | { kind: "end"; name: string; rows: number }
  | { kind: "done"; summary: BackupSummary };

/** Writes the format to `sink`, keeping the checksums; `sink` must respect back-pressure. */
export class BackupWriter {
  private readonly total = createHash("sha256");
  private section: { name: string; hash: Hash; rows: number } | null = null;
  private tableCount = 0;
  private rowCount = 0;

  constructor(private readonly sink: (chunk: Buffer) => Promise<void>) {}

  private async put(chunk: Buffer) {
    this.total.update(chunk);
    this.section?.hash.update(chunk);
    await this.sink(chunk);
  }

  private line(text: string) {
    return this.put(Buffer.from(text + "\n", "utf8"));
  }

  async begin(header: BackupHeader) {
    await this.line(MAGIC);
    await this.line(`HEADER ${JSON.stringify(header)}`);
  }

  async beginTable(name: string, columns: string[]) {
    if (this.section) throw new Error(`table ${this.section.name} is still open`);
    this.section = { name, hash: createHash("sha256"), rows: 0 };
    await this.line(`TABLE ${JSON.stringify({ name, columns })}`);
  }

  /** COPY TO output, in chunks of any size; rows are counted by their newlines. Returns the rows so far. */
  async rows(chunk: Buffer): Promise<number> {
    if (!this.section) throw new Error("rows outside a table");
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) this.section.rows++;
    await this.put(chunk);
    return this.section.rows;
  }

  async endTable(): Promise<number> {
    const s = this.section;
    if (!s) throw new Error("no table is open");
    await this.line(END_OF_ROWS);
    this.section = null;
    await this.line(`END ${JSON.stringify({ name: s.name, rows: s.rows, sha256: s.hash.digest("hex") })}`);
    this.tableCount++;
    this.rowCount += s.rows;
    return s.rows;
  }

  async finish(): Promise<BackupSummary> {
    if (this.section) throw new Error(`table ${this.section.name} is still open`);
    const summary = { tables: this.tableCount, rows: this.rowCount };
    // The DONE line carries the checksum of everything before it, so it is not part of it.
    await this.sink(Buffer.from(`DONE ${JSON.stringify({ ...summary, sha256: this.total.digest("hex") })}\n`, "utf8"));
    return summary;
  }
}

/** Split a byte stream into lines (without the newline); the last line must end with one. */
async function* lines(input: AsyncIterable<Buffer | string>): AsyncGenerator<Buffer> {
  let carry: Buffer = Buffer.alloc(0);
  for await (const piece of input) {
    const chunk = typeof piece === "string" ? Buffer.from(piece) : piece;
    const buf = carry.length ? Buffer.concat([carry, chunk]) : chunk;
    let start = 0;
    for (let nl = buf.indexOf(10); nl !== -1; nl = buf.indexOf(10, start)) {
      yield buf.subarray(start, nl);
      start = nl + 1;
    }
    carry = buf.subarray(start);
    if (carry.length > MAX_LINE_BYTES) throw new BackupFileError("the backup file is corrupt (a line is far too long)");
  }
  if (carry.length > 0) throw new BackupFileError("the backup file is truncated (it ends in the middle of a line)");
}

function parseTagged<T>(line: Buffer, tag: string, schema: z.ZodType<T>, where: string): T {
  const text = line.toString("utf8");
  if (!text.startsWith(tag + " ")) {
    throw new BackupFileError(`the backup file is corrupt (expected ${tag} ${where}, found "${text.slice(0, 40)}")`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text.slice(tag.length + 1));
  } catch {
    throw new BackupFileError(`the backup file is corrupt (unreadable ${tag} line ${where})`);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new BackupFileError(`the backup file is corrupt (invalid ${tag} line ${where})`);
  return parsed.data;
}

const NL = Buffer.from("\n");

/**
 * Read a decompressed backup, checking its structure and every checksum as it
 * goes. A damaged section throws before its END record is yielded, and nothing
 * is trusted as complete before the final `done` record.
 */
export async function* readBackup(input: AsyncIterable<Buffer | string>): AsyncGenerator<BackupRecord> {
  const total = createHash("sha256");
  const it = lines(input)[Symbol.asyncIterator]();
  const next = async (expecting: string): Promise<Buffer> => {
    const r = await it.next();
    if (r.done) throw new BackupFileError(`the backup file is truncated (it ends before ${expecting})`);
    return r.value;
  };
  const take = (line: Buffer) => {
    total.update(line);
    total.update(NL);
  };

  const magic = await next("its first line").catch((err: unknown) => {
    throw err instanceof BackupFileError ? new BackupFileError("the file is not a Driftwatch backup (it is empty)") : err;
  });
  const magicText = magic.toString("utf8");
  if (magicText !== MAGIC) {
    const m = /^DRIFTWATCH-BACKUP (\d+)$/.exec(magicText);
    if (m) throw new BackupFileError(`the backup file has format version ${m[1]}, and this Driftwatch reads version ${FORMAT_VERSION}: use a newer Driftwatch`);
    throw new BackupFileError("the file is not a Driftwatch backup");
  }
  take(magic);
  const headerLine = await next("its header");
  const header = parseTagged(headerLine, "HEADER", headerSchema, "after the first line");
  take(headerLine);
  yield { kind: "header", header };

  let tables = 0;
  let rows = 0;
  for (;;) {
    const line = await next(`table ${tables + 1} of ${header.tables.length}`);
    if (line.toString("utf8", 0, 5) === "DONE ") {
      const done = parseTagged(line, "DONE", doneSchema, "at the end");
      if (done.sha256 !== total.digest("hex")) throw new BackupFileError("the backup file is corrupt (the whole-file checksum does not match)");
      if (done.tables !== tables || done.rows !== rows || tables !== header.tables.length) {
        throw new BackupFileError("the backup file is corrupt (its table or row counts do not add up)");
      }
      if ((await it.next()).done !== true) throw new BackupFileError("the backup file is corrupt (data after its end)");
      yield { kind: "done", summary: { tables, rows } };
      return;
    }
    const expected = header.tables[tables];
    const table = parseTagged(line, "TABLE", tableSchema, `for table ${tables + 1}`);
    if (table.name !== expected) throw new BackupFileError(`the backup file is corrupt (table ${table.name} where the header lists ${expected ?? "no more tables"})`);
    take(line);
    const section = createHash("sha256").update(line).update(NL);
    yield { kind: "table", name: table.name, columns: table.columns };

    let count = 0;
    let batch: Buffer[] = [];
    let batchBytes = 0;
    let batchRows = 0;
    const flush = (): BackupRecord => {
      const record: BackupRecord = { kind: "rows", name: table.name, data: Buffer.concat(batch, batchBytes), rows: batchRows };
      batch = [];
      batchBytes = 0;
      batchRows = 0;
      return record;
    };
    for (;;) {
      const row = await next(`the end of table ${table.name}`);
      take(row);
      section.update(row).update(NL);
      if (row.length === 2 && row[0] === 0x5c && row[1] === 0x2e) break; // "\."
      batch.push(row, NL);
      batchBytes += row.length + 1;
      batchRows++;
      count++;
      if (batchBytes >= BATCH_BYTES) yield flush();
    }
    const endLine = await next(`the END of table ${table.name}`);
    const end = parseTagged(endLine, "END", endSchema, `for table ${table.name}`);
    take(endLine);
    if (end.name !== table.name || end.rows !== count || end.sha256 !== section.digest("hex")) {
      throw new BackupFileError(`the backup file is corrupt (table ${table.name} does not match its checksum)`);
    }
    if (batchRows > 0) yield flush();
    yield { kind: "end", name: table.name, rows: count };
    tables++;
    rows += count;
  }
}

/** zlib's messages for a damaged or cut-off gzip stream, as one clear line. */
export function describeGzipError(err: unknown): BackupFileError | null {
  const e = err as { code?: string; message?: string };
  if (e?.code === "Z_BUF_ERROR" || /unexpected end of file/i.test(e?.message ?? "")) {
    return new BackupFileError("the backup file is truncated (its compressed data ends early)");
  }
  if (e?.code === "Z_DATA_ERROR") {
    return /incorrect header check/i.test(e.message ?? "")
      ? new BackupFileError("the file is not a Driftwatch backup (not gzip data)")
      : new BackupFileError(`the backup file is corrupt (${e.message ?? "bad compressed data"})`);
  }
  return null;
}

/** Read every record of a backup (see `readBackup`), for callers that only check a file. */
export async function verifyBackup(records: AsyncIterable<BackupRecord>): Promise<{ header: BackupHeader; summary: BackupSummary; tables: { name: string; rows: number }[] }> {
  let header: BackupHeader | null = null;
  const tables: { name: string; rows: number }[] = [];
  for await (const r of records) {
    if (r.kind === "header") header = r.header;
    else if (r.kind === "end") tables.push({ name: r.name, rows: r.rows });
    else if (r.kind === "done") return { header: header!, summary: r.summary, tables };
  }
  throw new BackupFileError("the backup file is truncated");
}

export const rowsText = (n: number) => `${n.toLocaleString("en")} row${n === 1 ? "" : "s"}`;
