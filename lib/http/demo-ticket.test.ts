import { describe, expect, it } from "vitest";
import { issueDemoTicket, redeemDemoTicket } from "./demo-ticket";

describe("demo tickets", () => {
  const user = { userId: "u-1", email: "demo@example.com" };
  it("signs in once", () => {
    const ticket = issueDemoTicket(user, 1_000);
    expect(redeemDemoTicket(ticket, 2_000)).toEqual(user);
    expect(redeemDemoTicket(ticket, 2_000)).toBeNull();
  });
  it.each([
    ["expired", (t: string) => redeemDemoTicket(t, 1_000 + 60_000)],
    ["never issued", () => redeemDemoTicket("made-up", 1_000)],
    ["not a string", () => redeemDemoTicket(42, 1_000)],
  ])("refuses a ticket that is %s", (_, redeem) => {
    expect(redeem(issueDemoTicket(user, 1_000))).toBeNull();
  });
});
