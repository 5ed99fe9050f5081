import { describe, expect, it } from "vitest";
import drift from "@/tests/fixtures/channels/drift-detected.json";
import gate from "@/tests/fixtures/channels/gate-refused.json";
import { buildDriftEventPayload, buildGateRefusedPayload, buildUpgradePlanPayload, gateRefusedLine, isDriftEvent, serviceUrl, type GateRefusedPayload } from "./payloads";

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

describe("buildGateRefusedPayload", () => {
  const input = {
    eventId: "3f0b6a52-8d0e-4c1a-9a57-2c4a1b7e9d10",
    decidedAt: new Date("2026-11-20T10:15:00Z"),
    workspace: "acme",
    baseUrl: "https://driftwatch.example.com/",
    service: "web",
    team: "payments",
    environment: "production",
    version: "3.0.0",
    image: "ghcr.io/acme/web:3.0.0",
    mode: "enforce" as const,
    reasons: [{ code: "soak_not_met" as const, detail: "20 hours of soak left in staging (3.0.0 ran 4 hours of 1 day)." }],
  };

  it("builds the wire shape with the service link", () => {
    const payload = buildGateRefusedPayload(input);
    expect(payload).toEqual(gate);
    expect(isDriftEvent(payload)).toBe(false);
  });

  it("leaves image out when a version was asked", () => {
    expect(buildGateRefusedPayload({ ...input, image: undefined })).not.toHaveProperty("image");
  });

  it("says what was refused, where and why, in one line", () => {
    expect(gateRefusedLine(gate as GateRefusedPayload)).toBe("Gate refused web 3.0.0 in production: 20 hours of soak left in staging (3.0.0 ran 4 hours of 1 day)");
    const unknown = { ...(gate as GateRefusedPayload), version: null, reasons: [{ code: "unknown_version" as const, detail: "a." }, { code: "eol_passed" as const, detail: "b." }] };
    expect(gateRefusedLine(unknown)).toBe("Gate refused web ghcr.io/acme/web:3.0.0 in production: a; b");
  });
});
