import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { AppError } from "@/lib/domain/errors";
import { checkDestination, checkHeaderName, checkHeaderValue, parseDestination } from "./destination";
import { OutboundRequestError, requestPinned } from "./pinned-request";

const neverResolve = vi.fn(async (): Promise<string[]> => {
  throw new Error("DNS must not be asked");
});

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe("checkDestination: refused without allowPrivate", () => {
  it.each([
    ["http://127.0.0.1/", "loopback"],
    ["http://127.1/", "loopback"],
    ["http://2130706433/", "loopback"],
    ["http://0x7f.1/", "loopback"],
    ["http://0x7f000001/", "loopback"],
    ["http://0177.0.0.1/", "loopback"],
    ["http://017700000001/", "loopback"],
    ["http://[::1]/", "loopback"],
    ["http://[::ffff:127.0.0.1]/", "loopback"],
    ["http://[::ffff:7f00:1]/", "loopback"],
    ["http://[64:ff9b::7f00:1]/", "loopback"],
    ["http://[2002:7f00:1::]/", "loopback"],
    ["http://0.0.0.0/", "unspecified"],
    ["http://0/", "unspecified"],
    ["http://[::]/", "unspecified"],
    ["http://10.0.0.1/", "private-network"],
    ["http://10.255.255.255:8080/hook", "private-network"],
    ["http://172.16.0.1/", "private-network"],
    ["http://172.31.0.1/", "private-network"],
    ["http://192.168.0.1/", "private-network"],
    ["http://0xc0.0xa8.0.1/", "private-network"],
    ["http://3232235521/", "private-network"],
    ["http://[fc00::1]/", "private-network"],
    ["http://[fd12:3456::1]/", "private-network"],
    ["http://[::ffff:10.0.0.1]/", "private-network"],
    ["http://169.254.1.1/", "link-local"],
    ["http://[fe80::1]/", "link-local"],
    ["http://169.254.169.254/latest/meta-data/", "cloud metadata"],
    ["http://2852039166/", "cloud metadata"],
    ["http://[::ffff:169.254.169.254]/", "cloud metadata"],
    ["http://[fd00:ec2::254]/", "cloud metadata"],
    ["http://100.64.0.1/", "carrier-grade NAT"],
    ["http://100.127.255.254/", "carrier-grade NAT"],
    ["http://224.0.0.1/", "multicast"],
    ["http://[ff02::1]/", "multicast"],
    ["http://255.255.255.255/", "broadcast"],
  ])("%s (%s)", async (url, label) => {
    const error = await refusal(checkDestination(url, { allowPrivate: false, resolve: neverResolve }));
    expect(error.code).toBe("invalid_input");
    expect(error.message).toContain(label);
    expect(error.errors).toEqual([{ pointer: "/url", detail: error.message }]);
    expect(neverResolve).not.toHaveBeenCalled();
  });

  it.each(["http://localhost/", "http://LOCALHOST./", "http://api.localhost:8080/"])("%s (loopback name, no DNS asked)", async (url) => {
    const error = await refusal(checkDestination(url, { allowPrivate: false, resolve: neverResolve }));
    expect(error.message).toContain("loopback name");
    expect(neverResolve).not.toHaveBeenCalled();
  });

  it.each([
    ["ftp://example.com/", "Only http and https"],
    ["file:///etc/passwd", "Only http and https"],
    ["gopher://example.com:70/", "Only http and https"],
    ["javascript:alert(1)", "Only http and https"],
    ["not a url", "not a valid URL"],
    ["http://user:pass@example.com/", "user name or password"],
    ["https://token@example.com/", "user name or password"],
    [`https://example.com/${"a".repeat(2100)}`, "longer than"],
  ])("%s is refused: %s", async (url, reason) => {
    const error = await refusal(checkDestination(url, { allowPrivate: true, resolve: neverResolve }));
    expect(error.code).toBe("invalid_input");
    expect(error.message).toContain(reason);
    expect(error.message).not.toContain("pass@");
  });
});

describe("checkDestination: host names are resolved and every address checked", () => {
  it.each([
    [["127.0.0.1"], "loopback"],
    [["10.0.0.5"], "private-network"],
    [["93.184.216.34", "192.168.1.1"], "private-network"],
    [["2606:4700::1", "fd00::1"], "private-network"],
    [["::ffff:127.0.0.1"], "loopback"],
    [["169.254.169.254"], "cloud metadata"],
    [["0.0.0.0"], "unspecified"],
  ])("public-looking name resolving to %j is refused (%s)", async (answers, label) => {
    const resolve = vi.fn(async () => answers);
    const error = await refusal(checkDestination("https://hooks.example.com/x", { allowPrivate: false, resolve }));
    expect(error.code).toBe("invalid_input");
    expect(error.message).toContain("The host hooks.example.com resolves to");
    expect(error.message).toContain(label);
    expect(resolve).toHaveBeenCalledWith("hooks.example.com");
  });

  it("accepts a public name and pins its first address", async () => {
    const checked = await checkDestination("https://hooks.example.com:8443/in?x=1", {
      allowPrivate: false,
      resolve: async () => ["93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946"],
    });
    expect(checked).toMatchObject({ hostname: "hooks.example.com", port: 8443, address: "93.184.216.34", family: 4, literal: null });
  });

  it("accepts a public IP literal without asking DNS", async () => {
    const checked = await checkDestination("http://[2606:4700:4700::1111]/", { allowPrivate: false, resolve: neverResolve });
    expect(checked).toMatchObject({ hostname: "2606:4700:4700::1111", port: 80, address: "2606:4700:4700::1111", family: 6 });
  });

  it("a name that does not resolve is unavailable (retryable), not invalid", async () => {
    const error = await refusal(checkDestination("https://nowhere.example/", { allowPrivate: false, resolve: async () => [] }));
    expect(error.code).toBe("unavailable");
    const error2 = await refusal(
      checkDestination("https://nowhere.example/", {
        allowPrivate: false,
        resolve: async () => {
          throw Object.assign(new Error("getaddrinfo ENOTFOUND"), { code: "ENOTFOUND" });
        },
      }),
    );
    expect(error2.code).toBe("unavailable");
  });

  it("refuses a resolver answer that is not an IP address", async () => {
    const error = await refusal(checkDestination("https://odd.example/", { allowPrivate: false, resolve: async () => ["0x7f.1"] }));
    expect(error.code).toBe("invalid_input");
  });
});

