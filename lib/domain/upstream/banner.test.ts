import { describe, expect, it } from "vitest";
import { countUpstreamStates, groupFailingRegistries, type RepositoryUpstream } from "./banner";

const repo = (host: string, state: RepositoryUpstream["state"], error: string | null = null): RepositoryUpstream => ({ host, state, error });

describe("groupFailingRegistries", () => {
  it.each<[string, RepositoryUpstream[], ReturnType<typeof groupFailingRegistries>]>([
    ["nothing failing", [repo("docker.io", "ok"), repo("ghcr.io", "unchecked")], []],
    [
      "one host, one reason",
      [repo("docker.io", "failed", "registry-1.docker.io: name not resolved"), repo("docker.io", "failed", "registry-1.docker.io: name not resolved"), repo("ghcr.io", "ok")],
      [{ host: "docker.io", repositories: 2, reason: "registry-1.docker.io: name not resolved" }],
    ],
    [
      "most affected host first; the most common reason; stale counts",
      [
        repo("quay.io", "failed", "quay.io: connection refused"),
        repo("ghcr.io", "failed", "401 from ghcr.io: private repository, check it with an agent"),
        repo("quay.io", "failed", "503 from quay.io: registry error, retrying"),
        repo("quay.io", "stale", "no successful check for 4h"),
        repo("Quay.io", "failed", "503 from quay.io: registry error, retrying"),
      ],
      [
        { host: "quay.io", repositories: 4, reason: "503 from quay.io: registry error, retrying" },
        { host: "ghcr.io", repositories: 1, reason: "401 from ghcr.io: private repository, check it with an agent" },
      ],
    ],
    [
      "equal counts by host name",
      [repo("quay.io", "failed", null), repo("ghcr.io", "failed", "x")],
      [{ host: "ghcr.io", repositories: 1, reason: "x" }, { host: "quay.io", repositories: 1, reason: null }],
    ],
  ])("%s", (_name, repositories, expected) => {
    expect(groupFailingRegistries(repositories)).toEqual(expected);
  });
});

describe("countUpstreamStates", () => {
  it("counts per host and state, every state present, hosts in order", () => {
    expect(countUpstreamStates([repo("quay.io", "failed"), repo("docker.io", "ok"), repo("Docker.io", "ok"), repo("docker.io", "stale")])).toEqual([
      { host: "docker.io", state: "ok", repositories: 2 },
      { host: "docker.io", state: "failed", repositories: 0 },
      { host: "docker.io", state: "stale", repositories: 1 },
      { host: "docker.io", state: "unchecked", repositories: 0 },
      { host: "quay.io", state: "ok", repositories: 0 },
      { host: "quay.io", state: "failed", repositories: 1 },
      { host: "quay.io", state: "stale", repositories: 0 },
      { host: "quay.io", state: "unchecked", repositories: 0 },
    ]);
    expect(countUpstreamStates([])).toEqual([]);
  });
});
