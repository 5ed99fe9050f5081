import { describe, expect, it } from "vitest";
import { classifyHttpStatus, isRetryable, nextAttemptDelay, parseRetryAfter, planNextAttempt, type DeliveryFailure } from "./retry";

describe("nextAttemptDelay", () => {
  it.each([
    [1, 30],
    [2, 60],
    [3, 120],
    [4, 240],
    [5, 480],
    [6, 960],
    [7, 1920],
    [8, 3600],
    [20, 3600],
    [1000, 3600],
    [0, 30],
  ])("after %i failed attempts: %i s", (attempts, seconds) => {
    expect(nextAttemptDelay(attempts, 0.5)).toBe(seconds);
  });

  it("jitter spreads the delay by ±10 % and never passes the cap", () => {
    expect(nextAttemptDelay(1, 0)).toBe(27);
    expect(nextAttemptDelay(1, 0.999999)).toBe(33);
    expect(nextAttemptDelay(3, 0)).toBe(108);
    expect(nextAttemptDelay(10, 0.999999)).toBe(3600);
    expect(nextAttemptDelay(10, 0)).toBe(3240);
  });
});

describe("planNextAttempt", () => {
  const t0 = new Date("2026-11-20T10:00:00Z");
  const retryable: DeliveryFailure = { ok: false, retryable: true, error: "500" };
  const at = (seconds: number) => new Date(t0.getTime() + seconds * 1000);

  it("retries after the back-off delay", () => {
    expect(planNextAttempt({ attempts: 1, firstAttemptAt: t0, now: t0, failure: retryable, jitter: 0.5 })).toEqual({
      action: "retry",
      nextAttemptAt: at(30),
      delaySeconds: 30,
    });
  });

  it("waits for Retry-After when it is longer, up to an hour", () => {
    expect(planNextAttempt({ attempts: 1, firstAttemptAt: t0, now: t0, failure: { ...retryable, retryAfterSeconds: 120 }, jitter: 0.5 })).toMatchObject({ delaySeconds: 120 });
    expect(planNextAttempt({ attempts: 3, firstAttemptAt: t0, now: t0, failure: { ...retryable, retryAfterSeconds: 5 }, jitter: 0.5 })).toMatchObject({ delaySeconds: 120 });
    expect(planNextAttempt({ attempts: 1, firstAttemptAt: t0, now: t0, failure: { ...retryable, retryAfterSeconds: 86_400 }, jitter: 0.5 })).toMatchObject({ delaySeconds: 3600 });
  });

  it("gives up on permanent failures at once", () => {
    expect(planNextAttempt({ attempts: 1, firstAttemptAt: t0, now: t0, failure: { ok: false, retryable: false, error: "400" }, jitter: 0.5 })).toEqual({ action: "fail", reason: "permanent" });
  });

  it("gives up when the next attempt would fall after 24 hours", () => {
    expect(planNextAttempt({ attempts: 30, firstAttemptAt: t0, now: at(23 * 3600), failure: retryable, jitter: 0.5 })).toMatchObject({ action: "retry", nextAttemptAt: at(24 * 3600) });
    expect(planNextAttempt({ attempts: 31, firstAttemptAt: t0, now: at(23 * 3600 + 1), failure: retryable, jitter: 0.5 })).toEqual({ action: "fail", reason: "expired" });
    expect(planNextAttempt({ attempts: 2, firstAttemptAt: t0, now: at(100), failure: retryable, jitter: 0.5, maxAgeSeconds: 120 })).toEqual({ action: "fail", reason: "expired" });
  });
});

describe("classifyHttpStatus", () => {
  it.each([
    [200, "sent"], [201, "sent"], [202, "sent"], [204, "sent"],
    [301, "permanent"], [302, "permanent"], [307, "permanent"],
    [400, "permanent"], [401, "permanent"], [403, "permanent"], [404, "permanent"], [410, "permanent"], [413, "permanent"],
    [408, "retryable"], [429, "retryable"],
    [500, "retryable"], [502, "retryable"], [503, "retryable"], [504, "retryable"],
  ])("%i → %s", (status, outcome) => {
    expect(classifyHttpStatus(status)).toBe(outcome);
  });
});

describe("isRetryable", () => {
  it.each<[string, unknown, boolean]>([
    ["retryable delivery failure", { ok: false, retryable: true, error: "x" }, true],
    ["permanent delivery failure", { ok: false, retryable: false, error: "x" }, false],
    ["connection refused", Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }), true],
    ["connection reset", Object.assign(new Error("socket hang up"), { code: "ECONNRESET" }), true],
    ["DNS temporary failure", { code: "EAI_AGAIN" }, true],
    ["fetch timeout", Object.assign(new Error("timeout"), { name: "TimeoutError" }), true],
    ["SMTP 451", { code: "EENVELOPE", responseCode: 451 }, true],
    ["SMTP 421", { code: "EPROTOCOL", responseCode: 421 }, true],
    ["SMTP 550", { code: "EENVELOPE", responseCode: 550 }, false],
    ["SMTP 535 (login)", { code: "EAUTH", responseCode: 535 }, false],
    ["nodemailer connection", { code: "ECONNECTION" }, true],
    ["HTTP 503", { status: 503 }, true],
    ["HTTP 404", { status: 404 }, false],
    ["AppError unavailable", { name: "AppError", code: "unavailable" }, true],
    ["AppError invalid_input", { name: "AppError", code: "invalid_input" }, false],
    ["wrapped network error", new Error("send failed", { cause: { code: "ETIMEDOUT" } }), true],
    ["unknown error", new Error("boom"), false],
    ["a string", "boom", false],
    ["null", null, false],
  ])("%s → %s", (_name, error, expected) => {
    expect(isRetryable(error)).toBe(expected);
  });
});

describe("parseRetryAfter", () => {
  const now = new Date("2026-11-20T10:00:00Z");
  it.each<[string | undefined, number | undefined]>([
    ["120", 120],
    [" 7 ", 7],
    ["0", 0],
    ["999999999", 86_400],
    ["Fri, 20 Nov 2026 10:01:30 GMT", 90],
    ["Fri, 20 Nov 2026 09:00:00 GMT", 0],
    ["-5", undefined],
    ["soon", undefined],
    ["1.5", undefined],
    ["", undefined],
    [undefined, undefined],
  ])("%j → %j", (value, expected) => {
    expect(parseRetryAfter(value, now)).toBe(expected);
  });
});
