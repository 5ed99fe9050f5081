import { describe, expect, it } from "vitest";
import { errorToResponse } from "./problem";

// The shape the pg adapter throws when PostgreSQL goes away.
const adapterError = (cause: object) => Object.assign(new Error("terminating connection due to administrator command"), { name: "DriverAdapterError", cause });

describe("errorToResponse", () => {
  it("answers a lost database with 503 and Retry-After, not 500", async () => {
    const res = errorToResponse(adapterError({ originalCode: "57P01", kind: "postgres" }));
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("2");
    expect(res.headers.get("content-type")).toBe("application/problem+json");
  });

  it("answers pg's own lost connection the same way", async () => {
    const res = errorToResponse(new Error("timeout exceeded when trying to connect"));
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("2");
  });
});
