// Every notification channel's far end on loopback, shaped like the vendor's
// API: one HTTP server for the webhook, Slack, Teams, Discord, Telegram, ntfy,
// Gotify, Matrix and PagerDuty endpoints, an SMTP server, and a relay to the
// real MQTT broker (127.0.0.1:1883, or MQTT_TEST_URL) with a subscriber.
// Each kind records what it accepted under the key that names the event, so
// a test can check that every event arrived exactly once. A fault plan makes
// chosen requests fail the way the vendor fails (503, a lost Matrix answer,
// a dropped MQTT connection) before the retry.
import { randomBytes, randomUUID } from "node:crypto";
import http from "node:http";
import net from "node:net";
import type { AddressInfo } from "node:net";
import mqtt from "mqtt";
import { SMTPServer } from "smtp-server";

export const KINDS = ["webhook", "slack", "email", "teams", "discord", "telegram", "ntfy", "gotify", "matrix", "mqtt", "pagerduty"] as const;
export type Kind = (typeof KINDS)[number];

const BROKER = process.env.MQTT_TEST_URL ?? "mqtt://127.0.0.1:1883";

/** Decides per request whether to fail it; `nth` counts that kind's requests from 1. */
export type FaultPlan = (kind: Kind, nth: number) => boolean;

export type Vendors = {
  /** Settings of a rule for each kind (email needs `smtpUrl` on the server). */
  configs: Record<Kind, Record<string, unknown>>;
  smtpUrl: string;
  /** Accepted deliveries per kind, keyed by what names the event (`detected:<service>` or the delivery id); the value counts arrivals. */
  accepted: Record<Kind, Map<string, number>>;
  /** Requests (or connections) per kind, failed ones included. */
  requests: Record<Kind, number>;
  /** Secrets the settings carry, for the secrets-in-logs check. */
  secrets: string[];
  close: () => Promise<void>;
};

const title = /Drift (detected|resolved): (\S+) in /;
/** `detected:web` from a title that reads "Drift detected: web in …". */
const byTitle = (text: unknown) => {
  const m = title.exec(String(text));
  return m ? `${m[1]}:${m[2]}` : undefined;
};

function count(map: Map<string, number>, key: string | undefined): void {
  if (key) map.set(key, (map.get(key) ?? 0) + 1);
}

