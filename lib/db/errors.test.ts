import pg from "pg";
import { describe, expect, it } from "vitest";
import { databaseUnreachable, sqlStateOf } from "./errors";

// The shapes the Prisma client and its pg adapter throw, and pg's own (queryRows).
const adapterError = (cause: object) => Object.assign(new Error("terminating connection due to administrator command"), { name: "DriverAdapterError", cause });
const wrapped = (cause: object) => Object.assign(new Error("Raw query failed"), { code: "P2010", meta: { driverAdapterError: { cause } } });
const fromServer = (code: string, message = "server error") => Object.assign(new pg.DatabaseError(message, 0, "error"), { code, severity: "ERROR" });
const fromSocket = (code: string) => Object.assign(new Error(`connect ${code} 127.0.0.1:5432`), { code, errno: -111, syscall: "connect" });

describe("sqlStateOf", () => {
  it.each([
    ["wrapped by the client", wrapped({ originalCode: "40P01", kind: "postgres" }), "40P01"],
    ["raw from the adapter, in a transaction", adapterError({ originalCode: "23502", kind: "postgres" }), "23502"],
    ["straight from pg", fromServer("40001"), "40001"],
    ["a socket error, which has no SQLSTATE", fromSocket("ECONNREFUSED"), ""],
    ["anything else", new Error("x"), ""],
    ["not an error", "x", ""],
  ])("%s", (_, err, code) => {
    expect(sqlStateOf(err)).toBe(code);
  });
});

describe("databaseUnreachable", () => {
  it.each([
    ["an administrator shutdown, raw from a transaction", adapterError({ originalCode: "57P01", kind: "postgres" })],
    ["an administrator shutdown, wrapped by the client", wrapped({ originalCode: "57P01", kind: "postgres" })],
    ["an unreachable server, as the adapter names it", wrapped({ kind: "DatabaseNotReachable" })],
    ["a server starting up, from pg", fromServer("57P03", "the database system is starting up")],
    ["too many connections, from pg", fromServer("53300")],
    ["a refused connection, from pg", fromSocket("ECONNREFUSED")],
    ["a connection cut mid-query, from pg", new Error("Connection terminated unexpectedly")],
    ["no pool connection within the wait, from pg-pool", new Error("timeout exceeded when trying to connect")],
  ])("knows %s", (_, err) => {
    expect(databaseUnreachable(err)).toBe(true);
  });

  it.each([
    ["a unique violation, from the adapter", adapterError({ originalCode: "23505", kind: "postgres" })],
    ["a unique violation, from pg", fromServer("23505")],
    ["a cause that is not the driver's", Object.assign(new Error("x"), { cause: { originalCode: "57P01" } })],
    ["an unrelated error", new Error("x")],
  ])("leaves alone %s", (_, err) => {
    expect(databaseUnreachable(err)).toBe(false);
  });
});
