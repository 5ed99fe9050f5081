import { describe, expect, it } from "vitest";
import { clientAddress, forwardedFor } from "./client-address";

describe("forwardedFor", () => {
  it.each([
    // A proxy on this host or a private network: its X-Forwarded-For is believed.
    ["127.0.0.1", "198.51.100.7", "198.51.100.7"],
    ["::1", "198.51.100.7, 10.0.0.2", "198.51.100.7, 10.0.0.2"],
    ["::ffff:10.1.2.3", "198.51.100.7", "198.51.100.7"],
    ["fd12::1", "198.51.100.7", "198.51.100.7"],
    ["127.0.0.1", undefined, "127.0.0.1"],
    // A client on a public address connects directly: what it claims is replaced.
    ["8.8.8.8", "127.0.0.1", "8.8.8.8"],
    ["::ffff:8.8.8.8", "10.0.0.1", "8.8.8.8"],
    ["2001:4860::8888", ["1.1.1.1", "2.2.2.2"], "2001:4860::8888"],
    ["100.64.0.1", "1.2.3.4", "100.64.0.1"],
  ] as const)("peer %s, header %j → %s", (peer, header, expected) => {
    expect(forwardedFor(peer, header as string | string[] | undefined)).toBe(expected);
  });

  it("without a peer address there is nothing to pass on", () => {
    expect(forwardedFor(undefined, "1.2.3.4")).toBeUndefined();
  });
});

describe("clientAddress", () => {
  it("takes the first address, bounded, or 'local'", () => {
    expect(clientAddress(new Headers({ "x-forwarded-for": " 198.51.100.7 , 10.0.0.1" }))).toBe("198.51.100.7");
    expect(clientAddress(new Headers({ "x-forwarded-for": "x".repeat(500) }))).toHaveLength(64);
    expect(clientAddress(new Headers())).toBe("local");
    expect(clientAddress(undefined)).toBe("local");
  });
});
