// The workspace calendar: a signed iCalendar feed that loads without sign-in,
// checked with a real iCalendar parser (ical.js) and against RFC 5545's
// required properties and line rules; reset with the badge key; one
// workspace's address never opens another's.
import { spawnSync } from "node:child_process";
import path from "node:path";
import ICAL from "ical.js";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { loadConfig } from "@/lib/config";
import { loadSignedCalendar } from "@/lib/services/calendar/load-signed";
import { evaluateWorkspaceDrift } from "@/lib/services/drift/evaluate-workspace";
import { api, makeWorkspace, testDb, type TestWorkspace } from "../support/api";
import { sessionCookie, sessionRequest } from "../support/session";
import { settled } from "../support/settle";

const ROOT = path.resolve(import.meta.dirname, "../..");
const D = (n: number) => `sha256:${String(n).repeat(64).slice(0, 64)}`;
const HOUR = 3_600_000;

const workload = (service: string, image: string, digest: string, since: Date) => ({
  service, container: service, main: true, image, digest, platform_digest: null, platform: "linux/amd64", since: since.toISOString(),
});

async function report(ws: TestWorkspace, environment: string, workloads: object[]) {
  const res = await api(ws.agentKey).post("/api/v1/agent/report", {
    environment, target: { name: `docker@${environment}`, kind: "docker" }, observed_at: new Date().toISOString(), workloads,
  });
  expect(res.status).toBe(202);
  await settled(ws);
}

async function calendarUrl(ws: TestWorkspace): Promise<string> {
  const res = await api(ws.member).get("/api/v1/calendar");
  expect(res.status).toBe(200);
  return res.body.url;
}

async function load(url: string, headers: Record<string, string> = {}) {
  const res = await fetch(url, { redirect: "manual", headers });
  return { status: res.status, type: res.headers.get("content-type"), etag: res.headers.get("etag"), body: await res.text() };
}

/** RFC 5545 §3.1: content lines end with CRLF and are folded to at most 75 octets. */
function expectWellFormedLines(text: string) {
  expect(text.endsWith("\r\n")).toBe(true);
  const lines = text.slice(0, -2).split("\r\n");
  for (const line of lines) {
    expect(line).not.toMatch(/[\r\n]/);
    expect(Buffer.byteLength(line, "utf8"), line).toBeLessThanOrEqual(75);
  }
}

/** Parses with ical.js and checks the properties RFC 5545 requires (§3.6, §3.6.1). */
function parseCalendar(text: string) {
  const vcalendar = new ICAL.Component(ICAL.parse(text));
  expect(vcalendar.name).toBe("vcalendar");
  expect(vcalendar.getFirstPropertyValue("prodid")).toBe("-//Driftwatch//Driftwatch//EN");
  expect(vcalendar.getFirstPropertyValue("version")).toBe("2.0");
  expect(vcalendar.getFirstPropertyValue("calscale")).toBe("GREGORIAN");
  return vcalendar.getAllSubcomponents("vevent").map((vevent) => {
    expect(vevent.getFirstPropertyValue("uid")).toEqual(expect.any(String));
    expect(vevent.getFirstProperty("dtstamp")?.type).toBe("date-time");
    const dtstart = vevent.getFirstProperty("dtstart");
    expect(dtstart?.type).toBe("date"); // all day: a DATE, not a DATE-TIME
    const event = new ICAL.Event(vevent);
    return { uid: event.uid, day: event.startDate.toString(), summary: event.summary, description: event.description };
  });
}

function resetWithCli(ws: TestWorkspace) {
  return spawnSync(process.execPath, [path.join(ROOT, "bin/driftwatch.mjs"), "badges", "reset", "--workspace", ws.name, "--json"], {
    cwd: ROOT, env: { ...process.env, DATABASE_URL: inject("databaseUrl") }, encoding: "utf8", timeout: 120_000,
  });
}

let ws: TestWorkspace;
let other: TestWorkspace;
const since = new Date(Date.now() - 2 * HOUR);

beforeAll(async () => {
  [ws, other] = await Promise.all([makeWorkspace("calendar"), makeWorkspace("calendar-other")]);
  // Production behind staging: an env drift, announced after the default 7 days.
  await report(ws, "staging", [workload("web", "nginx:1.27.3", D(3), since)]);
  await report(ws, "production", [workload("web", "nginx:1.27.2", D(2), since)]);
  await report(other, "production", [workload("secret-svc", "nginx:1.27.2", D(2), since)]);
});

describe("calendar address", () => {
  it("is handed to members; viewers are refused", async () => {
    const url = await calendarUrl(ws);
    expect(url).toMatch(new RegExp(`^${inject("baseUrl")}/calendar/[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]{43}\\.ics$`));
    expect(await calendarUrl(ws)).toBe(url);
    const viewer = await api(ws.viewer).get("/api/v1/calendar");
    expect(viewer.status).toBe(403);
    expect(viewer.contentType).toContain("application/problem+json");
    expect((await api(null).get("/api/v1/calendar")).status).toBe(401);
  });

  it("is shown in Settings with a copy button, beside the key reset", async () => {
    const cookie = await sessionCookie(ws.owner.email, ws.owner.password);
    const page = await sessionRequest(cookie, "GET", "/settings/sharing");
    expect(page.status).toBe(200);
    expect(page.text).toContain(await calendarUrl(ws));
    expect(page.text).toContain("Copy address");
    expect(page.text).toContain("Reset badge and calendar addresses");
  });
});

