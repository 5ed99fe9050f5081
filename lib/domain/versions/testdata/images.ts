// Tag lists shaped after the documented tag schemes of popular images (late
// 2024): a slice of each repository as its registry lists it, including the
// moving names, flavours, prereleases and old lines that trip up other tools.

import { mariadb2026, node2026, postgres2026, redis2026 } from "./images-2026";
import { drupal, jenkins, jenkinsInboundAgent, linuxserverTransmission, temurin, temurin2023, ubuntuSerials, wordpress } from "./images-families";

import type { ImageTags } from "./image-tags";

export type { ImageTags };

const nginx: ImageTags = {
  image: "nginx",
  tags: [
    "1.27.3", "1.27.3-alpine", "1.27.3-alpine-slim", "1.27.3-alpine-perl", "1.27.3-alpine-otel",
    "1.27.3-alpine3.20", "1.27.3-alpine3.20-perl", "1.27.3-alpine3.20-slim", "1.27.3-alpine3.20-otel",
    "1.27.3-alpine3.21", "1.27.3-alpine3.21-perl", "1.27.3-bookworm", "1.27.3-bookworm-perl",
    "1.27.3-bookworm-otel", "1.27.3-perl", "1.27.3-otel",
    "1.27.2", "1.27.2-alpine", "1.27.2-alpine-perl", "1.27.2-alpine3.20", "1.27.2-perl", "1.27.2-bookworm",
    "1.27.1", "1.27.1-alpine", "1.27.0", "1.27.0-alpine3.19",
    "1.27", "1.27-alpine", "1.27-alpine-slim", "1.27-alpine-perl", "1.27-alpine3.20", "1.27-alpine3.21",
    "1.27-alpine3.20-perl", "1.27-bookworm", "1.27-perl", "1.27-otel",
    "1.26.2", "1.26.2-alpine", "1.26.2-alpine-perl", "1.26.2-alpine3.20", "1.26.2-perl", "1.26.2-bookworm",
    "1.26.1", "1.26.1-alpine", "1.26.0", "1.26", "1.26-alpine", "1.26-alpine3.20", "1.26-perl",
    "1.25.5", "1.25.5-alpine", "1.25.4-alpine3.18", "1.25", "1.25-alpine",
    "1", "1-alpine", "1-alpine-slim", "1-alpine-perl", "1-alpine3.20", "1-bookworm", "1-perl", "1-otel",
    "mainline", "mainline-alpine", "mainline-alpine-slim", "mainline-alpine-perl", "mainline-alpine3.20",
    "mainline-alpine3.20-perl", "mainline-bookworm", "mainline-perl", "mainline-otel",
    "stable", "stable-alpine", "stable-alpine-slim", "stable-alpine-perl", "stable-alpine3.20",
    "stable-bookworm", "stable-perl", "stable-otel",
    "alpine", "alpine-slim", "alpine-perl", "alpine-otel", "alpine3.20", "alpine3.20-perl", "alpine3.20-slim",
    "alpine3.21", "bookworm", "bookworm-perl", "perl", "otel", "latest",
  ],
};

/** The 2019 repository state behind Renovate's `1.12-alpine` → `1.15-alpine-perl` proposal. */
const nginx2019: ImageTags = {
  image: "nginx (2019)",
  tags: [
    "1.12-alpine", "1.12.2-alpine", "1.12-alpine-perl", "1.13-alpine", "1.13.12-alpine", "1.13-alpine-perl",
    "1.14-alpine", "1.14.2-alpine", "1.14-alpine-perl", "1.14.2-alpine-perl", "1.15-alpine-perl",
    "1.15.12-alpine-perl", "1.15-alpine", "1.15.12-alpine", "1.15.12", "1.15", "stable-alpine",
    "mainline-alpine-perl", "alpine-perl", "alpine", "latest",
  ],
};

