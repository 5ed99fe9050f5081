import { describe, expect, it } from "vitest";
import { canPrepareStatements, createStatementNamer } from "./statement-names";

describe("canPrepareStatements", () => {
  it.each([
    ["postgresql://u:p@db:5432/driftwatch", true],
    ["postgres://u:p@127.0.0.1:5432/driftwatch?sslmode=require", true],
    ["postgresql://u:p@pgbouncer:6432/driftwatch?pgbouncer=true", false],
    ["postgresql://u:p@pgbouncer:6432/driftwatch?sslmode=require&pgbouncer=TRUE", false],
    ["postgresql://u:p@pgbouncer:6432/driftwatch?pgbouncer=false", true],
    ["postgresql://u:p@db:5432/pgbouncer", true],
    ["not a url", true],
  ])("%s → %s", (url, expected) => {
    expect(canPrepareStatements(url)).toBe(expected);
  });
});

describe("createStatementNamer", () => {
  const q = (sql: string) => ({ sql });

  it("names a text from its second use on, the same name each time", () => {
    const name = createStatementNamer({ max: 10 });
    expect(name(q("SELECT 1"))).toBe("");
    const second = name(q("SELECT 1"));
    expect(second).toMatch(/^dw_[\w-]{27}$/);
    expect(name(q("SELECT 1"))).toBe(second);
    expect(name(q("SELECT 2"))).toBe("");
    expect(name(q("SELECT 2"))).not.toBe(second);
  });

  it("names no more than max texts; the others run unnamed", () => {
    const name = createStatementNamer({ max: 2 });
    const texts = ["SELECT 1", "SELECT 2", "SELECT 3"];
    for (const t of texts) name(q(t));
    const names = texts.map((t) => name(q(t)));
    expect(names.map((n) => n !== "")).toEqual([true, true, false]);
    expect(name(q("SELECT 1"))).toBe(names[0]);
  });

  it("forgets texts seen once when too many are waiting for a second use", () => {
    const name = createStatementNamer({ max: 10, seenLimit: 2 });
    name(q("SELECT 1"));
    name(q("SELECT 2"));
    name(q("SELECT 3")); // the seen set was full: cleared, then SELECT 3 added
    expect(name(q("SELECT 1"))).toBe("");
    expect(name(q("SELECT 3"))).not.toBe("");
  });
});
