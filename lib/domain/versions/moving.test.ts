import { describe, expect, it } from "vitest";
import { movingTagCandidates } from "./moving";
import { IMAGES, type ImageName } from "./testdata/images";

describe("movingTagCandidates", () => {
  it.each([
    ["mongo", "7", ["7.0.15", "7.0.14"]],
    ["nginx", "1", ["1.27.3", "1.27.2", "1.27.1", "1.27.0", "1.26.2", "1.26.1", "1.26.0", "1.25.5"]],
    ["nginx", "1.27", ["1.27.3", "1.27.2", "1.27.1", "1.27.0"]],
    ["nginx", "1.27-alpine", ["1.27.3-alpine", "1.27.2-alpine", "1.27.1-alpine"]],
    ["nginx", "1.27-alpine3.20", ["1.27.3-alpine3.20", "1.27.3-alpine", "1.27.2-alpine3.20", "1.27.2-alpine", "1.27.1-alpine"]],
    ["nginx", "latest", ["1.27.3", "1.27.2", "1.27.1", "1.27.0", "1.26.2", "1.26.1", "1.26.0", "1.25.5"]],
    ["nginx", "alpine", ["1.27.3-alpine", "1.27.2-alpine", "1.27.1-alpine", "1.26.2-alpine", "1.26.1-alpine", "1.25.5-alpine"]],
    ["nginx", "stable-perl", ["1.27.3-perl", "1.27.2-perl", "1.26.2-perl"]],
    ["nginx", "1.27.3", []],
    ["postgres", "16-alpine3.20", ["16.6-alpine3.20", "16.6-alpine", "16.5-alpine3.20"]],
    ["postgres", "17", ["17.2", "17.1", "17.0"]],
    ["postgres", "latest", ["17.2", "17.1", "17.0", "16.6", "16.5", "15.10", "14.15", "13.18", "12.22", "9.6.24"]],
    ["redis", "7", ["7.4.1", "7.4.0", "7.2.6", "7.0.15"]],
    ["traefik", "v3", ["v3.2.1", "v3.2.0", "v3.1.7", "v3.0.4"]],
    ["traefik", "mimolette", []],
    ["linuxserverSonarr", "latest", [
      "4.0.11.2680-ls262", "4.0.11.2680-ls261", "4.0.10.2544-ls260", "4.0.10.2544-ls259", "4.0.9.2244-ls255",
      "4.0.9.2244-ls254", "3.0.10.1567-ls220",
    ]],
    ["linuxserverSonarr", "amd64-latest", ["amd64-4.0.11.2680-ls262"]],
    ["bitnamiMysql", "8.0", ["8.0.40"]],
    ["bitnamiMysql", "latest", ["9.1.0", "8.4.3", "8.0.40"]],
    ["mongo", "windowsservercore-ltsc2022", ["8.0.3-windowsservercore-ltsc2022", "7.0.14-windowsservercore-ltsc2022"]],
    ["ubuntu", "jammy", ["jammy-20240911.1", "jammy-20240808"]],
    ["debian", "bookworm", ["bookworm-20241111"]],
    ["python", "3.13-slim", ["3.13.0-slim"]],
    ["rabbitmq", "4.0-management-alpine", ["4.0.4-management-alpine", "4.0.3-management-alpine"]],
    ["keycloak", "26", ["26.0.7", "26.0.6", "26.0.5", "26.0.0"]],
    ["minio", "latest", [
      "RELEASE.2024-11-07T00-52-20Z", "RELEASE.2024-10-29T16-01-48Z", "RELEASE.2024-10-13T13-34-11Z",
      "RELEASE.2023-12-23T07-19-11Z",
    ]],
    ["clickhouse", "24.10", ["24.10.2.80", "24.10.1.2812"]],
    ["grafana", "11.3.0", ["11.3.0-security-01"]],
    ["cosignedApp", "sha-abc1234", []],
  ] as readonly [ImageName, string, string[]][])("%s: %s → %j", (image, running, expected) => {
    expect(movingTagCandidates(running, IMAGES[image].tags)).toEqual(expected);
  });
});