const postgres: ImageTags = {
  image: "postgres",
  tags: [
    "17.2", "17.2-bookworm", "17.2-bullseye", "17.2-alpine", "17.2-alpine3.20", "17.2-alpine3.21",
    "17", "17-bookworm", "17-bullseye", "17-alpine", "17-alpine3.20", "17-alpine3.21",
    "17.1", "17.1-bookworm", "17.1-alpine", "17.1-alpine3.20", "17.0", "17.0-alpine",
    "17rc1", "17rc1-bookworm", "17rc1-alpine", "17beta3", "17beta3-alpine3.20",
    "16.6", "16.6-bookworm", "16.6-alpine", "16.6-alpine3.20", "16.6-alpine3.21",
    "16", "16-bookworm", "16-alpine", "16-alpine3.20", "16-alpine3.21", "16.5", "16.5-alpine3.20",
    "15.10", "15.10-alpine", "15", "15-alpine", "14.15", "13.18", "12.22", "12",
    "9.6.24", "9.6.24-alpine", "9.6", "9.6-alpine", "9",
    "latest", "alpine", "alpine3.20", "alpine3.21", "bookworm", "bullseye",
  ],
};

const redis: ImageTags = {
  image: "redis",
  tags: [
    "7.4.1", "7.4.1-bookworm", "7.4.1-alpine", "7.4.1-alpine3.20", "7.4", "7.4-bookworm", "7.4-alpine",
    "7.4-alpine3.20", "7", "7-bookworm", "7-alpine", "7-alpine3.20", "7.4.0", "7.4.0-alpine",
    "7.4-rc2", "7.4-rc2-alpine", "7.2.6", "7.2.6-alpine", "7.2.6-alpine3.20", "7.2", "7.2-alpine",
    "7.0.15", "7.0.15-alpine", "7.0", "6.2.16", "6.2.16-alpine", "6.2", "6", "6-alpine",
    "8.0-M02", "8.0-M02-alpine", "8.0-M02-bookworm", "8.0-M01",
    "latest", "alpine", "alpine3.20", "bookworm",
  ],
};

const node: ImageTags = {
  image: "node",
  tags: [
    "23.3.0", "23.3", "23", "current", "23.3.0-alpine", "23.3.0-alpine3.20", "23-alpine", "current-alpine",
    "23.3.0-bookworm", "23.3.0-bookworm-slim", "23-bookworm-slim", "current-bookworm-slim", "23.3.0-slim",
    "22.11.0", "22.11", "22", "lts", "jod", "22.11.0-alpine", "22.11.0-alpine3.20", "22.11-alpine3.20",
    "22-alpine", "22-alpine3.20", "lts-alpine", "jod-alpine", "22.11.0-bookworm", "22.11.0-bookworm-slim",
    "22-bookworm-slim", "lts-slim", "jod-slim", "22.11.0-bullseye", "22.11.0-slim",
    "22.10.0", "22.10.0-alpine", "20.18.1", "20.18.1-alpine", "20.18.1-alpine3.20", "20.18", "20",
    "20-alpine", "iron", "iron-alpine", "20.18.1-bookworm-slim", "18.20.5", "18.20.5-alpine", "18",
    "hydrogen", "latest", "alpine", "alpine3.20", "slim", "bookworm", "bookworm-slim", "bullseye",
  ],
};

const python: ImageTags = {
  image: "python",
  tags: [
    "3.13.0", "3.13.0-slim", "3.13.0-slim-bookworm", "3.13.0-bookworm", "3.13.0-alpine", "3.13.0-alpine3.20",
    "3.13", "3.13-slim", "3.13-slim-bookworm", "3.13-alpine", "3.13-alpine3.20", "3", "3-slim", "3-alpine",
    "3.13.0-windowsservercore-ltsc2022", "3.13.0-windowsservercore-1809", "3.13-windowsservercore-ltsc2022",
    "3.13.0rc3", "3.13.0rc3-slim", "3.13.0rc2-alpine", "3.13.0rc2-alpine3.20", "3.13-rc", "3.13-rc-alpine",
    "3.14.0a1", "3.14.0a1-slim", "3.14.0a1-alpine", "3.14-rc", "3.14-rc-alpine", "rc", "rc-alpine", "rc-slim",
    "3.12.7", "3.12.7-slim", "3.12.7-slim-bookworm", "3.12.7-bookworm", "3.12.7-alpine", "3.12.7-alpine3.20",
    "3.12", "3.12-slim", "3.12-slim-bookworm", "3.12-alpine", "3.12.6", "3.12.6-slim-bookworm",
    "3.11.10", "3.11.10-slim-bookworm", "3.11", "3.10.15", "3.9.20", "3.8.20",
    "3.7.4-alpine3.10", "3.8.0b1-alpine3.10", "3.8.0-alpine3.10", "3.8.1-alpine3.10",
    "slim", "alpine", "bookworm", "slim-bookworm", "latest", "windowsservercore", "windowsservercore-ltsc2022",
  ],
};

