// E-mail against a real SMTP server (smtp-server) on 127.0.0.1.
import type { AddressInfo } from "node:net";
import { SMTPServer, type SMTPServerOptions } from "smtp-server";
import { afterEach, describe, expect, it } from "vitest";
import driftFixture from "@/tests/fixtures/channels/drift-detected.json";
import planFixture from "@/tests/fixtures/channels/upgrade-plan.json";
import type { DriftEventPayload, UpgradePlanPayload } from "@/lib/domain/notifications/payloads";
import { sendNotification, type DeliveryResult } from "../index";
import { closedPort } from "../test-support";
import { parseSmtpUrl } from "./smtp-url";

const drift = driftFixture as DriftEventPayload;
const plan = planFixture as UpgradePlanPayload;
const now = new Date("2026-11-20T10:15:00Z");
const PASSWORD = "p@ss w0rd/secret";

type Received = { from: string; to: string[]; user: string | undefined; authMethod: string | undefined; raw: string };

type Smtp = { port: number; received: Received[]; close: () => Promise<void> };

async function startSmtp(opts: { auth: boolean; rejectRcpt?: (address: string) => number | null; rejectData?: number }): Promise<Smtp> {
  const received: Received[] = [];
  const smtpError = (code: number, text: string) => Object.assign(new Error(text), { responseCode: code });
  const options: SMTPServerOptions = {
    logger: false,
    // No certificate the client would trust here; TLS is nodemailer's and Node's business.
    disabledCommands: opts.auth ? ["STARTTLS"] : ["STARTTLS", "AUTH"],
    authOptional: !opts.auth,
    allowInsecureAuth: true,
    authMethods: ["PLAIN"],
    onAuth(auth, _session, callback) {
      if (auth.username === "driftwatch" && auth.password === PASSWORD) callback(null, { user: `${auth.username}|${auth.method}` });
      else callback(smtpError(535, "5.7.8 Authentication credentials invalid"));
    },
    onRcptTo(address, _session, callback) {
      const code = opts.rejectRcpt?.(address.address) ?? null;
      if (code === null) callback();
      else callback(smtpError(code, code >= 500 ? "5.1.1 No such user here" : "4.7.1 Greylisted, try again later"));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        if (opts.rejectData) return callback(smtpError(opts.rejectData, opts.rejectData >= 500 ? "5.7.1 Message refused as spam" : "4.3.0 Try later"));
        const [user, method] = typeof session.user === "string" ? session.user.split("|") : [undefined, undefined];
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          user,
          authMethod: method,
          raw: Buffer.concat(chunks).toString("utf8"),
        });
        callback();
      });
    },
  };
  const server = new SMTPServer(options);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.server.address() as AddressInfo).port;
  return { port, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** Headers unfolded, and the text/plain part decoded (quoted-printable or base64). */
function parseMessage(raw: string): { headers: Record<string, string>; text: string; html: string } {
  const [head = "", ...rest] = raw.split("\r\n\r\n");
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r\n[ \t]+/g, " ").split("\r\n")) {
    const i = line.indexOf(":");
    headers[line.slice(0, i).toLowerCase()] = line.slice(i + 1).trim();
  }
  const boundary = /boundary="?([^";]+)"?/.exec(headers["content-type"] ?? "")?.[1] ?? "";
  const parts = rest.join("\r\n\r\n").split(`--${boundary}`);
  const part = (type: string) => {
    const p = parts.find((x) => x.toLowerCase().includes(`content-type: ${type}`)) ?? "";
    const [partHead = "", ...body] = p.split("\r\n\r\n");
    const content = body.join("\r\n\r\n").replace(/\r\n$/, "");
    if (/content-transfer-encoding: base64/i.test(partHead)) return Buffer.from(content, "base64").toString("utf8");
    if (/content-transfer-encoding: quoted-printable/i.test(partHead)) {
      const bytes = content.replace(/=\r\n/g, "").replace(/=([0-9A-F]{2})/gi, (_m, h: string) => `%${h}`);
      return decodeURIComponent(bytes.replace(/%(?![0-9A-F]{2})/gi, "%25"));
    }
    return content;
  };
  return { headers, text: part("text/plain").replace(/\r\n/g, "\n"), html: part("text/html") };
}

