// Telegram Bot API on loopback (the api_url setting): POST
// /bot<token>/sendMessage with HTML, Telegram's JSON answers and its 429.
import { afterEach, describe, expect, it } from "vitest";
import driftFixture from "@/tests/fixtures/channels/drift-detected.json";
import planFixture from "@/tests/fixtures/channels/upgrade-plan.json";
import type { DriftEventPayload, UpgradePlanPayload } from "@/lib/domain/notifications/payloads";
import { parseChannelSettings, sendNotification } from "../index";
import { startReceiver, type Receiver } from "../test-support";
import { TELEGRAM_MAX_TEXT, renderTelegramMessage } from "./render";
import gateFixture from "@/tests/fixtures/channels/gate-refused.json";
import type { GateRefusedPayload as Gate } from "@/lib/domain/notifications/payloads";

const drift = driftFixture as DriftEventPayload;
const plan = planFixture as UpgradePlanPayload;
const now = new Date("2026-11-20T10:15:00Z");
const token = "110201543:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw";

let receiver: Receiver | undefined;
afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
});

const ok = JSON.stringify({ ok: true, result: { message_id: 42, chat: { id: -1001234567890, type: "supergroup" }, date: 1763633700, text: "…" } });

describe("Telegram Bot API", () => {
  it("POSTs sendMessage in HTML mode; a 429 waits as told, the retry delivers once", async () => {
    let limited = true;
    receiver = await startReceiver((_req, res) => {
      if (limited) {
        limited = false;
        return res.writeHead(429, { "content-type": "application/json" }).end(JSON.stringify({ ok: false, error_code: 429, description: "Too Many Requests: retry after 7", parameters: { retry_after: 7 } }));
      }
      res.writeHead(200, { "content-type": "application/json" }).end(ok);
    });
    const config = { token, chat_id: "-1001234567890", api_url: receiver.url("/") };
    const send = () => sendNotification({ channel: "telegram", config, payload: drift, deliveryId: "dlv_tg_1", now, allowPrivate: true });
    const first = await send();
    expect(first).toEqual({ ok: false, retryable: true, retryAfterSeconds: 7, error: `Telegram at 127.0.0.1:${receiver.port} answered 429.` });
    expect(JSON.stringify(first)).not.toContain("AAHdqTcv");
    expect(await send()).toEqual({ ok: true });
    const req = receiver.received[1]!;
    expect([req.method, req.path, req.headers["content-type"]]).toEqual(["POST", `/bot${token}/sendMessage`, "application/json"]);
    expect(JSON.parse(req.body)).toEqual({
      chat_id: "-1001234567890",
      parse_mode: "HTML",
      link_preview_options: { is_disabled: true },
      text: '<b>Drift detected</b>: <a href="https://driftwatch.example.com/services/web">web</a> in <b>production</b> (newer release upstream)\nweb in production is behind the newest release.\n\nKind: Newer release upstream\nRunning: 1.25.0\nExpected: 1.27.3\nTeam: payments\nOpen since: 2026-11-20T10:00:00.000Z',
    });
  });

  it("a chat Telegram does not know is final", async () => {
    receiver = await startReceiver((_req, res) => res.writeHead(400, { "content-type": "application/json" }).end(JSON.stringify({ ok: false, error_code: 400, description: "Bad Request: chat not found" })));
    const result = await sendNotification({ channel: "telegram", config: { token, chat_id: "@nochannel", api_url: receiver.url("/") }, payload: drift, deliveryId: "dlv_tg_2", now, allowPrivate: true });
    expect(result).toMatchObject({ ok: false, retryable: false });
  });

  it("escapes HTML and keeps the plan under 4,096 characters", () => {
    const text = renderTelegramMessage({ ...drift, service: "<script>&" }, "1").text;
    expect(text).toContain("&lt;script&gt;&amp;");
    const items = Array.from({ length: 300 }, (_, i) => ({ ...plan.items[0]!, service: `service-${i}` }));
    const long = renderTelegramMessage({ ...plan, items }, "1").text;
    expect(long.length).toBeLessThanOrEqual(TELEGRAM_MAX_TEXT);
    expect(long).toMatch(/…and \d+ more\.\n<a href="https:\/\/driftwatch\.example\.com\/updates">Open the updates list<\/a>$/);
  });

  it("reads telegram://token@telegram?chats=… with one chat", () => {
    expect(parseChannelSettings("telegram", { url: `telegram://${token}@telegram?chats=@driftwatch_ops` })).toEqual({ ok: true, settings: { token, chat_id: "@driftwatch_ops" } });
    expect(parseChannelSettings("telegram", { url: `telegram://${token}@telegram?chats=1,2` })).toEqual({ ok: false, problems: [{ pointer: "/config/url", detail: "Shoutrrr address: must name exactly one chat (?chats=…); make one rule per chat" }] });
    expect(parseChannelSettings("telegram", { token: "nope", chat_id: "x" })).toMatchObject({ ok: false, problems: [{ pointer: "/config/token" }, { pointer: "/config/chat_id" }] });
  });
});

describe("Telegram: gate refused", () => {
  it("is the line, escaped, and a link to the service", () => {
    const refused = { ...(gateFixture as Gate), service: "<web>" };
    expect(renderTelegramMessage(refused, "42").text).toBe(
      "Gate refused &lt;web&gt; 3.0.0 in production: 20 hours of soak left in staging (3.0.0 ran 4 hours of 1 day)\n" +
      '<a href="https://driftwatch.example.com/services/web">Open &lt;web&gt; in Driftwatch</a>',
    );
  });
});
