import { describe, expect, it } from "vitest";
import { cachedBodyOf, jsonResponse } from "./cached-response";

describe("jsonResponse", () => {
  it("answers JSON, serialising a given object once", async () => {
    const value = { items: [1, 2] };
    const first = jsonResponse(value);
    value.items.push(3); // a cached result is never changed; the body shows it was not serialised again
    expect(first.headers.get("content-type")).toBe("application/json");
    expect(await first.json()).toEqual({ items: [1, 2] });
    expect(await jsonResponse(value).json()).toEqual({ items: [1, 2] });
  });

  it("shares the serialised bytes between responses (no copy per response), with their length", async () => {
    const value = { items: ["x".repeat(10_000)] };
    const [a, b] = [jsonResponse(value), jsonResponse(value)];
    expect(cachedBodyOf(a)).toBeDefined();
    expect(cachedBodyOf(a)).toBe(cachedBodyOf(b));
    expect(a.headers.get("content-length")).toBe(String(cachedBodyOf(a)!.byteLength));
    expect(new Uint8Array(await b.arrayBuffer())).toEqual(cachedBodyOf(a));
    expect(cachedBodyOf(new Response("{}"))).toBeUndefined();
  });
});
