// The container image and deploy/compose.yaml on the real engine. No Node image can be pulled here,
// so the Dockerfile is built on a stand-in base (scripts/test-node-base.sh) from this checkout's own
// node_modules and web build (PREBUILT=1; containers cannot reach the npm registry). Then, from the
// Compose file: the server container, `setup` and `agent create` in it, an agent container with the
// Docker socket mounted read-only, and the matrix filled.
import { execFile, spawnSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { parse as parseYaml, stringify as stringifyYaml } from "yaml";
import { DOCKER_CLI, dockerCli, dockerEnv, pullBack, pushTestImage, waitUntil, type DockerCli } from "../support/docker-engine";
import { freePort } from "../support/server";

const ROOT = path.resolve(import.meta.dirname, "../..");
const IMAGE = "driftwatch:engine-test";
const BASE = "driftwatch-test/node:20-bookworm";
const CACHE = process.env.DRIFTWATCH_TEST_CACHE || path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache"), "driftwatch-tests");
const run = promisify(execFile);

let docker: DockerCli;
let context: string;
let app: string;

function sh(cmd: string, args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): string {
  const r = spawnSync(cmd, args, { encoding: "utf8", maxBuffer: 64 * 1024 * 1024, ...opts });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")}: ${(r.stderr || r.error?.message || "").trim()}`);
  return r.stdout.trim();
}

/** This checkout as a build context with its installed dependencies (production ones only) and web build. */
function prebuiltContext(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "dw-image-ctx-"));
  const files = sh("git", ["ls-files", "-co", "--exclude-standard", "-z"], { cwd: ROOT }).split("\0").filter(Boolean);
  const list = path.join(dir, ".files");
  writeFileSync(list, files.join("\0"));
  sh("bash", ["-c", `tar -C "$1" --null -T "$2" -cf - | tar -C "$3" -xf -`, "_", ROOT, list, dir]);
  rmSync(list);
  // Hard links: fast, and pruning the copy unlinks its own names only.
  sh("cp", ["-al", path.join(ROOT, "node_modules"), path.join(dir, "node_modules")]);
  sh("cp", ["-al", path.join(ROOT, ".next"), path.join(dir, ".next")]);
  sh("cp", ["-a", path.join(ROOT, "lib/db/generated"), path.join(dir, "lib/db/generated")]);
  const lock = path.join(dir, "node_modules/.package-lock.json");
  copyFileSync(lock, lock + ".own");
  rmSync(lock);
  sh("mv", [lock + ".own", lock]);
  sh("npm", ["prune", "--omit=dev", "--offline", "--ignore-scripts", "--no-audit", "--no-fund"], { cwd: dir });
  writeFileSync(path.join(dir, ".dockerignore"), ".git\n.next/cache\n.next-*\n.driftwatch\n");
  return dir;
}

