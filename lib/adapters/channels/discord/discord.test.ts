// Discord webhook on loopback: POST {embeds: [...]} answered 204, a 429 with
// Discord's JSON body, and the discord:// Shoutrrr form.
import { afterEach, describe, expect, it } from "vitest";
import driftFixture from "@/tests/fixtures/channels/drift-detected.json";
import planFixture from "@/tests/fixtures/channels/upgrade-plan.json";
import type { DriftEventPayload, UpgradePlanPayload } from "@/lib/domain/notifications/payloads";
import { parseChannelSettings, sendNotification } from "../index";
import { startReceiver, type Receiver } from "../test-support";
import { DISCORD_COLOR, renderDiscordMessage } from "./render";
import gateFixture from "@/tests/fixtures/channels/gate-refused.json";
import type { GateRefusedPayload as Gate } from "@/lib/domain/notifications/payloads";

const drift = driftFixture as DriftEventPayload;
const plan = planFixture as UpgradePlanPayload;
const now = new Date("2026-11-20T10:15:00Z");
const path = "/api/webhooks/693853386302554172/W3dE2OZz4C13_4z_uHfDOoC7BqTW288s-z1ykqI0iJnY_HjRqMGO8Sc7YDqvf_KVKjhJ";

let receiver: Receiver | undefined;
afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
});

describe("Discord webhook", () => {
  it("POSTs one embed; a 429 names its wait in the body, and the retry is delivered once", async () => {
    let limited = true;
    receiver = await startReceiver((_req, res) => {
      if (limited) {
        limited = false;
        return res.writeHead(429, { "content-type": "application/json" }).end(JSON.stringify({ message: "You are being rate limited.", retry_after: 1.2, global: false }));
      }
      res.writeHead(204).end();
    });
    const send = () => sendNotification({ channel: "discord", config: { url: receiver!.url(path) }, payload: drift, deliveryId: "dlv_discord_1", now, allowPrivate: true });
    expect(await send()).toEqual({ ok: false, retryable: true, retryAfterSeconds: 2, error: `Discord at 127.0.0.1:${receiver.port} answered 429.` });
    expect(await send()).toEqual({ ok: true });
    const req = receiver.received[1]!;
    expect([req.method, req.path, req.headers["content-type"]]).toEqual(["POST", path, "application/json"]);
    const body = JSON.parse(req.body);
    expect(body).toEqual({
      username: "Driftwatch",
      allowed_mentions: { parse: [] },
      embeds: [{
        title: "Drift detected: web in production (newer release upstream)",
        url: "https://driftwatch.example.com/services/web",
        description: "web in production is behind the newest release.\n[Open web in Driftwatch](https://driftwatch.example.com/services/web)",
        color: DISCORD_COLOR.low,
        fields: [
          { name: "Kind", value: "Newer release upstream", inline: true }, { name: "Running", value: "1.25.0", inline: true }, { name: "Expected", value: "1.27.3", inline: true },
          { name: "Team", value: "payments", inline: true }, { name: "Open since", value: "2026-11-20T10:00:00.000Z", inline: true },
        ],
        timestamp: "2026-11-20T10:15:00.000Z",
        footer: { text: "Driftwatch · acme" },
      }],
    });
  });

  it("colours by urgency: end of life red, resolved green", () => {
    expect(renderDiscordMessage({ ...drift, kind: "eol" }).embeds[0].color).toBe(0xd1242f);
    expect(renderDiscordMessage({ ...drift, event: "drift_resolved" }).embeds[0].color).toBe(0x1a7f37);
    expect(renderDiscordMessage({ ...drift, kind: "env" }).embeds[0].color).toBe(0xbf8700);
  });

  it("lists the plan with release-notes links and escapes names", () => {
    const embed = renderDiscordMessage({ ...plan, items: [{ ...plan.items[0]!, service: "pg_*bouncer*" }, ...plan.items.slice(1)] }).embeds[0];
    expect(embed.description.split("\n")[0]).toBe("☐ **pg\\_\\*bouncer\\*** (production): 13.16 → 17.2 · end of life passed · [release notes](https://www.postgresql.org/docs/release/17.2/)");
    expect(embed.description).not.toContain("javascript:");
    expect(embed.url).toBe("https://driftwatch.example.com/updates");
  });

  it("keeps a long plan within Discord's 4,096-character description", () => {
    const items = Array.from({ length: 400 }, (_, i) => ({ ...plan.items[1]!, service: `service-${i}` }));
    const embed = renderDiscordMessage({ ...plan, items }).embeds[0];
    expect(embed.description.length).toBeLessThanOrEqual(4096);
    expect(embed.description).toMatch(/…and \d+ more in \[the updates list\]\(https:\/\/driftwatch\.example\.com\/updates\)\.$/);
  });

  it("reads discord://token@id", () => {
    expect(parseChannelSettings("discord", { url: "discord://W3dE2OZz4C13_token@693853386302554172" })).toEqual({ ok: true, settings: { url: "https://discord.com/api/webhooks/693853386302554172/W3dE2OZz4C13_token" } });
    expect(parseChannelSettings("discord", { url: "discord://token@not-an-id" })).toMatchObject({ ok: false, problems: [{ pointer: "/config/url" }] });
    expect(parseChannelSettings("discord", { url: "telegram://1:a@telegram?chats=1" })).toEqual({ ok: false, problems: [{ pointer: "/config/url", detail: "a telegram:// address belongs to a telegram rule" }] });
  });
});

describe("Discord: gate refused", () => {
  it("is one embed titled with the refusal, amber, linking the service", () => {
    const [embed] = renderDiscordMessage(gateFixture as Gate).embeds;
    expect(embed).toMatchObject({ title: "Gate refused: web 3.0.0 in production", url: "https://driftwatch.example.com/services/web", color: DISCORD_COLOR.medium, timestamp: "2026-11-20T10:15:00.000Z" });
    expect(embed.description).toBe("Gate refused web 3.0.0 in production: 20 hours of soak left in staging (3.0.0 ran 4 hours of 1 day)\n[Open web in Driftwatch](https://driftwatch.example.com/services/web)");
  });
});
