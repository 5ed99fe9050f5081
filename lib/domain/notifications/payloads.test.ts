import { describe, expect, it } from "vitest";
import drift from "@/tests/fixtures/channels/drift-detected.json";
import { buildDriftEventPayload, buildUpgradePlanPayload, serviceUrl } from "./payloads";

describe("buildDriftEventPayload", () => {
  it("builds the wire shape with RFC 3339 timestamps and the service link", () => {
    const payload = buildDriftEventPayload({
      event: "drift_detected",
      eventId: "evt_01JD3W8Q5K2R9",
      occurredAt: new Date("2026-11-20T10:15:00Z"),
      workspace: "acme",
      baseUrl: "https://driftwatch.example.com/",
      drift: {
        service: "web",
        team: "payments",
        environment: "production",
        kind: "upstream",
        state: "announced",
        running: "1.25.0",
        expected: "1.27.3",
        openedAt: new Date("2026-11-20T10:00:00Z"),
        announcedAt: new Date("2026-11-20T10:15:00Z"),
        resolvedAt: null,
      },
    });
    expect(payload).toEqual(drift);
  });
});

describe("serviceUrl", () => {
  it.each([
    ["http://localhost:3000", "web", "http://localhost:3000/services/web"],
    ["https://dw.example.com/base/", "web", "https://dw.example.com/base/services/web"],
    ["https://dw.example.com", "a b/c", "https://dw.example.com/services/a%20b%2Fc"],
  ])("%s + %s", (base, service, expected) => {
    expect(serviceUrl(base, service)).toBe(expected);
  });
});

describe("buildUpgradePlanPayload", () => {
  it("keeps the list's order and fills team and production", () => {
    const payload = buildUpgradePlanPayload({
      planId: "plan_1",
      occurredAt: new Date("2026-11-23T07:00:00Z"),
      workspace: "acme",
      baseUrl: "http://localhost:3000",
      lines: [
        { service: "b", environment: "prod", running: "1", target_version: "2", reason: "major", release_notes_url: null },
        { service: "a", environment: "dev", team: "t", production: false, running: null, target_version: "3", reason: "patch", release_notes_url: "https://x" },
      ],
    });
    expect(payload).toEqual({
      event: "upgrade_plan",
      id: "plan_1",
      occurred_at: "2026-11-23T07:00:00.000Z",
      workspace: "acme",
      url: "http://localhost:3000/updates",
      items: [
        { service: "b", environment: "prod", running: "1", target_version: "2", reason: "major", release_notes_url: null, team: null, production: false },
        { service: "a", environment: "dev", running: null, target_version: "3", reason: "patch", release_notes_url: "https://x", team: "t", production: false },
      ],
    });
  });
});
