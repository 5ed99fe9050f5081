// Errors shaped as the registry adapter throws them (an AppError naming the
// request, the network error as its cause); the adapter's own test drives the
// real client against loopback.
import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/domain/errors";
import { describeRegistryFailure, registryFailureOf } from "./registry-failure";

const sysError = (code: string, message: string) => Object.assign(new Error(message), { code });
const fetchFailed = (cause: Error) => new TypeError("fetch failed", { cause });
const unavailable = (message: string, cause?: unknown) => new AppError("registry_unavailable", message, { cause });
const TAGS = "GET registry-1.docker.io/v2/library/nginx/tags/list";

describe("describeRegistryFailure", () => {
  it.each<[string, unknown, string]>([
    ["DNS", unavailable(`${TAGS}: request failed (getaddrinfo ENOTFOUND registry-1.docker.io)`, fetchFailed(sysError("ENOTFOUND", "getaddrinfo ENOTFOUND registry-1.docker.io"))), "registry-1.docker.io: name not resolved"],
    ["DNS, no resolver", unavailable(`${TAGS}: request failed (getaddrinfo EAI_AGAIN registry-1.docker.io)`, fetchFailed(sysError("EAI_AGAIN", "getaddrinfo EAI_AGAIN"))), "registry-1.docker.io: name not resolved"],
    ["refused", unavailable(`${TAGS}: request failed (connect ECONNREFUSED 10.0.0.1:443)`, fetchFailed(sysError("ECONNREFUSED", "connect ECONNREFUSED"))), "registry-1.docker.io: connection refused"],
    ["reset", unavailable(`${TAGS}: request failed (read ECONNRESET)`, fetchFailed(sysError("ECONNRESET", "read ECONNRESET"))), "registry-1.docker.io: connection closed by the registry"],
    ["unreachable", unavailable(`${TAGS}: request failed`, fetchFailed(sysError("EHOSTUNREACH", "connect EHOSTUNREACH"))), "registry-1.docker.io: host unreachable"],
    ["timeout", unavailable(`${TAGS}: no answer within 10000 ms`, Object.assign(new Error("The operation was aborted due to timeout"), { name: "TimeoutError", code: 23 })), "registry-1.docker.io: no answer (timed out)"],
    ["connect timeout", unavailable(`${TAGS}: request failed`, fetchFailed(sysError("UND_ERR_CONNECT_TIMEOUT", "Connect Timeout Error"))), "registry-1.docker.io: no answer (timed out)"],
    ["expired certificate", unavailable("GET registry.corp:5000/v2/app/tags/list: request failed (certificate has expired)", fetchFailed(sysError("CERT_HAS_EXPIRED", "certificate has expired"))), "registry.corp:5000: TLS certificate expired"],
    ["self-signed", unavailable("GET registry.corp/v2/app/tags/list: request failed", fetchFailed(sysError("DEPTH_ZERO_SELF_SIGNED_CERT", "self-signed certificate"))), "registry.corp: TLS certificate not trusted (self-signed)"],
    ["wrong name", unavailable("GET registry.corp/v2/app/tags/list: request failed", fetchFailed(sysError("ERR_TLS_CERT_ALTNAME_INVALID", "Hostname/IP does not match"))), "registry.corp: TLS certificate is for another name"],
    ["plain http on a TLS port", unavailable("GET registry.corp/v2/app/tags/list: request failed", fetchFailed(sysError("ERR_SSL_WRONG_VERSION_NUMBER", "wrong version number"))), "registry.corp: TLS handshake failed"],
    ["401", new AppError("forbidden", "GET ghcr.io/v2/acme/api/tags/list: access denied (401) (UNAUTHORIZED: authentication required)"), "401 from ghcr.io: private repository, check it with an agent"],
    ["403", new AppError("forbidden", "GET ghcr.io/v2/acme/api/tags/list: access denied (403)"), "403 from ghcr.io: private repository, check it with an agent"],
    ["404", new AppError("not_found", "GET quay.io/v2/acme/gone/tags/list was not found (NAME_UNKNOWN: repository name not known to registry)."), "404 from quay.io: repository not found"],
    ["429", new AppError("rate_limited", "registry-1.docker.io answered 429 Too Many Requests.", { retryAfterSeconds: 21_600 }), "429 from registry-1.docker.io: rate limited, retrying in 6 h"],
    ["502", unavailable(`${TAGS}: registry answered 502`), "502 from registry-1.docker.io: registry error, retrying"],
    ["418", unavailable(`${TAGS}: registry answered 418`), "418 from registry-1.docker.io: unexpected answer"],
    ["malformed", unavailable(`${TAGS}: malformed response (not JSON)`), "registry-1.docker.io: malformed response"],
    ["http refused", unavailable("refusing http://registry.corp: only https, or http for a configured insecure registry"), "registry.corp: plain http refused; list the host in DRIFTWATCH_INSECURE_REGISTRIES"],
    ["empty list", unavailable("docker.io/library/nginx: the registry listed no tags; the stored list is kept."), "docker.io: listed no tags; the stored list is kept"],
    ["anything else keeps its words", unavailable(`${TAGS}: more than 5 redirects`), "registry-1.docker.io: more than 5 redirects"],
    ["not an AppError", new Error("socket hang up"), "docker.io: socket hang up"],
    ["not an Error", "boom", "docker.io: boom"],
  ])("%s", (_name, error, expected) => {
    expect(describeRegistryFailure(registryFailureOf("docker.io", error))).toBe(expected);
  });

  it("keeps the parts it read", () => {
    const err = new AppError("rate_limited", "ghcr.io answered 429 Too Many Requests.", { retryAfterSeconds: 60 });
    expect(registryFailureOf("ghcr.io", err)).toEqual({
      host: "ghcr.io", code: "rate_limited", status: 429, causeCodes: [], message: err.message, retryAfterSeconds: 60,
    });
  });
});
