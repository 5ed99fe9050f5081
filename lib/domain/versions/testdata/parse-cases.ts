// Expected parses of real tags, by image. Fields left out take their empty
// value: prefix "", numbers [], prerelease null, flavour "", flavourVersion [],
// revision null, build null.
import type { ParsedTag, TagKind } from "../parse";

export type ParseExpectation = {
  p?: string;
  n?: number[];
  pre?: string;
  f?: string;
  fv?: number[];
  r?: number;
  b?: string;
};

export type ParseCase = readonly [image: string, tag: string, kind: TagKind, expected: ParseExpectation];

export function expectedParse(tag: string, kind: TagKind, e: ParseExpectation): ParsedTag {
  return {
    raw: tag,
    kind,
    prefix: e.p ?? "",
    numbers: e.n ?? [],
    prerelease: e.pre ?? null,
    isPrerelease: e.pre !== undefined,
    flavour: e.f ?? "",
    flavourVersion: e.fv ?? [],
    revision: e.r ?? null,
    build: e.b ?? null,
  };
}

const SIG = `sha256-${"a1".repeat(32)}.sig`;
const ATT = `sha256-${"b2".repeat(32)}.att`;
const SBOM = `sha256-${"c3".repeat(32)}.sbom`;

export const PARSE_CASES: readonly ParseCase[] = [
  ["nginx", "1.27.3", "version", { n: [1, 27, 3] }],
  ["nginx", "1.27.3-alpine", "version", { n: [1, 27, 3], f: "alpine" }],
  ["nginx", "1.27.3-alpine-slim", "version", { n: [1, 27, 3], f: "alpine-slim" }],
  ["nginx", "1.27.3-alpine-otel", "version", { n: [1, 27, 3], f: "alpine-otel" }],
  ["nginx", "1.27.3-alpine3.20-perl", "version", { n: [1, 27, 3], f: "alpine-perl", fv: [3, 20] }],
  ["nginx", "1.27.3-alpine3.21", "version", { n: [1, 27, 3], f: "alpine", fv: [3, 21] }],
  ["nginx", "1.27.3-bookworm-otel", "version", { n: [1, 27, 3], f: "bookworm-otel" }],
  ["nginx", "1.27-alpine3.20", "version", { n: [1, 27], f: "alpine", fv: [3, 20] }],
  ["nginx", "1.27-perl", "version", { n: [1, 27], f: "perl" }],
  ["nginx", "1-alpine-slim", "version", { n: [1], f: "alpine-slim" }],
  ["nginx", "1", "version", { n: [1] }],
  ["nginx", "mainline", "moving", {}],
  ["nginx", "mainline-alpine3.20-perl", "moving", { f: "alpine-perl", fv: [3, 20] }],
  ["nginx", "stable-perl", "moving", { f: "perl" }],
  ["nginx", "stable-alpine-slim", "moving", { f: "alpine-slim" }],
  ["nginx", "alpine-slim", "flavour", { f: "alpine-slim" }],
  ["nginx", "alpine3.20", "flavour", { f: "alpine", fv: [3, 20] }],
  ["nginx", "alpine3.20-slim", "flavour", { f: "alpine-slim", fv: [3, 20] }],
  ["nginx", "otel", "flavour", { f: "otel" }],
  ["nginx", "latest", "moving", {}],

  ["postgres", "17.2", "version", { n: [17, 2] }],
  ["postgres", "17.2-bookworm", "version", { n: [17, 2], f: "bookworm" }],
  ["postgres", "17.2-alpine3.21", "version", { n: [17, 2], f: "alpine", fv: [3, 21] }],
  ["postgres", "17-alpine3.21", "version", { n: [17], f: "alpine", fv: [3, 21] }],
  ["postgres", "16-alpine3.20", "version", { n: [16], f: "alpine", fv: [3, 20] }],
  ["postgres", "17rc1", "version", { n: [17], pre: "rc1" }],
  ["postgres", "17rc1-bookworm", "version", { n: [17], pre: "rc1", f: "bookworm" }],
  ["postgres", "17beta3-alpine3.20", "version", { n: [17], pre: "beta3", f: "alpine", fv: [3, 20] }],
  ["postgres", "9.6.24-alpine", "version", { n: [9, 6, 24], f: "alpine" }],
  ["postgres", "bullseye", "flavour", { f: "bullseye" }],

  ["redis", "7.4.1-alpine3.20", "version", { n: [7, 4, 1], f: "alpine", fv: [3, 20] }],
  ["redis", "7.4-rc2", "version", { n: [7, 4], pre: "rc2" }],
  ["redis", "7.4-rc2-alpine", "version", { n: [7, 4], pre: "rc2", f: "alpine" }],
  ["redis", "8.0-M02", "version", { n: [8, 0], pre: "m02" }],
  ["redis", "8.0-M02-bookworm", "version", { n: [8, 0], pre: "m02", f: "bookworm" }],
  ["redis", "7-bookworm", "version", { n: [7], f: "bookworm" }],

  ["node", "23.3.0-bookworm-slim", "version", { n: [23, 3, 0], f: "bookworm-slim" }],
  ["node", "22.11-alpine3.20", "version", { n: [22, 11], f: "alpine", fv: [3, 20] }],
  ["node", "current", "moving", {}],
  ["node", "current-bookworm-slim", "moving", { f: "bookworm-slim" }],
  ["node", "lts", "moving", {}],
  ["node", "lts-alpine", "moving", { f: "alpine" }],
  ["node", "jod", "flavour", { f: "jod" }],
  ["node", "iron-alpine", "flavour", { f: "iron-alpine" }],
  ["node", "bookworm-slim", "flavour", { f: "bookworm-slim" }],

  ["python", "3.12.7-slim-bookworm", "version", { n: [3, 12, 7], f: "slim-bookworm" }],
  ["python", "3.13.0rc2-alpine", "version", { n: [3, 13, 0], pre: "rc2", f: "alpine" }],
  ["python", "3.13.0rc3-slim", "version", { n: [3, 13, 0], pre: "rc3", f: "slim" }],
  ["python", "3.14.0a1", "version", { n: [3, 14, 0], pre: "a1" }],
  ["python", "3.14.0a1-alpine", "version", { n: [3, 14, 0], pre: "a1", f: "alpine" }],
  ["python", "3.13-rc-alpine", "version", { n: [3, 13], pre: "rc", f: "alpine" }],
  ["python", "3.8.0b1-alpine3.10", "version", { n: [3, 8, 0], pre: "b1", f: "alpine", fv: [3, 10] }],
  ["python", "3.13.0-windowsservercore-ltsc2022", "version", { n: [3, 13, 0], f: "windowsservercore-ltsc2022" }],
  ["python", "3.13.0-windowsservercore-1809", "version", { n: [3, 13, 0], f: "windowsservercore-1809" }],
  ["python", "rc-alpine", "moving", { pre: "rc", f: "alpine" }],
  ["python", "slim-bookworm", "flavour", { f: "slim-bookworm" }],
  ["python", "windowsservercore", "flavour", { f: "windowsservercore" }],

  ["golang", "1.24rc1", "version", { n: [1, 24], pre: "rc1" }],
  ["golang", "1.24rc1-alpine3.20", "version", { n: [1, 24], pre: "rc1", f: "alpine", fv: [3, 20] }],
  ["golang", "1.23.3-nanoserver-ltsc2022", "version", { n: [1, 23, 3], f: "nanoserver-ltsc2022" }],
  ["golang", "1.23.3-alpine3.19", "version", { n: [1, 23, 3], f: "alpine", fv: [3, 19] }],
  ["golang", "1-bookworm", "version", { n: [1], f: "bookworm" }],
  ["golang", "nanoserver", "flavour", { f: "nanoserver" }],

  ["traefik", "v3.2.1", "version", { p: "v", n: [3, 2, 1] }],
  ["traefik", "3.2.1", "version", { n: [3, 2, 1] }],
  ["traefik", "v3.2", "version", { p: "v", n: [3, 2] }],
  ["traefik", "v3", "version", { p: "v", n: [3] }],
  ["traefik", "v3.2.0-rc2", "version", { p: "v", n: [3, 2, 0], pre: "rc2" }],
  ["traefik", "mimolette", "flavour", { f: "mimolette" }],
  ["traefik", "v3.2.1-windowsservercore-ltsc2022", "version", { p: "v", n: [3, 2, 1], f: "windowsservercore-ltsc2022" }],
  ["traefik", "windowsservercore-1809", "flavour", { f: "windowsservercore-1809" }],
  ["traefik", "mimolette-windowsservercore-1809", "flavour", { f: "mimolette-windowsservercore-1809" }],

  ["grafana", "11.3.0-security-01", "version", { n: [11, 3, 0], r: 1 }],
  ["grafana", "11.3.0-security-01-ubuntu", "version", { n: [11, 3, 0], r: 1, f: "ubuntu" }],
  ["grafana", "11.3.1-ubuntu", "version", { n: [11, 3, 1], f: "ubuntu" }],
  ["grafana", "11.0.0-preview", "version", { n: [11, 0, 0], pre: "preview" }],
  ["grafana", "11.0.0-preview-ubuntu", "version", { n: [11, 0, 0], pre: "preview", f: "ubuntu" }],
  ["grafana", "main-ubuntu", "moving", { pre: "main", f: "ubuntu" }],
  ["grafana", "latest-ubuntu", "moving", { f: "ubuntu" }],

  ["prometheus", "v3.0.0-rc.1", "version", { p: "v", n: [3, 0, 0], pre: "rc.1" }],
  ["prometheus", "v3.0.0-beta.0", "version", { p: "v", n: [3, 0, 0], pre: "beta.0" }],
  ["prometheus", "v2.53.3", "version", { p: "v", n: [2, 53, 3] }],
  ["prometheus", "main", "moving", { pre: "main" }],

  ["mariadb", "11.6.2-ubi9", "version", { n: [11, 6, 2], f: "ubi9" }],
  ["mariadb", "11.6-ubi", "version", { n: [11, 6], f: "ubi" }],
  ["mariadb", "11.7.1-ubi9-rc", "version", { n: [11, 7, 1], f: "ubi9", pre: "rc" }],
  ["mariadb", "11.7-rc", "version", { n: [11, 7], pre: "rc" }],
  ["mariadb", "lts-noble", "moving", { f: "noble" }],
  ["mariadb", "10.6.20-focal", "version", { n: [10, 6, 20], f: "focal" }],

  ["mysql", "9.1.0-oraclelinux9", "version", { n: [9, 1, 0], f: "oraclelinux9" }],
  ["mysql", "innovation", "moving", {}],
  ["mysql", "innovation-oraclelinux9", "moving", { f: "oraclelinux9" }],
  ["mysql", "8.0.40-debian", "version", { n: [8, 0, 40], f: "debian" }],
  ["mysql", "5.7.44-oraclelinux7", "version", { n: [5, 7, 44], f: "oraclelinux7" }],

  ["mongo", "8.0.3-noble", "version", { n: [8, 0, 3], f: "noble" }],
  ["mongo", "8.0.3-windowsservercore-ltsc2022", "version", { n: [8, 0, 3], f: "windowsservercore-ltsc2022" }],
  ["mongo", "8.0.3-nanoserver-1809", "version", { n: [8, 0, 3], f: "nanoserver-1809" }],
  ["mongo", "8.0.0-rc20-jammy", "version", { n: [8, 0, 0], pre: "rc20", f: "jammy" }],
  ["mongo", "8.0-nanoserver", "version", { n: [8, 0], f: "nanoserver" }],
  ["mongo", "windowsservercore-ltsc2022", "flavour", { f: "windowsservercore-ltsc2022" }],
  ["mongo", "nanoserver-ltsc2022", "flavour", { f: "nanoserver-ltsc2022" }],
  ["mongo", "noble", "flavour", { f: "noble" }],

  ["rabbitmq", "3.13-management-alpine", "version", { n: [3, 13], f: "management-alpine" }],
  ["rabbitmq", "4.0.4-management", "version", { n: [4, 0, 4], f: "management" }],
  ["rabbitmq", "4.1.0-beta.1-management", "version", { n: [4, 1, 0], pre: "beta.1", f: "management" }],
  ["rabbitmq", "4.1-rc-management-alpine", "version", { n: [4, 1], pre: "rc", f: "management-alpine" }],
  ["rabbitmq", "3-management", "version", { n: [3], f: "management" }],
  ["rabbitmq", "management-alpine", "flavour", { f: "management-alpine" }],

  ["elasticsearch", "8.15.3", "version", { n: [8, 15, 3] }],
  ["elasticsearch", "9.0.0-beta1", "version", { n: [9, 0, 0], pre: "beta1" }],

  ["keycloak", "26.0.5", "version", { n: [26, 0, 5] }],
  ["keycloak", "nightly", "moving", { pre: "nightly" }],
  ["keycloak", "17.0.1-legacy", "version", { n: [17, 0, 1], f: "legacy" }],

  ["bitnami/mysql", "8.0.39-debian-12-r4", "version", { n: [8, 0, 39], f: "debian-12", r: 4 }],
  ["bitnami/mysql", "8.0.39-debian-12-r39", "version", { n: [8, 0, 39], f: "debian-12", r: 39 }],
  ["bitnami/mysql", "8.0.36-debian-11-r12", "version", { n: [8, 0, 36], f: "debian-11", r: 12 }],
  ["bitnami/redis", "7.2.5-debian-12-r4", "version", { n: [7, 2, 5], f: "debian-12", r: 4 }],
  ["bitnami/redis", "7.4.0-debian-12-r1", "version", { n: [7, 4, 0], f: "debian-12", r: 1 }],

  ["linuxserver/sonarr", "4.0.11.2680-ls262", "version", { n: [4, 0, 11, 2680], r: 262 }],
  ["linuxserver/sonarr", "version-4.0.11.2680", "version", { p: "version-", n: [4, 0, 11, 2680] }],
  ["linuxserver/sonarr", "amd64-4.0.11.2680-ls262", "version", { p: "amd64-", n: [4, 0, 11, 2680], r: 262 }],
  ["linuxserver/sonarr", "amd64-version-4.0.11.2680", "version", { p: "amd64-version-", n: [4, 0, 11, 2680] }],
  ["linuxserver/sonarr", "arm64v8-latest", "moving", { p: "arm64v8-" }],
  ["linuxserver/sonarr", "develop", "moving", { pre: "develop" }],
  ["linuxserver/nginx", "1.26.2-r3-ls290", "version", { n: [1, 26, 2], r: 290, b: "3" }],
  ["linuxserver/nginx", "version-1.26.2-r3", "version", { p: "version-", n: [1, 26, 2], r: 3 }],
  ["linuxserver/plex", "1.41.3.9314-a0bfb8370-ls248", "version", { n: [1, 41, 3, 9314], r: 248, b: "a0bfb8370" }],
  ["linuxserver/plex", "version-1.41.3.9314-a0bfb8370", "version", { p: "version-", n: [1, 41, 3, 9314], b: "a0bfb8370" }],

  ["dotnet/aspnet", "9.0.0-noble-chiseled-extra", "version", { n: [9, 0, 0], f: "noble-chiseled-extra" }],
  ["dotnet/aspnet", "9.0.0-azurelinux3.0", "version", { n: [9, 0, 0], f: "azurelinux", fv: [3, 0] }],
  ["dotnet/aspnet", "9.0.0-azurelinux3.0-distroless", "version", { n: [9, 0, 0], f: "azurelinux-distroless", fv: [3, 0] }],
  ["dotnet/aspnet", "9.0.0-rc.2-alpine3.20", "version", { n: [9, 0, 0], pre: "rc.2", f: "alpine", fv: [3, 20] }],
  ["dotnet/aspnet", "9.0.0-preview.7-bookworm-slim", "version", { n: [9, 0, 0], pre: "preview.7", f: "bookworm-slim" }],
  ["dotnet/aspnet", "6.0-nanoserver-ltsc2022", "version", { n: [6, 0], f: "nanoserver-ltsc2022" }],
  ["dotnet/aspnet", "8.0.11-nanoserver-1809", "version", { n: [8, 0, 11], f: "nanoserver-1809" }],
  ["dotnet/aspnet", "9.0.0-rc.1-nanoserver-ltsc2022", "version", { n: [9, 0, 0], pre: "rc.1", f: "nanoserver-ltsc2022" }],

  ["windows/servercore", "ltsc2022", "flavour", { f: "ltsc2022" }],
  ["windows/servercore", "1809", "version", { n: [1809] }],
  ["windows/servercore", "10.0.20348.2849", "version", { n: [10, 0, 20348, 2849] }],
  ["windows/servercore", "10.0.20348.2849-amd64", "version", { n: [10, 0, 20348, 2849], f: "amd64" }],
  ["windows/servercore", "ltsc2022-amd64", "flavour", { f: "ltsc2022-amd64" }],
  ["windows/servercore", "1809-amd64", "version", { n: [1809], f: "amd64" }],

  ["home-assistant", "2024.11.3", "date", { n: [2024, 11, 3] }],
  ["home-assistant", "2024.11", "date", { n: [2024, 11] }],
  ["home-assistant", "2024.12.0b1", "date", { n: [2024, 12, 0], pre: "b1" }],
  ["home-assistant", "2024.12.0.dev202411200235", "date", { n: [2024, 12, 0], pre: "dev202411200235" }],
  ["home-assistant", "stable", "moving", {}],
  ["home-assistant", "beta", "moving", { pre: "beta" }],
  ["home-assistant", "dev", "moving", { pre: "dev" }],

  ["ubuntu", "24.04", "version", { n: [24, 4] }],
  ["ubuntu", "noble-20241015", "date", { p: "noble-", n: [20241015] }],
  ["ubuntu", "jammy-20240911.1", "date", { p: "jammy-", n: [20240911, 1] }],
  ["ubuntu", "noble", "flavour", { f: "noble" }],
  ["ubuntu", "rolling", "moving", {}],

  ["debian", "bookworm-20241111-slim", "date", { p: "bookworm-", n: [20241111], f: "slim" }],
  ["debian", "12.8-slim", "version", { n: [12, 8], f: "slim" }],
  ["debian", "testing", "moving", { pre: "testing" }],
  ["debian", "sid", "moving", { pre: "sid" }],
  ["debian", "unstable", "moving", { pre: "unstable" }],
  ["debian", "trixie-20241111", "date", { p: "trixie-", n: [20241111] }],

  ["minio", "RELEASE.2024-11-07T00-52-20Z", "date", { p: "release.", n: [2024, 11, 7, 0, 52, 20] }],
  ["minio", "RELEASE.2024-11-07T00-52-20Z.fips", "date", { p: "release.", n: [2024, 11, 7, 0, 52, 20], f: "fips" }],

  ["clickhouse", "24.10.2.80", "version", { n: [24, 10, 2, 80] }],
  ["clickhouse", "24.10.2.80-alpine", "version", { n: [24, 10, 2, 80], f: "alpine" }],
  ["clickhouse", "head", "moving", { pre: "head" }],
  ["clickhouse", "head-alpine", "moving", { pre: "head", f: "alpine" }],

  ["cosign", "sha-abc1234", "hash", {}],
  ["cosign", "sha-1234567", "hash", {}],
  ["cosign", "main-abc1234", "hash", {}],
  ["cosign", "abc1234", "hash", {}],
  ["cosign", SIG, "signature", {}],
  ["cosign", ATT, "signature", {}],
  ["cosign", SBOM, "signature", {}],
  ["cosign", `sha256-${"d4".repeat(32)}`, "hash", {}],
  ["cosign", "pr-128", "flavour", { f: "pr-128" }],

  ["shapes", "1.2.3.4", "version", { n: [1, 2, 3, 4] }],
  ["shapes", "2024.10.1", "date", { n: [2024, 10, 1] }],
  ["shapes", "20241105", "date", { n: [20241105] }],
  ["shapes", "2024-11-05", "date", { n: [2024, 11, 5] }],
  ["shapes", "1.0.0-rc.2", "version", { n: [1, 0, 0], pre: "rc.2" }],
  ["shapes", "2.0.0-beta-alpine", "version", { n: [2, 0, 0], pre: "beta", f: "alpine" }],
  ["shapes", "edge", "moving", { pre: "edge" }],
  ["shapes", "1.2.3+build.5", "version", { n: [1, 2, 3], b: "build.5" }],
  ["shapes", "V1.2.3", "version", { p: "v", n: [1, 2, 3] }],
  ["shapes", "21.0.5_11-jdk", "version", { n: [21, 0, 5, 11], f: "jdk" }],
  ["shapes", "26.0.5-0", "version", { n: [26, 0, 5], r: 0 }],
  ["shapes", "1.2.3-alpine-3.20", "version", { n: [1, 2, 3], f: "alpine", fv: [3, 20] }],
  ["shapes", "3.14.0.dev0", "version", { n: [3, 14, 0], pre: "dev0" }],
  ["shapes", "", "unknown", {}],
  ["shapes", "1..2", "unknown", {}],
  ["shapes", "-1", "unknown", {}],
  ["shapes", "1.2.3-", "unknown", {}],
  ["shapes", "1.2.3--alpine", "unknown", {}],
  ["shapes", "1.2.", "unknown", {}],
  ["shapes", "ünïcode", "unknown", {}],
  ["shapes", "1.2.3 ", "unknown", {}],
  ["shapes", "a".repeat(129), "unknown", {}],
  ["shapes", "1234567890123456", "unknown", {}],
];