const golang: ImageTags = {
  image: "golang",
  tags: [
    "1.23.3", "1.23.3-bookworm", "1.23.3-bullseye", "1.23.3-alpine", "1.23.3-alpine3.20", "1.23.3-alpine3.19",
    "1.23", "1.23-bookworm", "1.23-alpine", "1.23-alpine3.20", "1", "1-bookworm", "1-alpine",
    "1.23.3-windowsservercore-ltsc2022", "1.23.3-nanoserver-ltsc2022", "1.23-nanoserver-ltsc2022",
    "1.23.2", "1.23.2-alpine", "1.23.2-alpine3.20", "1.23.0", "1.22.9", "1.22.9-alpine", "1.22.9-bookworm",
    "1.22", "1.22-alpine", "1.24rc1", "1.24rc1-bookworm", "1.24rc1-alpine", "1.24rc1-alpine3.20",
    "1.23rc2", "1.23rc2-alpine", "latest", "alpine", "alpine3.20", "bookworm", "bullseye",
    "windowsservercore", "nanoserver",
  ],
};

const traefik: ImageTags = {
  image: "traefik",
  tags: [
    "v3.2.1", "3.2.1", "v3.2", "3.2", "v3", "3", "mimolette", "latest", "v3.2.0", "3.2.0", "v3.2.0-rc2",
    "3.2.0-rc2", "v3.2.0-rc1", "v3.1.7", "3.1.7", "v3.1", "3.1", "comte", "v3.0.4", "v3.0", "beaufort",
    "v2.11.14", "2.11.14", "v2.11", "2.11", "v2", "2", "v3.3.0-rc1", "3.3.0-rc1",
    "v3.2.1-windowsservercore-ltsc2022", "v3.2-windowsservercore-ltsc2022", "windowsservercore-ltsc2022",
    "v3.2.1-windowsservercore-1809", "windowsservercore-1809", "mimolette-windowsservercore-1809",
  ],
};

const grafana: ImageTags = {
  image: "grafana/grafana",
  tags: [
    "11.3.1", "11.3.1-ubuntu", "11.3.0", "11.3.0-ubuntu", "11.3.0-security-01", "11.3.0-security-01-ubuntu",
    "11.2.4", "11.2.4-ubuntu", "11.2.3-security-01", "11.2.3", "11.1.9", "11.0.8", "11.0.0-preview",
    "11.0.0-preview-ubuntu", "10.4.13", "10.4.13-ubuntu", "10.4.12", "10.4.11-security-01",
    "main", "main-ubuntu", "latest", "latest-ubuntu",
  ],
};

const prometheus: ImageTags = {
  image: "prom/prometheus",
  tags: [
    "v3.0.1", "v3.0.0", "v3.0.0-rc.1", "v3.0.0-rc.0", "v3.0.0-beta.1", "v3.0.0-beta.0", "v2.55.1", "v2.55.0",
    "v2.55.0-rc.0", "v2.54.1", "v2.53.3", "v2.53.2", "v2.45.6", "latest", "main",
  ],
};

const mariadb: ImageTags = {
  image: "mariadb",
  tags: [
    "11.6.2", "11.6.2-noble", "11.6.2-ubi9", "11.6", "11.6-noble", "11.6-ubi", "11", "11-noble", "11-ubi",
    "latest", "noble", "ubi", "11.4.4", "11.4.4-noble", "11.4", "11.4-noble", "lts", "lts-noble", "lts-ubi",
    "11.2.6", "11.2", "10.11.10", "10.11.10-jammy", "10.11", "10.11-jammy", "10", "10-jammy", "10.6.20",
    "10.6.20-focal", "10.6", "10.6-focal", "10.5.27-focal", "11.7.1-rc", "11.7-rc", "11.7.1-ubi9-rc",
  ],
};