describe("checkDestination with allowPrivate", () => {
  it.each(["http://127.0.0.1:8080/", "http://10.1.2.3/", "http://[::1]/", "http://localhost/", "http://[fd00::1]/", "http://100.64.1.1/"])(
    "%s is allowed",
    async (url) => {
      await expect(checkDestination(url, { allowPrivate: true, resolve: async () => ["127.0.0.1"] })).resolves.toBeTruthy();
    },
  );

  it.each(["http://169.254.169.254/", "http://[::ffff:a9fe:a9fe]/", "http://0.0.0.0/", "http://224.0.0.1/"])("%s stays refused", async (url) => {
    const error = await refusal(checkDestination(url, { allowPrivate: true, resolve: neverResolve }));
    expect(error.message).toContain("never allowed");
  });

  it("a name resolving to the metadata address stays refused", async () => {
    const error = await refusal(checkDestination("http://metadata.google.internal/", { allowPrivate: true, resolve: async () => ["169.254.169.254"] }));
    expect(error.message).toContain("cloud metadata");
  });
});

describe("parseDestination", () => {
  it("names the pointer it was given", () => {
    try {
      parseDestination("ftp://x/", { allowPrivate: false, pointer: "/config/url" });
      expect.unreachable();
    } catch (e) {
      expect((e as AppError).errors).toEqual([{ pointer: "/config/url", detail: "Only http and https addresses are allowed." }]);
    }
  });
});

describe("header checks", () => {
  it.each(["a\r\nX-Injected: 1", "a\nb", "a\rb", "a\0b"])("refuses %j", (value) => {
    expect(() => checkHeaderValue(value)).toThrow(AppError);
  });
  it("accepts an ordinary value", () => {
    expect(checkHeaderValue("Bearer abc.def")).toBe("Bearer abc.def");
  });
  it.each(["X Bad", "X:Bad", "", "X\r\nY"])("refuses header name %j", (name) => {
    expect(() => checkHeaderName(name)).toThrow(AppError);
  });
});

describe("requestPinned", () => {
  let server: http.Server;
  let port: number;
  const seen: Array<{ host: string | undefined; path: string | undefined; remote: string | undefined }> = [];

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      seen.push({ host: req.headers.host, path: req.url, remote: req.socket.remoteAddress });
      if (req.url === "/redirect") {
        res.writeHead(302, { Location: "http://169.254.169.254/" }).end();
        return;
      }
      res.writeHead(200, { "content-type": "text/plain" }).end("ok");
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it("connects to the checked address, not to what DNS says later (rebinding)", async () => {
    let calls = 0;
    // First answer passes the check; any later answer would point elsewhere.
    const resolve = async () => (calls++ === 0 ? ["127.0.0.1"] : ["203.0.113.9"]);
    const destination = await checkDestination(`http://rebind.test:${port}/hook?a=1`, { allowPrivate: true, resolve });
    const response = await requestPinned({ destination, method: "POST", headers: {}, body: "{}", timeoutMs: 2000 });
    expect(response.status).toBe(200);
    expect(response.body).toBe("ok");
    expect(calls).toBe(1);
    expect(seen.at(-1)).toEqual({ host: `rebind.test:${port}`, path: "/hook?a=1", remote: "127.0.0.1" });
  });

  it("does not follow redirects", async () => {
    const destination = await checkDestination(`http://127.0.0.1:${port}/redirect`, { allowPrivate: true });
    const before = seen.length;
    const response = await requestPinned({ destination, method: "POST", headers: {}, body: "", timeoutMs: 2000 });
    expect(response.status).toBe(302);
    expect(seen.length).toBe(before + 1);
  });

  it("reports a refused connection without the URL's path or query", async () => {
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, "127.0.0.1", r));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const destination = await checkDestination(`http://127.0.0.1:${closedPort}/secret-path?token=abc`, { allowPrivate: true });
    const error = await requestPinned({ destination, method: "POST", headers: {}, body: "", timeoutMs: 2000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OutboundRequestError);
    expect((error as OutboundRequestError).kind).toBe("connection_refused");
    expect((error as Error).message).not.toMatch(/secret-path|token/);
  });
});