describe("calendar feed", () => {
  it("serves iCalendar that a parser opens, with the day an open drift is announced", async () => {
    const res = await load(await calendarUrl(ws));
    expect(res).toMatchObject({ status: 200, type: "text/calendar; charset=utf-8" });
    expectWellFormedLines(res.body);
    const events = parseCalendar(res.body);

    const drifts = (await api(ws.viewer).get("/api/v1/drifts?kind=env")).body.items;
    expect(drifts).toHaveLength(1);
    const drift = drifts[0];
    expect(drift.state).toBe("open");
    const announceDay = new Date(Date.parse(drift.opened_at) + 7 * 24 * HOUR).toISOString().slice(0, 10);
    expect(events).toEqual([
      {
        uid: `drift.${drift.id}.${ws.id}@driftwatch`,
        day: announceDay,
        summary: "web in production: behind the previous environment, notifications start",
        description: expect.stringContaining("web in production: behind the previous environment (1.27.2 → 1.27.3)"),
      },
    ]);
  });

  it("answers 304 to a matching If-None-Match", async () => {
    const url = await calendarUrl(ws);
    const first = await load(url);
    expect(first.etag).toMatch(/^W\/".+"$/);
    const again = await load(url, { "if-none-match": first.etag! });
    expect(again).toMatchObject({ status: 304, body: "" });
  });

  it("lists each running cycle's end of life with the services and environments that run it", async () => {
    const product = `cal-${ws.id.slice(0, 8)}`;
    await testDb().eolProduct.create({
      data: { name: product, fetchedAt: new Date(), data: { releases: [{ name: "1.27", isEol: false, eolFrom: "2027-04-30" }, { name: "1.26", isEol: true, eolFrom: "2026-04-15" }] } },
    });
    expect((await api(ws.member).patch("/api/v1/services/web", { policy: { eol: product } })).status).toBe(200);
    const url = new URL(await calendarUrl(ws));
    const [, keyId, sig] = /^\/calendar\/([^.]+)\.([^.]+)\.ics$/.exec(url.pathname)!;
    // The test server runs with end-of-life lookups off; the same service with them on:
    const config = { ...loadConfig({}), eolEnabled: true };
    const calendar = await loadSignedCalendar({ ctx: { db: testDb(), config, now: new Date() }, input: { keyId: keyId!, sig: sig! } });
    expect(calendar?.workspace).toBe(ws.name);
    expect(calendar?.events.find((e) => e.uid.startsWith("eol."))).toEqual({
      uid: `eol.${product}.1.27.${ws.id}@driftwatch`,
      day: "2027-04-30",
      summary: `${product} 1.27 reaches end of life`,
      description: "Runs in:\nweb · staging (1.27.3)\nweb · production (1.27.2)",
    });
  });

  it("answers a plain 404 to a wrong, foreign or malformed address, and never shows another workspace's services", async () => {
    const mine = new URL(await calendarUrl(ws));
    const theirs = new URL(await calendarUrl(other));
    const [, myKey, mySig] = /^\/calendar\/([^.]+)\.([^.]+)\.ics$/.exec(mine.pathname)!;
    const [, theirKey, theirSig] = /^\/calendar\/([^.]+)\.([^.]+)\.ics$/.exec(theirs.pathname)!;
    const at = (p: string) => new URL(p, mine).toString();
    const flipped = mySig!.replace(/^./, (c) => (c === "A" ? "B" : "A"));
    const wrong = [
      at(`/calendar/${myKey}.${theirSig}.ics`),
      at(`/calendar/${theirKey}.${mySig}.ics`),
      at(`/calendar/${myKey}.${flipped}.ics`),
      at(`/calendar/${myKey}.abc.ics`),
      at(`/calendar/AAAAAAAAAAAAAAAA.${mySig}.ics`),
      at(`/calendar/${myKey}.${mySig}.ical`),
      at(`/calendar/${myKey}.ics`),
    ];
    for (const url of wrong) expect(await load(url), url).toMatchObject({ status: 404, body: "Not found\n" });
    const theirFeed = await load(theirs.toString());
    expect(theirFeed.status).toBe(200);
    expect(theirFeed.body).not.toContain("web");
    expect((await load(mine.toString())).body).not.toContain("secret-svc");
  });

  it("dates the end of an announced drift's put-off", async () => {
    expect((await api(ws.member).patch("/api/v1/services/web", { policy: { drift_alert_after: { env: "1m" } } })).status).toBe(200);
    await evaluateWorkspaceDrift({ ctx: { db: testDb(), config: loadConfig({}), now: new Date() }, input: { workspaceId: ws.id, wait: true } });
    const [drift] = (await api(ws.viewer).get("/api/v1/drifts?kind=env")).body.items;
    expect(drift.state).toBe("announced");
    const ack = await api(ws.member).post("/api/v1/acks", { service: "web", kind: "drift", environment: "production", duration: "72h" });
    expect(ack.status).toBe(201);

    const events = parseCalendar((await load(await calendarUrl(ws))).body);
    expect(events.filter((e) => !e.uid.startsWith("eol."))).toEqual([
      {
        uid: `putoff.${ack.body.id}.${drift.id}.${ws.id}@driftwatch`,
        day: ack.body.expires_at.slice(0, 10),
        summary: "web in production: put-off of behind the previous environment ends",
        description: expect.stringContaining(`it was put off until ${new Date(ack.body.expires_at).toISOString()}`),
      },
    ]);
  });

  it("stops loading after `driftwatch badges reset`; the new address loads", async () => {
    const before = await calendarUrl(ws);
    expect((await load(before)).status).toBe(200);
    const r = resetWithCli(ws);
    expect(r.status, r.stderr).toBe(0);
    expect(await load(before)).toMatchObject({ status: 404, body: "Not found\n" });
    const after = await calendarUrl(ws);
    expect(after).not.toBe(before);
    expect((await load(after)).status).toBe(200);
  });
});
