// Teams Workflows webhook on loopback: a POST of {type: "message",
// attachments: [Adaptive Card]} answered 202, as Power Automate answers.
import { afterEach, describe, expect, it } from "vitest";
import driftFixture from "@/tests/fixtures/channels/drift-detected.json";
import planFixture from "@/tests/fixtures/channels/upgrade-plan.json";
import type { DriftEventPayload, UpgradePlanPayload } from "@/lib/domain/notifications/payloads";
import { parseChannelSettings, sendNotification } from "../index";
import { startReceiver, type Receiver } from "../test-support";
import { renderTeamsMessage } from "./render";
import gateFixture from "@/tests/fixtures/channels/gate-refused.json";
import type { GateRefusedPayload as Gate } from "@/lib/domain/notifications/payloads";

const drift = driftFixture as DriftEventPayload;
const plan = planFixture as UpgradePlanPayload;
const now = new Date("2026-11-20T10:15:00Z");
const path = "/workflows/0f1e2d3c/triggers/manual/paths/invoke?api-version=2016-06-01&sp=%2Ftriggers%2Fmanual%2Frun&sv=1.0&sig=SiGnAtUrE-secret";

let receiver: Receiver | undefined;
afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
});

describe("Teams (Workflows webhook)", () => {
  it("POSTs a message with one Adaptive Card, and a 503 is retried under the same delivery and delivered once", async () => {
    let failNext = true;
    receiver = await startReceiver((_req, res) => {
      if (failNext) {
        failNext = false;
        return res.writeHead(503).end();
      }
      res.writeHead(202).end();
    });
    const send = () => sendNotification({ channel: "teams", config: { url: receiver!.url(path) }, payload: drift, deliveryId: "dlv_teams_1", now, allowPrivate: true });
    expect(await send()).toEqual({ ok: false, retryable: true, error: `Teams at 127.0.0.1:${receiver.port} answered 503.` });
    expect(await send()).toEqual({ ok: true });
    expect(receiver.received).toHaveLength(2);
    const req = receiver.received[1]!;
    expect(req.method).toBe("POST");
    expect(req.path).toBe(path);
    expect(req.headers["content-type"]).toBe("application/json");
    const body = JSON.parse(req.body) as ReturnType<typeof renderTeamsMessage>;
    expect(body).toEqual(renderTeamsMessage(drift));
    expect(body.type).toBe("message");
    expect(body.attachments).toHaveLength(1);
    const card = body.attachments[0];
    expect(card.contentType).toBe("application/vnd.microsoft.card.adaptive");
    expect(card.content).toMatchObject({ type: "AdaptiveCard", version: "1.4", $schema: "http://adaptivecards.io/schemas/adaptive-card.json" });
    expect(card.content.body[0]).toEqual({ type: "TextBlock", text: "Drift detected: web in production (newer release upstream)", wrap: true, weight: "Bolder", size: "Medium", color: "Accent" });
    expect(card.content.body[2]).toEqual({ type: "FactSet", facts: [
      { title: "Kind", value: "Newer release upstream" }, { title: "Running", value: "1.25.0" }, { title: "Expected", value: "1.27.3" },
      { title: "Team", value: "payments" }, { title: "Open since", value: "2026-11-20T10:00:00.000Z" },
    ] });
    expect(card.content.actions).toEqual([{ type: "Action.OpenUrl", title: "Open web in Driftwatch", url: "https://driftwatch.example.com/services/web" }]);
  });

  it("carries the weekly plan as facts, dropping links that are not http(s)", () => {
    const card = renderTeamsMessage(plan).attachments[0].content;
    expect(card.body[1]).toEqual({ type: "FactSet", facts: [
      { title: "postgres (production)", value: "13.16 → 17.2 · end of life passed · [release notes](https://www.postgresql.org/docs/release/17.2/)" },
      { title: "web (production)", value: "1.25.0 → 1.27.3 · minor release · [release notes](https://nginx.org/en/CHANGES-1.27)" },
      { title: "api (staging)", value: "2.3.0 → 2.4.1 · behind the previous environment" },
      { title: "redis (staging)", value: "7.2.4 → 7.2.6 · patch release" },
    ] });
    expect(card.actions).toEqual([{ type: "Action.OpenUrl", title: "Open the updates list", url: "https://driftwatch.example.com/updates" }]);
  });

  it("reads a teams:// Shoutrrr address into the webhook address", () => {
    const url = "teams://11111111-4444-4444-8444-cccccccccccc@22222222-4444-4444-8444-cccccccccccc/33333333012222222222333333333344/44444444-4444-4444-8444-cccccccccccc/V2ESyij_gAljSoUQHvZoZYzlpAoAXExyOl26dlf1xHEx05?host=contoso.webhook.office.com";
    expect(parseChannelSettings("teams", { url })).toEqual({ ok: true, settings: {
      url: "https://contoso.webhook.office.com/webhookb2/11111111-4444-4444-8444-cccccccccccc@22222222-4444-4444-8444-cccccccccccc/IncomingWebhook/33333333012222222222333333333344/44444444-4444-4444-8444-cccccccccccc/V2ESyij_gAljSoUQHvZoZYzlpAoAXExyOl26dlf1xHEx05",
    } });
    expect(parseChannelSettings("teams", { url: "teams://group@tenant/alt/owner" })).toEqual({ ok: false, problems: [{ pointer: "/config/url", detail: "Shoutrrr address: needs ?host=organization.webhook.office.com" }] });
  });
});

describe("Teams: gate refused", () => {
  it("is a short card with the line and a button to the service", () => {
    const card = renderTeamsMessage(gateFixture as Gate).attachments[0].content;
    expect(card.body[0]).toEqual({ type: "TextBlock", text: "Gate refused web 3.0.0 in production: 20 hours of soak left in staging (3.0.0 ran 4 hours of 1 day)", wrap: true, weight: "Bolder", color: "Warning" });
    expect(card.actions).toEqual([{ type: "Action.OpenUrl", title: "Open web in Driftwatch", url: "https://driftwatch.example.com/services/web" }]);
  });
});