const mysql: ImageTags = {
  image: "mysql",
  tags: [
    "9.1.0", "9.1", "9", "innovation", "latest", "9.1.0-oraclelinux9", "9.1-oraclelinux9", "9-oraclelinux9",
    "innovation-oraclelinux9", "oraclelinux9", "9.1.0-oracle", "9.1-oracle", "oracle", "innovation-oracle",
    "9.0.1", "9.0", "8.4.3", "8.4", "8", "lts", "8.4.3-oraclelinux9", "8.4-oraclelinux9", "lts-oraclelinux9",
    "8.4.3-oracle", "8.4.2", "8.0.40", "8.0", "8.0.40-bookworm", "8.0-bookworm", "8.0.40-debian", "8.0-debian",
    "8.0.40-oraclelinux9", "8.0.40-oracle", "8.0.39", "8.0.39-debian", "8.0.39-bookworm", "5.7.44", "5.7",
    "5", "5.7.44-oracle", "5.7.44-oraclelinux7",
  ],
};

const mongo: ImageTags = {
  image: "mongo",
  tags: [
    "8.0.3", "8.0.3-noble", "8.0", "8.0-noble", "8", "8-noble", "latest", "noble",
    "8.0.3-windowsservercore-ltsc2022", "8.0.3-windowsservercore-1809", "8.0.3-nanoserver-ltsc2022",
    "8.0.3-nanoserver-1809", "8.0-windowsservercore", "8.0.3-windowsservercore", "windowsservercore",
    "windowsservercore-ltsc2022", "windowsservercore-1809", "nanoserver", "nanoserver-ltsc2022", "8.0-nanoserver",
    "8.0.1", "8.0.1-noble", "8.0.0", "8.0.0-rc20-jammy", "8.0.0-rc20", "8.0.0-rc18-jammy",
    "7.0.15", "7.0.15-jammy", "7.0", "7.0-jammy", "7", "7-jammy", "7.0.14", "7.0.14-jammy",
    "7.0.14-windowsservercore-ltsc2022", "6.0.19", "6.0.19-jammy", "6.0", "6.0-jammy", "6",
    "5.0.30", "5.0.30-focal", "5.0", "5.0-focal", "4.4.29-focal", "4.4",
  ],
};

const rabbitmq: ImageTags = {
  image: "rabbitmq",
  tags: [
    "4.0.4", "4.0.4-management", "4.0.4-alpine", "4.0.4-management-alpine", "4.0", "4.0-management",
    "4.0-alpine", "4.0-management-alpine", "4", "4-management", "4-alpine", "4-management-alpine", "latest",
    "management", "alpine", "management-alpine", "4.0.3", "4.0.3-management", "4.0.3-management-alpine",
    "4.0.2-management", "4.1.0-beta.1", "4.1.0-beta.1-management", "4.1.0-beta.1-alpine", "4.1-rc",
    "4.1-rc-management", "4.1-rc-management-alpine", "3.13.7", "3.13.7-management", "3.13.7-management-alpine",
    "3.13.7-alpine", "3.13", "3.13-management", "3.13-management-alpine", "3.13-alpine", "3", "3-management",
    "3-management-alpine", "3.12.14", "3.12.14-management", "3.12", "3.12-management-alpine",
  ],
};

const elasticsearch: ImageTags = {
  image: "elasticsearch",
  tags: [
    "8.16.1", "8.16.0", "8.15.5", "8.15.4", "8.15.3", "8.14.3", "7.17.26", "7.17.25", "7.17.24", "6.8.23",
    "9.0.0-beta1",
  ],
};

const keycloak: ImageTags = {
  image: "quay.io/keycloak/keycloak",
  tags: [
    "26.0.7", "26.0.6", "26.0.5", "26.0", "26", "latest", "nightly", "26.0.0", "25.0.6", "25.0", "25",
    "24.0.5", "24", "22.0.5", "21.1.2", "21.1", "20.0.5", "17.0.1", "17.0.1-legacy", "16.1.1",
  ],
};

const bitnamiMysql: ImageTags = {
  image: "bitnami/mysql",
  tags: [
    "9.1.0", "9.1", "9", "latest", "9.1.0-debian-12-r3", "9.1.0-debian-12-r2", "9.1.0-debian-12-r0",
    "8.4.3", "8.4", "8.4.3-debian-12-r4", "8.4.3-debian-12-r1", "8.4.2-debian-12-r7", "8.0.40", "8.0", "8",
    "8.0.40-debian-12-r3", "8.0.40-debian-12-r0", "8.0.39-debian-12-r4", "8.0.39-debian-12-r5",
    "8.0.39-debian-12-r39", "8.0.36-debian-11-r12", "8.0.35-debian-11-r70", "5.7.43-debian-11-r73",
  ],
};