let smtp: Smtp | undefined;
afterEach(async () => {
  await smtp?.close();
  smtp = undefined;
});

const sendMail = (smtpUrl: string, to: string[], payload: DriftEventPayload | UpgradePlanPayload = drift, extra: { emailFrom?: string } = {}): Promise<DeliveryResult> =>
  sendNotification({ channel: "email", config: { to }, payload, deliveryId: "dlv_01JD3WA0", now, smtpUrl, allowPrivate: false, timeoutMs: 2_000, ...extra });

const withAuth = (port: number, password = PASSWORD) => `smtp://driftwatch:${encodeURIComponent(password)}@127.0.0.1:${port}`;

describe("e-mail over a real SMTP server", () => {
  it("delivers with AUTH PLAIN: subject, recipients and text arrive", async () => {
    smtp = await startSmtp({ auth: true });
    const result = await sendMail(withAuth(smtp.port), ["ops@example.com", "oncall@example.org"]);
    expect(result).toEqual({ ok: true });

    expect(smtp.received).toHaveLength(1);
    const mail = smtp.received[0];
    expect(mail?.user).toBe("driftwatch");
    expect(mail?.authMethod).toBe("PLAIN");
    expect(mail?.from).toBe("driftwatch@localhost");
    expect(mail?.to).toEqual(["ops@example.com", "oncall@example.org"]);

    const message = parseMessage(mail?.raw ?? "");
    expect(message.headers.subject).toBe("[Driftwatch] Drift detected in acme: web in production (newer release upstream)");
    expect(message.headers.from).toBe("Driftwatch <driftwatch@localhost>");
    expect(message.headers.to).toBe("ops@example.com, oncall@example.org");
    expect(message.headers["message-id"]).toBe("<dlv_01JD3WA0@driftwatch>");
    expect(message.headers["x-driftwatch-event"]).toBe("drift_detected");
    expect(message.headers["x-driftwatch-delivery"]).toBe("dlv_01JD3WA0");
    expect(message.text).toContain("Drift detected: web in production (newer release upstream)");
    expect(message.text).toContain("Running:    1.25.0");
    expect(message.text).toContain("Open in Driftwatch: https://driftwatch.example.com/services/web");
    expect(message.text).toContain("Driftwatch · workspace acme · event evt_01JD3W8Q5K2R9");
    expect(message.html).toContain('<a href="https://driftwatch.example.com/services/web">web</a>');
  });

  it("delivers without authentication, with the sender from ?from=", async () => {
    smtp = await startSmtp({ auth: false });
    const from = encodeURIComponent("Driftwatch Alerts <alerts@example.com>");
    const result = await sendMail(`smtp://127.0.0.1:${smtp.port}?from=${from}`, ["team@example.com"], plan);
    expect(result).toEqual({ ok: true });
    const mail = smtp.received[0];
    expect(mail?.user).toBeUndefined();
    expect(mail?.from).toBe("alerts@example.com");
    expect(mail?.to).toEqual(["team@example.com"]);
    const message = parseMessage(mail?.raw ?? "");
    expect(message.headers.subject).toBe("[Driftwatch] Weekly upgrade plan for acme: 4 upgrades");
    expect(message.text).toContain("- [ ] web (production): 1.25.0 → 1.27.3 · minor release · https://nginx.org/en/CHANGES-1.27");
  });

  it("uses the configured sender over the URL's", async () => {
    smtp = await startSmtp({ auth: false });
    await sendMail(`smtp://127.0.0.1:${smtp.port}?from=a%40example.com`, ["team@example.com"], drift, { emailFrom: "Ops <ops@example.net>" });
    expect(parseMessage(smtp.received[0]?.raw ?? "").headers.from).toBe("Ops <ops@example.net>");
  });

  it("550 for the recipients is a permanent failure", async () => {
    smtp = await startSmtp({ auth: true, rejectRcpt: () => 550 });
    const result = await sendMail(withAuth(smtp.port), ["nobody@example.com"]);
    expect(result).toMatchObject({ ok: false, retryable: false });
    expect(result.ok ? "" : result.error).toMatch(/^SMTP server 127\.0\.0\.1:\d+ refused the message: .*550/);
    expect(smtp.received).toHaveLength(0);
  });

  it("451 for the recipients is retryable", async () => {
    smtp = await startSmtp({ auth: true, rejectRcpt: () => 451 });
    const result = await sendMail(withAuth(smtp.port), ["later@example.com"]);
    expect(result).toMatchObject({ ok: false, retryable: true });
    expect(result.ok ? "" : result.error).toMatch(/deferred the message: .*451/);
  });

  it("550 after DATA is permanent; 451 after DATA is retryable", async () => {
    smtp = await startSmtp({ auth: false, rejectData: 550 });
    expect(await sendMail(`smtp://127.0.0.1:${smtp.port}`, ["a@example.com"])).toMatchObject({ ok: false, retryable: false });
    await smtp.close();
    smtp = await startSmtp({ auth: false, rejectData: 451 });
    expect(await sendMail(`smtp://127.0.0.1:${smtp.port}`, ["a@example.com"])).toMatchObject({ ok: false, retryable: true });
  });

  it("some recipients refused: sent to the others, with a warning", async () => {
    smtp = await startSmtp({ auth: false, rejectRcpt: (a) => (a.startsWith("gone") ? 550 : null) });
    const result = await sendMail(`smtp://127.0.0.1:${smtp.port}`, ["gone@example.com", "here@example.com"]);
    expect(result).toEqual({ ok: true, warning: "The SMTP server refused 1 of 2 recipients." });
    expect(smtp.received[0]?.to).toEqual(["here@example.com"]);
  });

  it("a wrong password is permanent and the error never shows a password", async () => {
    smtp = await startSmtp({ auth: true });
    const wrong = "wr0ng-Pa55word";
    const result = await sendMail(withAuth(smtp.port, wrong), ["ops@example.com"]);
    expect(result).toMatchObject({ ok: false, retryable: false });
    const text = JSON.stringify(result);
    expect(text).toContain("refused the login");
    expect(text).not.toContain(wrong);
    expect(text).not.toContain(PASSWORD);
  });

  it("a server that is down is retryable, and the error has no credentials", async () => {
    const port = await closedPort();
    const result = await sendMail(withAuth(port), ["ops@example.com"]);
    expect(result).toMatchObject({ ok: false, retryable: true });
    expect(result.ok ? "" : result.error).toContain(`127.0.0.1:${port}`);
    expect(JSON.stringify(result)).not.toMatch(/p@ss|w0rd|secret/);
  });

  it("without DRIFTWATCH_SMTP_URL nothing can be sent", async () => {
    const result = await sendNotification({ channel: "email", config: { to: ["a@example.com"] }, payload: drift, deliveryId: "d1", now, allowPrivate: false });
    expect(result).toEqual({ ok: false, retryable: false, error: "E-mail is not configured: DRIFTWATCH_SMTP_URL is not set." });
  });
});

describe("parseSmtpUrl", () => {
  it.each([
    ["smtp://mail.example.com", { host: "mail.example.com", port: 587, secure: false, auth: null, from: null }],
    ["smtps://u:p%40ss@mail.example.com", { host: "mail.example.com", port: 465, secure: true, auth: { user: "u", pass: "p@ss" }, from: null }],
    ["smtp://u:p@127.0.0.1:2525?from=a%40b.c", { host: "127.0.0.1", port: 2525, secure: false, auth: { user: "u", pass: "p" }, from: "a@b.c" }],
  ])("%s", (url, expected) => {
    expect(parseSmtpUrl(url)).toEqual(expected);
  });

  it.each([
    ["http://mail.example.com", "smtp:// or smtps://"],
    ["nonsense", "not a valid URL"],
    ["smtp://:secretpw@mail.example.com", "password without a user name"],
  ])("refuses %s without repeating it", (url, reason) => {
    expect(() => parseSmtpUrl(url)).toThrow(reason);
    try {
      parseSmtpUrl(url);
    } catch (e) {
      expect((e as Error).message).not.toContain("secretpw");
    }
  });
});
