// A real Docker Engine for the tests (scripts/docker-engine.sh starts it under a folder of its own),
// the docker CLI pointed at it, and test images made offline: a busybox rootfs imported, pushed to
// the loopback registry, deleted and pulled back, so the engine records RepoDigests as a pull does.
import { execFile, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync, copyFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";

const ROOT = path.resolve(import.meta.dirname, "../..");
const SCRIPT = path.join(ROOT, "scripts/docker-engine.sh");
const run = promisify(execFile);

export type DockerEngine = { dir: string; host: string; socketPath: string };

/** Starts the engine (installing docker.io when missing); throws with the script's own words when it cannot. */
export function startDockerEngine(dir: string): DockerEngine {
  const r = spawnSync("bash", [SCRIPT, "start", dir], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], timeout: 600_000 });
  process.stderr.write(r.stderr ?? "");
  const host = /^DOCKER_HOST=(.+)$/m.exec(r.stdout ?? "")?.[1];
  if (r.status !== 0 || !host) {
    const why = (r.stderr ?? "").trim().split("\n").pop() || r.error?.message || `exit ${r.status}`;
    throw new Error(`The real Docker Engine the engine tests need did not start: ${why}`);
  }
  return { dir, host, socketPath: host.slice("unix://".length) };
}

export function stopDockerEngine(dir: string): void {
  spawnSync("bash", [SCRIPT, "stop", dir], { stdio: "inherit", timeout: 120_000 });
}

/** The engine's own CLI where docker.io installed it (a newer CLI elsewhere on PATH would do too). */
export const DOCKER_CLI = existsSync("/usr/bin/docker") ? "/usr/bin/docker" : "docker";

export function dockerEnv(engine: Pick<DockerEngine, "dir" | "host">): NodeJS.ProcessEnv {
  return { ...process.env, DOCKER_HOST: engine.host, DOCKER_CONFIG: path.join(engine.dir, "cli"), DOCKER_BUILDKIT: "0", DOCKER_CLI_HINTS: "false" };
}

export type DockerCli = {
  (...args: string[]): Promise<string>;
  /** Feeds `input` on stdin (`docker import -`). */
  withInput: (input: Buffer, ...args: string[]) => Promise<string>;
  /** The same CLI with more environment (`DOCKER_BUILDKIT=1`). */
  withEnv: (more: Record<string, string>) => DockerCli;
};

/** `docker …` against the engine; resolves with trimmed stdout, rejects with stderr. */
export function dockerCli(engine: Pick<DockerEngine, "dir" | "host">, more: Record<string, string> = {}): DockerCli {
  const env = { ...dockerEnv(engine), ...more };
  const cli = async (...args: string[]) => {
    try {
      const { stdout } = await run(DOCKER_CLI, args, { env, maxBuffer: 64 * 1024 * 1024, timeout: 600_000 });
      return stdout.trim();
    } catch (err) {
      const e = err as { stderr?: string; message: string };
      throw new Error(`docker ${args.join(" ")}: ${(e.stderr || e.message).trim()}`);
    }
  };
  const withInput = (input: Buffer, ...args: string[]) =>
    new Promise<string>((resolve, reject) => {
      const child = execFile(DOCKER_CLI, args, { env, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) =>
        err ? reject(new Error(`docker ${args.join(" ")}: ${stderr || err.message}`)) : resolve(stdout.trim()),
      );
      child.stdin!.end(input);
    });
  return Object.assign(cli, { withInput, withEnv: (extra: Record<string, string>) => dockerCli(engine, { ...more, ...extra }) });
}

/** A tar of a busybox rootfs whose /www/index.html and APP_VERSION name `version`. */
function busyboxRootfs(version: string): Buffer {
  const dir = mkdtempSync(path.join(os.tmpdir(), "dw-rootfs-"));
  try {
    for (const d of ["bin", "etc", "www", "tmp"]) mkdirSync(path.join(dir, d));
    copyFileSync("/bin/busybox", path.join(dir, "bin/busybox"));
    for (const a of ["sh", "sleep", "httpd", "cat", "ls", "wget"]) symlinkSync("busybox", path.join(dir, "bin", a));
    writeFileSync(path.join(dir, "etc/passwd"), "root:x:0:0:root:/:/bin/sh\n");
    writeFileSync(path.join(dir, "www/index.html"), `${version}\n`);
    const tar = spawnSync("tar", ["-C", dir, "-c", "."], { maxBuffer: 64 * 1024 * 1024 });
    if (tar.status !== 0) throw new Error(`tar of the test rootfs failed: ${tar.stderr.toString()}`);
    return tar.stdout;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Builds `<ref>` offline from busybox and pushes it; returns the manifest digest the registry answered. */
export async function pushTestImage(docker: DockerCli, ref: string, version: string): Promise<string> {
  await docker.withInput(busyboxRootfs(version), "import", "-c", 'CMD ["/bin/sleep","3600"]', "-c", `ENV APP_VERSION=${version}`, "-", ref);
  return pushedDigest(await docker("push", ref));
}

export async function tagAndPush(docker: DockerCli, from: string, to: string): Promise<string> {
  await docker("tag", from, to);
  return pushedDigest(await docker("push", to));
}

function pushedDigest(pushOutput: string): string {
  const digest = /digest: (sha256:[0-9a-f]{64})/.exec(pushOutput)?.[1];
  if (!digest) throw new Error(`no digest in docker push's output: ${pushOutput}`);
  return digest;
}

/**
 * A real two-platform index at `ref` (linux/amd64, runnable here, and linux/arm64) made by
 * `docker manifest`; returns its digest.
 */
export async function pushIndex(docker: DockerCli, ref: string, amd64: string, arm64: string): Promise<string> {
  await docker("manifest", "rm", ref).catch(() => "");
  await docker("manifest", "create", "--insecure", ref, amd64, arm64);
  await docker("manifest", "annotate", "--os", "linux", "--arch", "arm64", "--variant", "v8", ref, arm64);
  await docker("manifest", "push", "--insecure", "--purge", ref);
  return registryDigest(ref);
}

const MANIFEST_TYPES = [
  "application/vnd.docker.distribution.manifest.list.v2+json",
  "application/vnd.oci.image.index.v1+json",
  "application/vnd.docker.distribution.manifest.v2+json",
  "application/vnd.oci.image.manifest.v1+json",
].join(", ");

/** What a loopback registry (plain http) answers for `host/repo:tag`: the digest a pull records. */
export async function registryDigest(ref: string): Promise<string> {
  const m = /^([^/]+)\/(.+):([^:/]+)$/.exec(ref);
  if (!m) throw new Error(`not a host/repository:tag reference: ${ref}`);
  const res = await fetch(`http://${m[1]}/v2/${m[2]}/manifests/${m[3]}`, { method: "HEAD", headers: { accept: MANIFEST_TYPES } });
  const digest = res.headers.get("docker-content-digest");
  if (!res.ok || !digest) throw new Error(`HEAD of ${ref} answered ${res.status}`);
  return digest;
}

/** Deletes every local copy of `refs`' images and pulls them back, so RepoDigests come from pulls. */
export async function pullBack(docker: DockerCli, refs: string[]): Promise<void> {
  const ids = new Set<string>();
  for (const ref of refs) ids.add(await docker("image", "inspect", "-f", "{{.Id}}", ref).catch(() => ""));
  ids.delete("");
  if (ids.size) await docker("rmi", "-f", ...ids);
  for (const ref of refs) await docker("pull", "-q", ref);
}

export async function waitUntil(what: string, ok: () => Promise<boolean>, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}
