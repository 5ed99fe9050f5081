import { describe, expect, it } from "vitest";
import { maskConfig } from "./rules";

describe("maskConfig", () => {
  it.each([
    ["webhook", { url: "https://hooks.example.com/in/abc?token=s3cret", secret: "0123456789abcdefgh" }, { url: "https://hooks.example.com/***", secret: "********" }],
    ["webhook", { url: "https://hooks.example.com", secret: "0123456789abcdefgh", headers: { Authorization: "Bearer t" } }, { url: "https://hooks.example.com/", secret: "********", headers: { Authorization: "********" } }],
    ["webhook", { url: "http://127.0.0.1:8080/hook", secret: "x".repeat(20) }, { url: "http://127.0.0.1:8080/***", secret: "********" }],
    ["slack", { url: "https://hooks.slack.com/services/T0/B0/XXXX" }, { url: "https://hooks.slack.com/***" }],
    ["slack", { url: "not a url" }, { url: "********" }],
    ["email", { to: ["ops@example.com"] }, { to: ["ops@example.com"] }],
  ] as const)("%s %j is shown as %j", (channel, config, shown) => {
    expect(maskConfig(channel, config)).toEqual(shown);
  });
});

describe("maskConfig for the chat, push and incident channels", () => {
  it.each([
    ["teams", { url: "https://prod-12.westeurope.logic.azure.com:443/workflows/abc/triggers/manual/paths/invoke?sig=SECRET" }, { url: "https://prod-12.westeurope.logic.azure.com/***" }],
    ["discord", { url: "https://discord.com/api/webhooks/1/TOKEN" }, { url: "https://discord.com/***" }],
    ["telegram", { token: "1:AAAAAAAAAAAAAAAAAAAAAAAA", chat_id: "-100", api_url: "https://tg.example.com" }, { token: "********", chat_id: "-100", api_url: "https://tg.example.com" }],
    ["ntfy", { url: "https://ntfy.sh/secret-topic", token: "tk_x" }, { url: "https://ntfy.sh/***", token: "********" }],
    ["ntfy", { url: "https://ntfy.example.com/t", username: "phil", password: "pw" }, { url: "https://ntfy.example.com/***", username: "phil", password: "********" }],
    ["gotify", { url: "https://gotify.example.com/sub", token: "AzyoeNS" }, { url: "https://gotify.example.com/sub", token: "********" }],
    ["matrix", { homeserver: "https://matrix.example.org", room_id: "!a:example.org", access_token: "syt_x" }, { homeserver: "https://matrix.example.org/", room_id: "!a:example.org", access_token: "********" }],
    ["mqtt", { url: "mqtts://ha:s3cret@broker.example.com:8883", topic: "dw/events", retain: true }, { url: "mqtts://ha:***@broker.example.com:8883", topic: "dw/events", retain: true }],
    ["mqtt", { url: "mqtt://broker.example.com", topic: "dw" }, { url: "mqtt://broker.example.com", topic: "dw" }],
    ["pagerduty", { routing_key: "R0123456789abcdef0123456789ABCDE" }, { routing_key: "********" }],
  ] as const)("%s %j is shown as %j", (channel, config, shown) => {
    expect(maskConfig(channel, config)).toEqual(shown);
  });
});
