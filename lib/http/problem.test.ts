import { describe, expect, it } from "vitest";
import { databaseUnreachable, errorToResponse } from "./problem";

// The shapes the Prisma client and its pg adapter throw when PostgreSQL goes away.
const adapterError = (cause: object) => Object.assign(new Error("terminating connection due to administrator command"), { name: "DriverAdapterError", cause });
const wrapped = (cause: object) => Object.assign(new Error("Raw query failed"), { code: "P2010", meta: { driverAdapterError: { cause } } });

describe("databaseUnreachable", () => {
  it("knows an administrator shutdown, raw from a transaction or wrapped by the client", () => {
    expect(databaseUnreachable(adapterError({ originalCode: "57P01", kind: "postgres" }))).toBe(true);
    expect(databaseUnreachable(wrapped({ originalCode: "57P01", kind: "postgres" }))).toBe(true);
    expect(databaseUnreachable(wrapped({ kind: "DatabaseNotReachable" }))).toBe(true);
  });

  it("leaves other database errors alone", () => {
    expect(databaseUnreachable(adapterError({ originalCode: "23505", kind: "postgres" }))).toBe(false);
    expect(databaseUnreachable(Object.assign(new Error("x"), { cause: { originalCode: "57P01" } }))).toBe(false);
  });
});

describe("errorToResponse", () => {
  it("answers a lost database with 503 and Retry-After, not 500", async () => {
    const res = errorToResponse(adapterError({ originalCode: "57P01", kind: "postgres" }));
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("2");
    expect(res.headers.get("content-type")).toBe("application/problem+json");
  });
});