const bitnamiRedis: ImageTags = {
  image: "bitnami/redis",
  tags: [
    "7.4.1", "7.4", "7", "latest", "7.4.1-debian-12-r2", "7.4.1-debian-12-r0", "7.4.0-debian-12-r1",
    "7.4.0-debian-12-r0", "7.2.5-debian-12-r4", "7.2.5-debian-12-r3", "7.2.4-debian-12-r16",
    "7.2.4-debian-12-r9", "7.0.15-debian-12-r5", "7.0.12-debian-11-r34",
  ],
};

const linuxserverSonarr: ImageTags = {
  image: "lscr.io/linuxserver/sonarr",
  tags: [
    "latest", "4.0.11.2680-ls262", "4.0.11.2680-ls261", "4.0.10.2544-ls260", "4.0.10.2544-ls259",
    "4.0.9.2244-ls255", "4.0.9.2244-ls254", "version-4.0.11.2680", "version-4.0.10.2544", "amd64-latest",
    "arm64v8-latest", "amd64-4.0.11.2680-ls262", "arm64v8-4.0.11.2680-ls262", "amd64-version-4.0.11.2680",
    "develop", "3.0.10.1567-ls220", "version-3.0.10.1567",
  ],
};

const linuxserverNginx: ImageTags = {
  image: "lscr.io/linuxserver/nginx",
  tags: [
    "latest", "1.26.2-r3-ls290", "1.26.2-r2-ls289", "1.26.2-r1-ls282", "1.24.0-r16-ls270",
    "version-1.26.2-r3", "version-1.26.2-r2", "amd64-1.26.2-r3-ls290", "arm64v8-1.26.2-r3-ls290",
  ],
};

const linuxserverPlex: ImageTags = {
  image: "lscr.io/linuxserver/plex",
  tags: [
    "latest", "1.41.3.9314-a0bfb8370-ls248", "1.41.2.9200-c6bbc1b53-ls247", "1.41.2.9200-c6bbc1b53-ls246",
    "1.41.1.9057-af5eaea7a-ls242", "version-1.41.3.9314-a0bfb8370", "version-1.41.2.9200-c6bbc1b53",
  ],
};

const aspnet: ImageTags = {
  image: "mcr.microsoft.com/dotnet/aspnet",
  tags: [
    "9.0.0", "9.0", "latest", "9.0.0-bookworm-slim", "9.0-bookworm-slim", "9.0.0-alpine3.20", "9.0-alpine3.20",
    "9.0-alpine", "9.0.0-noble", "9.0.0-noble-chiseled", "9.0.0-noble-chiseled-extra", "9.0-noble-chiseled",
    "9.0.0-azurelinux3.0", "9.0.0-azurelinux3.0-distroless", "9.0.0-nanoserver-ltsc2022",
    "9.0.0-nanoserver-1809", "9.0-nanoserver-ltsc2022", "9.0.0-windowsservercore-ltsc2022",
    "9.0-windowsservercore-ltsc2022", "9.0.0-rc.2", "9.0.0-rc.2-bookworm-slim", "9.0.0-rc.2-alpine3.20",
    "9.0.0-rc.1-nanoserver-ltsc2022", "9.0.0-preview.7-bookworm-slim", "8.0.11", "8.0", "8.0.11-bookworm-slim",
    "8.0-bookworm-slim", "8.0.11-alpine3.20", "8.0-alpine", "8.0.11-jammy", "8.0.11-jammy-chiseled",
    "8.0.11-nanoserver-ltsc2022", "8.0.11-nanoserver-1809", "8.0-nanoserver-1809",
    "8.0.11-windowsservercore-ltsc2022", "8.0.10", "8.0.10-nanoserver-ltsc2022", "8.0.10-bookworm-slim",
    "6.0.36", "6.0", "6.0-nanoserver-ltsc2022", "6.0.36-nanoserver-ltsc2022", "6.0.36-bullseye-slim",
    "6.0.35-nanoserver-ltsc2022",
  ],
};