export async function startVendors(fault: FaultPlan = () => false): Promise<Vendors> {
  const accepted = Object.fromEntries(KINDS.map((k) => [k, new Map<string, number>()])) as Record<Kind, Map<string, number>>;
  const requests = Object.fromEntries(KINDS.map((k) => [k, 0])) as Record<Kind, number>;
  const tag = randomBytes(8).toString("hex");
  const tgToken = `${Math.floor(1e8 + Math.random() * 9e8)}:AA${randomBytes(16).toString("hex")}`;
  const gotifyToken = `A${randomBytes(8).toString("hex")}`;
  const matrixToken = `syt_${randomBytes(12).toString("hex")}`;
  const routingKey = randomBytes(16).toString("hex");
  const ntfyToken = `tk_${randomBytes(14).toString("hex")}`;
  const matrixTxns = new Set<string>();

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const path = req.url ?? "";
      const json = () => JSON.parse(body) as Record<string, any>;
      const route = (kind: Kind, ok: () => void, failStatus = 503) => {
        requests[kind]++;
        if (fault(kind, requests[kind])) return res.writeHead(failStatus).end();
        ok();
      };
      if (req.method === "POST" && path === `/webhook-${tag}`) return route("webhook", () => { count(accepted.webhook, String(req.headers["x-driftwatch-delivery"])); res.writeHead(204).end(); });
      if (req.method === "POST" && path === `/slack-${tag}/T0/B0/X`) return route("slack", () => { count(accepted.slack, byTitle(json().text)); res.writeHead(200).end("ok"); });
      if (req.method === "POST" && path.startsWith(`/teams-${tag}/workflows/`)) {
        return route("teams", () => { count(accepted.teams, byTitle(json().attachments[0].content.body[0].text)); res.writeHead(202).end(); });
      }
      if (req.method === "POST" && path === `/discord-${tag}/api/webhooks/1234567890/tok`) return route("discord", () => { count(accepted.discord, byTitle(json().embeds[0].title)); res.writeHead(204).end(); });
      if (req.method === "POST" && path === `/bot${tgToken}/sendMessage`) {
        return route("telegram", () => {
          const text = String(json().text);
          count(accepted.telegram, `${/<b>Drift (\w+)<\/b>/.exec(text)?.[1]}:${/\/services\/([^"]+)"/.exec(text)?.[1]}`);
          res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ ok: true, result: { message_id: 1 } }));
        });
      }
      if (req.method === "POST" && path === `/ntfy-${tag}` && req.headers.authorization === `Bearer ${ntfyToken}`) {
        return route("ntfy", () => { count(accepted.ntfy, byTitle(req.headers.title)); res.writeHead(200, { "content-type": "application/json" }).end("{}"); });
      }
      if (req.method === "POST" && path === "/gotify/message" && req.headers["x-gotify-key"] === gotifyToken) {
        return route("gotify", () => { count(accepted.gotify, byTitle(json().title)); res.writeHead(200, { "content-type": "application/json" }).end("{}"); });
      }
      const m = /^\/_matrix\/client\/v3\/rooms\/[^/]+\/send\/m\.room\.message\/([^/]+)$/.exec(path);
      if (req.method === "PUT" && m && req.headers.authorization === `Bearer ${matrixToken}`) {
        requests.matrix++;
        // The homeserver keeps the event under its transaction id; a lost answer is a 502 after storing.
        const txn = decodeURIComponent(m[1]!);
        if (!matrixTxns.has(txn)) {
          matrixTxns.add(txn);
          count(accepted.matrix, byTitle(json().body));
        }
        if (fault("matrix", requests.matrix)) return res.writeHead(502).end();
        return res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ event_id: `$${txn}` }));
      }
      if (req.method === "POST" && path === "/pd/v2/enqueue") {
        return route("pagerduty", () => {
          const e = json();
          if (e.routing_key !== routingKey) return res.writeHead(400).end();
          count(accepted.pagerduty, e.event_action === "trigger" ? `detected:${e.payload.component}:${e.dedup_key}` : `resolved:${e.dedup_key}`);
          res.writeHead(202, { "content-type": "application/json" }).end(JSON.stringify({ status: "success", message: "Event processed", dedup_key: e.dedup_key }));
        }, 500);
      }
      res.writeHead(404).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const http0 = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const smtp = new SMTPServer({
    logger: false, authOptional: true, disabledCommands: ["STARTTLS", "AUTH"],
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        requests.email++;
        if (fault("email", requests.email)) return callback(Object.assign(new Error("4.3.0 Try again later"), { responseCode: 451 }));
        count(accepted.email, /X-Driftwatch-Delivery: (\S+)/i.exec(Buffer.concat(chunks).toString("utf8"))?.[1]);
        callback();
      });
    },
  });
  await new Promise<void>((r) => smtp.listen(0, "127.0.0.1", r));
  const smtpPort = (smtp.server.address() as AddressInfo).port;

  // MQTT: a relay that resets the connections the fault plan picks, and a subscriber on the topic.
  const broker = new URL(BROKER);
  const relay = net.createServer((socket) => {
    requests.mqtt++;
    if (fault("mqtt", requests.mqtt)) return socket.resetAndDestroy();
    const upstream = net.connect(Number(broker.port || 1883), broker.hostname);
    socket.pipe(upstream).pipe(socket);
    upstream.on("error", () => socket.destroy());
    socket.on("error", () => upstream.destroy());
  });
  await new Promise<void>((r) => relay.listen(0, "127.0.0.1", r));
  const topic = `driftwatch-test/${randomUUID()}`;
  const subscriber = await mqtt.connectAsync(BROKER, { clientId: `dw-vendors-${tag}`, reconnectPeriod: 0 });
  subscriber.on("message", (_t, payload) => {
    const m = JSON.parse(payload.toString("utf8")) as { service?: string; event?: string };
    count(accepted.mqtt, `${String(m.event).replace("drift_", "")}:${m.service}`);
  });
  await subscriber.subscribeAsync(topic, { qos: 1 });

  const configs: Record<Kind, Record<string, unknown>> = {
    webhook: { url: `${http0}/webhook-${tag}`, secret: `whsec-${tag}-${tag}` },
    slack: { url: `${http0}/slack-${tag}/T0/B0/X` },
    email: { to: ["ops@example.test"] },
    teams: { url: `${http0}/teams-${tag}/workflows/abc/triggers/manual/paths/invoke?sig=sig${tag}` },
    discord: { url: `${http0}/discord-${tag}/api/webhooks/1234567890/tok` },
    telegram: { token: tgToken, chat_id: "-1001234567890", api_url: http0 },
    ntfy: { url: `${http0}/ntfy-${tag}`, token: ntfyToken },
    gotify: { url: `${http0}/gotify`, token: gotifyToken },
    matrix: { homeserver: http0, room_id: "!driftwatch:example.test", access_token: matrixToken },
    mqtt: { url: `mqtt://driftwatch:pw-${tag}@127.0.0.1:${(relay.address() as AddressInfo).port}`, topic },
    pagerduty: { routing_key: routingKey, events_url: `${http0}/pd/v2/enqueue` },
  };
  return {
    configs,
    smtpUrl: `smtp://127.0.0.1:${smtpPort}`,
    accepted,
    requests,
    secrets: [tgToken, gotifyToken, matrixToken, routingKey, ntfyToken, `pw-${tag}`, `sig${tag}`],
    close: async () => {
      await subscriber.endAsync();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      await new Promise<void>((r) => relay.close(() => r()));
      await new Promise<void>((r) => smtp.close(() => r()));
    },
  };
}
