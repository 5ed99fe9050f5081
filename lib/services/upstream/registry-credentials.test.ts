import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "@/lib/config";
import { rationedHost } from "./pull-budget";
import { registryCredentialsFor } from "./registry-credentials";

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