const servercore: ImageTags = {
  image: "mcr.microsoft.com/windows/servercore",
  tags: [
    "ltsc2022", "ltsc2019", "ltsc2016", "1809", "ltsc2022-amd64", "ltsc2019-amd64", "10.0.20348.2849",
    "10.0.20348.2849-amd64", "10.0.20348.2762", "10.0.20348.2762-amd64", "10.0.17763.6532",
    "10.0.17763.6532-amd64", "10.0.17763.6414", "10.0.14393.7515", "1809-amd64",
  ],
};

const homeAssistant: ImageTags = {
  image: "ghcr.io/home-assistant/home-assistant",
  tags: [
    "2024.11.3", "2024.11.2", "2024.11.1", "2024.11.0", "2024.11", "2024.10.4", "2024.10.3", "2024.10",
    "2024.12.0b0", "2024.12.0b1", "2024.11.0b5", "2024.12.0.dev202411200235", "stable", "latest", "beta",
    "dev", "rc", "2023.12.4", "2023.12",
  ],
};

const ubuntu: ImageTags = {
  image: "ubuntu",
  tags: [
    "24.10", "oracular", "oracular-20241009", "24.04", "noble", "noble-20241015", "noble-20241011", "latest",
    "22.04", "jammy", "jammy-20240911.1", "jammy-20240808", "20.04", "focal", "focal-20241011", "rolling",
    "devel", "25.04", "plucky", "plucky-20241116",
  ],
};

const debian: ImageTags = {
  image: "debian",
  tags: [
    "bookworm", "bookworm-20241111", "bookworm-slim", "bookworm-20241111-slim", "12.8", "12.8-slim", "12",
    "12-slim", "stable", "stable-slim", "stable-20241111", "latest", "testing", "testing-slim",
    "testing-20241111", "trixie", "trixie-20241111", "unstable", "sid", "11.11", "11", "bullseye",
    "bullseye-20241111", "oldstable",
  ],
};

const minio: ImageTags = {
  image: "minio/minio",
  tags: [
    "RELEASE.2024-11-07T00-52-20Z", "RELEASE.2024-11-07T00-52-20Z.fips", "RELEASE.2024-10-29T16-01-48Z",
    "RELEASE.2024-10-13T13-34-11Z", "RELEASE.2024-10-13T13-34-11Z.fips", "RELEASE.2023-12-23T07-19-11Z",
    "latest",
  ],
};

const clickhouse: ImageTags = {
  image: "clickhouse/clickhouse-server",
  tags: [
    "24.10.2.80", "24.10.2.80-alpine", "24.10.2", "24.10", "24.10-alpine", "24.10.1.2812", "24.9.3.128",
    "24.8.7.41", "24.8.7.41-alpine", "24.8", "24.8-alpine", "24.3.14.35", "24", "24-alpine", "latest", "head",
    "head-alpine",
  ],
};

/** Signatures, attestations and commit tags that sit in real repositories next to releases. */
const cosignedApp: ImageTags = {
  image: "ghcr.io/example/app (cosign)",
  tags: [
    "v1.4.2", "v1.4.1", "v1.4.0", "v1.3.9", "sha-abc1234", "sha-1f2e3d4",
    `sha256-${"a1".repeat(32)}.sig`, `sha256-${"b2".repeat(32)}.att`, `sha256-${"c3".repeat(32)}.sbom`,
    "main", "main-abc1234", "pr-128", "latest",
  ],
};

export const IMAGES = {
  nginx, nginx2019, postgres, redis, node, python, golang, traefik, grafana, prometheus, mariadb, mysql, mongo,
  rabbitmq, elasticsearch, keycloak, bitnamiMysql, bitnamiRedis, linuxserverSonarr, linuxserverNginx,
  linuxserverPlex, aspnet, servercore, homeAssistant, ubuntu, debian, minio, clickhouse, cosignedApp,
  redis2026, postgres2026, mariadb2026, node2026,
  wordpress, drupal, jenkins, jenkinsInboundAgent, temurin, temurin2023, ubuntuSerials, linuxserverTransmission,
} as const;

export type ImageName = keyof typeof IMAGES;
