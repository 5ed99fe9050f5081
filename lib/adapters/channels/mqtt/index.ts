// MQTT (Home Assistant, Node-RED, any broker): the event as JSON on a topic,
// over mqtt:// or mqtts://, optionally retained. A login goes in the address
// (mqtt://user:password@broker), whose password is masked and scrubbed.
import { z } from "zod";
import { defineChannel, maskPassword } from "../channel";
import { urlPasswords } from "../scrub";
import { sendMqtt } from "./send";

export const mqttConfigSchema = z.object({
  url: z
    .string()
    .max(2048)
    .refine((v) => /^mqtts?:\/\/[^/?#\s]/i.test(v) && !/[\u0000-\u0020\u007f]/.test(v) && URL.canParse(v), { message: "must be an mqtt:// or mqtts:// address" }),
  /** A topic to publish to: no wildcards. */
  topic: z.string().min(1).max(1024).refine((t) => !/[+#\u0000]/.test(t), { message: "must be a topic name without wildcards (+, #)" }),
  retain: z.boolean().optional(),
});

export const mqttChannel = defineChannel({
  label: "MQTT",
  noun: "MQTT",
  help: "The event as JSON on a topic (with delivery_id, so a repeat can be dropped). mqtts:// for TLS; a login goes in the address, mqtt://user:password@broker:1883.",
  schema: mqttConfigSchema,
  fields: [
    { name: "url", label: "Broker", help: "mqtt://host:1883 or mqtts://host:8883; the password is never shown again.", placeholder: "mqtt://homeassistant.local:1883" },
    { name: "topic", label: "Topic", help: "Where to publish, e.g. driftwatch/events.", placeholder: "driftwatch/events" },
    { name: "retain", label: "Retain", help: "Keep the last message on the topic for new subscribers.", type: "checkbox", optional: true },
  ],
  mask: (c) => ({ url: maskPassword(c.url), ...(typeof c.topic === "string" ? { topic: c.topic } : {}), ...(typeof c.retain === "boolean" ? { retain: c.retain } : {}) }),
  secrets: (c) => (typeof c.url === "string" ? urlPasswords(c.url) : []),
  destinations: (c) => [{ pointer: "/config/url", url: c.url, schemes: ["mqtt", "mqtts"], allowCredentials: true }],
  send: (ctx) => sendMqtt(ctx),
});
