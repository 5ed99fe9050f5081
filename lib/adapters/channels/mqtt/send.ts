// One publish per delivery: connect to the checked address (never a fresh
// DNS answer), publish with QoS 1, wait for the broker's PUBACK, disconnect.
// A refused login or a refused topic is final; anything else is retried.
import { randomBytes } from "node:crypto";
import type { DeliveryResult } from "@/lib/domain/notifications/retry";
import { AppError } from "@/lib/domain/errors";
import { checkDestination } from "@/lib/net/destination";
import type { SendContext } from "../channel";
import { scrubSecrets, urlPasswords } from "../scrub";
import { renderMqttMessage } from "./render";

export type MqttConfig = { url: string; topic: string; retain?: boolean | undefined };

export const DEFAULT_MQTT_TIMEOUT_MS = 10_000;

// CONNACK refusals (3.1.1: 4 bad user name or password, 5 not authorised; 5.0: 0x86, 0x87, 0x8C)
// and PUBACK refusals (5.0: 0x87 not authorised, 0x90 topic name invalid, 0x99 payload format invalid).
const FINAL_CODES = new Set([1, 2, 4, 5, 0x84, 0x85, 0x86, 0x87, 0x8c, 0x90, 0x99]);

type MqttError = Error & { code?: unknown };

export async function sendMqtt(ctx: SendContext<MqttConfig>): Promise<DeliveryResult> {
  const secrets = urlPasswords(ctx.config.url);
  const fail = (retryable: boolean, error: string): DeliveryResult => ({ ok: false, retryable, error: scrubSecrets(error, secrets) });
  let destination;
  try {
    destination = await checkDestination(ctx.config.url, { allowPrivate: ctx.allowPrivate, resolve: ctx.resolve, schemes: ["mqtt", "mqtts"], allowCredentials: true });
  } catch (error) {
    if (error instanceof AppError) return fail(error.code !== "invalid_input", `MQTT broker address refused: ${error.message}`);
    return fail(true, "MQTT broker address could not be checked.");
  }
  const where = `${destination.hostname}:${destination.port}`;
  const timeoutMs = ctx.timeoutMs ?? DEFAULT_MQTT_TIMEOUT_MS;
  const { connect } = await import("mqtt");
  const secure = destination.url.protocol === "mqtts:";
  const client = connect({
    protocol: secure ? "mqtts" : "mqtt",
    host: destination.address,
    port: destination.port,
    ...(secure && !destination.literal ? { servername: destination.hostname } : {}),
    ...(destination.url.username ? { username: decodeURIComponent(destination.url.username) } : {}),
    ...(destination.url.password ? { password: decodeURIComponent(destination.url.password) } : {}),
    clientId: `driftwatch-${randomBytes(6).toString("hex")}`,
    clean: true,
    connectTimeout: timeoutMs,
    reconnectPeriod: 0,
    keepalive: 30,
  });
  let timer: NodeJS.Timeout | undefined;
  try {
    const outcome = await Promise.race([
      new Promise<DeliveryResult>((resolve) => {
        client.once("error", (error: MqttError) => {
          const code = typeof error.code === "number" ? error.code : undefined;
          if (code !== undefined) resolve(fail(!FINAL_CODES.has(code), `MQTT broker ${where} refused the connection (code ${code}).`));
          else resolve(fail(true, `MQTT broker ${where} could not be reached${typeof error.code === "string" ? ` (${error.code})` : ""}.`));
        });
        client.once("close", () => resolve(fail(true, `MQTT broker ${where} closed the connection.`)));
        client.once("connect", () => {
          client.publish(ctx.config.topic, renderMqttMessage(ctx.payload, ctx.deliveryId), { qos: 1, retain: ctx.config.retain ?? false }, (error, packet) => {
            const reason = (packet as { reasonCode?: unknown } | undefined)?.reasonCode ?? (error as MqttError | undefined)?.code;
            const code = typeof reason === "number" ? reason : undefined;
            if (!error && (code === undefined || code < 0x80)) resolve({ ok: true });
            else if (typeof code === "number") resolve(fail(!FINAL_CODES.has(code), `MQTT broker ${where} refused the message (code ${code}).`));
            else resolve(fail(true, `MQTT broker ${where}: the message was not acknowledged.`));
          });
        });
      }),
      new Promise<DeliveryResult>((resolve) => {
        timer = setTimeout(() => resolve(fail(true, `MQTT broker ${where} did not answer within ${timeoutMs} ms.`)), timeoutMs);
      }),
    ]);
    return outcome;
  } finally {
    clearTimeout(timer);
    client.removeAllListeners("close");
    // A late socket error while closing must not become an unhandled 'error' event.
    client.on("error", () => undefined);
    await client.endAsync().catch(() => undefined);
  }
}