async function api(baseUrl: string, token: string, p: string) {
  const res = await fetch(baseUrl + p, { headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, body: (await res.json()) as any };
}

async function healthy(container: string) {
  return (await docker("inspect", "-f", "{{.State.Health.Status}}", container)) === "healthy";
}

beforeAll(async () => {
  docker = dockerCli({ dir: inject("dockerDir"), host: inject("dockerHost") });
  const t0 = Date.now();
  const tarball = sh("bash", [path.join(ROOT, "scripts/test-node-base.sh"), CACHE]);
  await docker("import", "-c", "ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", tarball, BASE);
  const t1 = Date.now();
  context = prebuiltContext();
  const t2 = Date.now();
  // BuildKit (the classic builder copies the context file by file, twice as slow); no network: the
  // engine has no bridge, and nothing in a PREBUILT build fetches anything.
  await docker.withEnv({ DOCKER_BUILDKIT: "1" })("build", "-q", "--network", "none", "--build-arg", `NODE_IMAGE=${BASE}`, "--build-arg", "PREBUILT=1", "-t", IMAGE, context);
  console.log(`image build: base ${((t1 - t0) / 1000).toFixed(1)} s, context ${((t2 - t1) / 1000).toFixed(1)} s, docker build ${((Date.now() - t2) / 1000).toFixed(1)} s`);
  console.log(`docker image ls: ${await docker("image", "ls", IMAGE, "--format", "{{.Repository}}:{{.Tag}} {{.Size}}")}`);

  app = `${inject("registryHost")}/image-test/app`;
  await pushTestImage(docker, `${app}:2.4.1`, "2.4.1");
  await pullBack(docker, [`${app}:2.4.1`]);
});

afterAll(async () => {
  const ids = await docker?.("ps", "-aq").catch(() => "");
  if (ids) await docker("rm", "-f", "-v", ...ids.split("\n"));
  if (context) rmSync(context, { recursive: true, force: true });
});

describe("the container image", () => {
  it("is built as a non-root user with driftwatch as its entry point, /data as its volume and a health check", async () => {
    const config = JSON.parse(await docker("image", "inspect", "-f", "{{json .Config}}", IMAGE));
    expect(config.User).toBe("driftwatch");
    expect(config.Entrypoint).toEqual(["driftwatch"]);
    expect(config.Cmd).toEqual(["start"]);
    expect(Object.keys(config.Volumes)).toEqual(["/data"]);
    expect(config.ExposedPorts).toEqual({ "3000/tcp": {} });
    expect(config.Env).toEqual(expect.arrayContaining(["HOST=0.0.0.0", "PORT=3000", "DRIFTWATCH_DATA_DIR=/data"]));
    expect(config.Healthcheck.Test.join(" ")).toContain("/api/health");
    expect(await docker("run", "--rm", IMAGE, "--help")).toMatch(/agent[\s\S]*worker/);
  });
});

describe("deploy/compose.yaml", () => {
  const compose = path.join(ROOT, "deploy/compose.yaml");
  const env = { POSTGRES_PASSWORD: "compose-test-password", DOCKER_GID: "0", DRIFTWATCH_IMAGE: IMAGE };

  it("is valid for docker-compose, with PostgreSQL, Driftwatch on it and an agent on the Docker socket", () => {
    const config = parseYaml(sh("docker-compose", ["-f", compose, "config"], { env: { ...process.env, ...env } }));
    expect(Object.keys(config.services).sort()).toEqual(["agent", "driftwatch", "postgres"]);
    expect(config.services.driftwatch.environment.DATABASE_URL).toBe("postgresql://driftwatch:compose-test-password@postgres:5432/driftwatch");
    expect(config.services.driftwatch.image).toBe(IMAGE);
    expect(config.services.driftwatch.volumes).toEqual(["driftwatch-data:/data:rw"]);
    expect(config.services.agent.volumes).toEqual(["/var/run/docker.sock:/var/run/docker.sock:ro"]);
    expect(config.services.agent.command).toEqual(["agent"]);
    // Without the password it says which setting is missing.
    const r = spawnSync("docker-compose", ["-f", compose, "config"], { encoding: "utf8", env: { ...process.env, POSTGRES_PASSWORD: "", DOCKER_GID: "0" } });
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain("set POSTGRES_PASSWORD");
  });

  it("runs the image: setup and agent create in the server container, agent containers on the socket fill the matrix", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "dw-compose-"));
    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    const registry = inject("registryHost");
    const socket = inject("dockerHost").slice("unix://".length);
    // The file's own driftwatch and agent services, with what differs here: no PostgreSQL image to
    // pull (the embedded database instead), no bridge (host network, a free port), this engine's
    // socket, the loopback registry, and a health check every 2 s instead of 30.
    const file = parseYaml(readFileSync(compose, "utf8"));
    const { driftwatch, agent } = file.services;
    delete driftwatch.build;
    for (const s of [driftwatch, agent]) {
      delete s.depends_on;
      delete s.ports;
      s.network_mode = "host";
    }
    Object.assign(driftwatch.environment, {
      DATABASE_URL: "", PORT: String(port), DRIFTWATCH_BASE_URL: baseUrl, DRIFTWATCH_EOL: "false",
      DRIFTWATCH_SERVER_REGISTRIES: registry, DRIFTWATCH_INSECURE_REGISTRIES: registry,
    });
    driftwatch.healthcheck = { interval: "2s", start_period: "120s" };
    agent.environment.DRIFTWATCH_URL = baseUrl;
    agent.volumes = [`${socket}:/var/run/docker.sock:ro`];
    writeFileSync(path.join(dir, "compose.yaml"), stringifyYaml({ services: { driftwatch, agent }, volumes: { "driftwatch-data": {} } }));
    const composeEnv = { ...dockerEnv({ dir: inject("dockerDir"), host: inject("dockerHost") }), ...env, DOCKER_GID: String(statSync(socket).gid), DRIFTWATCH_AGENT_KEY: "" };
    const dc = (...args: string[]) => sh("docker-compose", ["-p", "dwcompose", "-f", path.join(dir, "compose.yaml"), ...args], { env: composeEnv });
    const server = "dwcompose_driftwatch_1";
    try {
      dc("up", "-d", "--no-build", "driftwatch");
      await waitUntil("the server container to be healthy", () => healthy(server), 180_000).catch(async (err: Error) => {
        throw new Error(`${err.message}\n${await docker("logs", server).catch(() => "")}`);
      });
      expect(await docker("exec", server, "id", "-un")).toBe("driftwatch");
      await docker("exec", server, "driftwatch", "setup", "--workspace", "acme", "--email", "owner@example.com", "--password", "correct horse battery");
      const key = await docker("exec", server, "driftwatch", "agent", "create", "--workspace", "acme", "--name", "host-1");
      const token = await docker("exec", server, "driftwatch", "token", "create", "--workspace", "acme", "--role", "viewer");
      // The embedded PostgreSQL lives in the volume, run by the image's user.
      expect(await docker("exec", server, "stat", "-c", "%U", "/data/pg")).toBe("driftwatch");

      // An agent container, as README's "Run the agent" starts it, reporting once.
      await docker("run", "-d", "--name", "shop-web-1", "--label", "com.docker.compose.project=shop", "--label", "com.docker.compose.service=web", `${app}:2.4.1`);
      const once = await run(
        DOCKER_CLI,
        [
          "run", "--rm", "--network", "host", "--group-add", String(statSync(socket).gid), "-v", `${socket}:/var/run/docker.sock:ro`,
          "-e", `DRIFTWATCH_URL=${baseUrl}`, "-e", `DRIFTWATCH_AGENT_KEY=${key}`, "-e", "DRIFTWATCH_ENVIRONMENT=production",
          IMAGE, "agent", "--once",
        ],
        { env: dockerEnv({ dir: inject("dockerDir"), host: inject("dockerHost") }), encoding: "utf8", timeout: 120_000 },
      ).catch((err: { stderr?: string; message: string }) => {
        throw new Error(`the agent container failed: ${err.stderr || err.message}`);
      });
      expect(once.stdout + once.stderr).not.toContain(key);
      const matrix = await api(baseUrl, token, "/api/v1/matrix");
      expect(matrix.status).toBe(200);
      const web = matrix.body.services.find((s: { name: string }) => s.name === "web");
      expect(web?.cells[0]).toMatchObject({ environment: "production", tag: "2.4.1", version: "2.4.1" });
      expect(web.cells[0].targets[0]).toMatchObject({ name: `docker@${await docker("info", "-f", "{{.Name}}")}` });
      expect(web.cells[0].targets[0].digest).toMatch(/^sha256:/);

      // The Compose file's own agent, once it has its key, reports the Compose services themselves.
      composeEnv.DRIFTWATCH_AGENT_KEY = key;
      dc("up", "-d", "--no-build", "agent");
      await waitUntil("the compose agent's report", async () => (await api(baseUrl, token, "/api/v1/matrix")).body.services?.some((s: { name: string }) => s.name === "agent"), 120_000);
      const names = (await api(baseUrl, token, "/api/v1/matrix")).body.services.map((s: { name: string }) => s.name);
      expect(names).toEqual(expect.arrayContaining(["agent", "driftwatch", "web"]));
    } finally {
      spawnSync("docker-compose", ["-p", "dwcompose", "-f", path.join(dir, "compose.yaml"), "down", "-v"], { env: composeEnv });
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
