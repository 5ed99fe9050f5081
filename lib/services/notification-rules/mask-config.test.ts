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
