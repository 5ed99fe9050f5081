import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "@/lib/config";
import { rationedHost } from "./pull-budget";
import { registryCredentialsFor, registryMirrorFor } from "./registry-credentials";

const TOKEN = "dckr_pat_0123456789abcdef";

describe("Docker Hub credentials", () => {
  it("are read together, and a missing half names the variable without showing the token", () => {
    expect(loadConfig({ DRIFTWATCH_DOCKERHUB_USERNAME: "alice", DRIFTWATCH_DOCKERHUB_TOKEN: TOKEN }).registryCredentials).toEqual({ "docker.io": { username: "alice", password: TOKEN } });
    expect(loadConfig({}).registryCredentials).toEqual({});
    expect(() => loadConfig({ DRIFTWATCH_DOCKERHUB_USERNAME: "alice" })).toThrow(new ConfigError("DRIFTWATCH_DOCKERHUB_TOKEN", "set DRIFTWATCH_DOCKERHUB_USERNAME and DRIFTWATCH_DOCKERHUB_TOKEN together"));
    const short = (() => {
      try {
        loadConfig({ DRIFTWATCH_DOCKERHUB_USERNAME: "alice", DRIFTWATCH_DOCKERHUB_TOKEN: "abc" });
      } catch (err) {
        return (err as Error).message;
      }
    })();
    expect(short).toBe("DRIFTWATCH_DOCKERHUB_TOKEN: expected a personal access token");
    expect(() => loadConfig({ DRIFTWATCH_DOCKERHUB_USERNAME: "no spaces", DRIFTWATCH_DOCKERHUB_TOKEN: TOKEN })).toThrow(/^DRIFTWATCH_DOCKERHUB_USERNAME: expected a Docker Hub user name/);
  });

  it("go to Docker Hub (and hosts rationed like it in tests) only", () => {
    const config = loadConfig({ DRIFTWATCH_DOCKERHUB_USERNAME: "alice", DRIFTWATCH_DOCKERHUB_TOKEN: TOKEN }, { dockerHubHosts: ["127.0.0.1:5000"] });
    const creds = registryCredentialsFor(config);
    for (const host of ["docker.io", "index.docker.io", "registry-1.docker.io", "127.0.0.1:5000"]) expect(creds(host)).toEqual({ username: "alice", password: TOKEN });
    for (const host of ["ghcr.io", "quay.io", "127.0.0.1:5001", "docker.io.evil.example"]) expect(creds(host)).toBeNull();
  });

  it("raise the budget from 10 to 100 pulls an hour", () => {
    expect(rationedHost(loadConfig({}), "docker.io")).toMatchObject({ isSignedIn: false, defaults: { limit: 10, windowSeconds: 3600 } });
    expect(rationedHost(loadConfig({ DRIFTWATCH_DOCKERHUB_USERNAME: "alice", DRIFTWATCH_DOCKERHUB_TOKEN: TOKEN }), "docker.io")).toMatchObject({ isSignedIn: true, defaults: { limit: 100 } });
    expect(rationedHost(loadConfig({}), "ghcr.io")).toBeNull();
  });
});

describe("a budget per identity", () => {
  it("anonymous, a signed-in user and a mirror are three budgets", () => {
    expect(rationedHost(loadConfig({}), "docker.io")?.identity).toBe("anonymous");
    expect(rationedHost(loadConfig({ DRIFTWATCH_DOCKERHUB_USERNAME: "alice", DRIFTWATCH_DOCKERHUB_TOKEN: TOKEN }), "docker.io")?.identity).toBe("user:alice");
    expect(rationedHost(loadConfig({ DRIFTWATCH_DOCKERHUB_MIRROR: "https://mirror.example.com:5000" }), "docker.io")).toMatchObject({ identity: "mirror:mirror.example.com:5000", mirror: "https://mirror.example.com:5000", isSignedIn: false });
  });
});

describe("DRIFTWATCH_DOCKERHUB_MIRROR", () => {
  const message = (env: Record<string, string>) => {
    try {
      loadConfig(env);
      return null;
    } catch (err) {
      return (err as Error).message;
    }
  };

  it("takes https://host[:port], like Docker's registry-mirrors, and http for an insecure registry", () => {
    expect(loadConfig({ DRIFTWATCH_DOCKERHUB_MIRROR: "https://Mirror.example.com/" }).dockerHubMirror).toBe("https://mirror.example.com");
    expect(loadConfig({ DRIFTWATCH_DOCKERHUB_MIRROR: "http://cache.local:5000", DRIFTWATCH_INSECURE_REGISTRIES: "cache.local:5000" }).dockerHubMirror).toBe("http://cache.local:5000");
    expect(loadConfig({}).dockerHubMirror).toBeUndefined();
  });

  it.each([
    ["mirror.example.com", /^DRIFTWATCH_DOCKERHUB_MIRROR: expected https:\/\/host\[:port\]/],
    ["https://mirror.example.com/v2/", /^DRIFTWATCH_DOCKERHUB_MIRROR: expected https:\/\/host\[:port\]/],
    ["https://user:pw@mirror.example.com", /^DRIFTWATCH_DOCKERHUB_MIRROR: expected https:\/\/host\[:port\]/],
    ["ftp://mirror.example.com", /^DRIFTWATCH_DOCKERHUB_MIRROR: expected https:\/\/host\[:port\]/],
    ["http://cache.local:5000", /^DRIFTWATCH_DOCKERHUB_MIRROR: http:\/\/cache\.local:5000 is plain http: add cache\.local:5000 to DRIFTWATCH_INSECURE_REGISTRIES, or use https$/],
  ])("refuses %s with one line naming the variable", (value, expected) => {
    const m = message({ DRIFTWATCH_DOCKERHUB_MIRROR: value });
    expect(m).toMatch(expected);
    expect(m).not.toContain("\n");
  });

  it("takes Docker Hub's reads (and its stand-ins'), and never its credentials", () => {
    const config = loadConfig({ DRIFTWATCH_DOCKERHUB_USERNAME: "alice", DRIFTWATCH_DOCKERHUB_TOKEN: TOKEN, DRIFTWATCH_DOCKERHUB_MIRROR: "https://mirror.example.com" }, { dockerHubHosts: ["127.0.0.1:5000"] });
    const mirror = registryMirrorFor(config);
    for (const host of ["docker.io", "registry-1.docker.io", "127.0.0.1:5000"]) expect(mirror(host)).toBe("https://mirror.example.com");
    for (const host of ["ghcr.io", "quay.io", "mirror.example.com"]) expect(mirror(host)).toBeNull();
    for (const host of ["docker.io", "127.0.0.1:5000", "mirror.example.com"]) expect(registryCredentialsFor(config)(host)).toBeNull();
  });
});
