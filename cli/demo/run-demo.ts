// driftwatch demo: start Driftwatch on a data directory of its own, with a
// loopback registry for upstream releases and a loopback end-of-life source,
// and fill a workspace named `demo` through the API and agent reports.
// A second run reuses everything the first one stored.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { loadConfig } from "@/lib/config";
import { freePort } from "@/lib/db/free-port";
import { DEMO_EMAIL, DEMO_PASSWORD, DEMO_SERVICES, DEMO_WORKSPACE, RECORDED_HOST } from "@/lib/domain/demo/plan";
import { startKeepReporting } from "./keep-reporting";
import { startEolServer, type EolServer } from "./eol-server";
import { startGithubServer, type GithubServer } from "./github-server";
import { demoImageDigest, registryInstalled, REGISTRY_BINARY, startDemoRegistry, stopChild, type DemoRegistry } from "./registry";
import { seedDemo } from "./seed";
import { buildWebAppIfStale } from "../web-build";

const ROOT = path.resolve(import.meta.dirname, "../..");
const BIN = path.join(ROOT, "bin/driftwatch.mjs");


/**
 * What a second run needs of the first: where the registry listened (image names carry its port),
 * when the workspace was filled (its reports were planned from that moment, and are sent again as
 * they were), and the agent key that keeps its targets reporting.
 */
type DemoState = { registry_port: number | null; seeded: boolean; seeded_at?: number; agent_key?: string };

function readState(file: string): DemoState {
  if (!existsSync(file)) return { registry_port: null, seeded: false };
  return { registry_port: null, seeded: false, ...(JSON.parse(readFileSync(file, "utf8")) as Partial<DemoState>) };
}

function writeState(file: string, state: DemoState): void {
  // The agent key is a secret: readable by its owner only, like the data directory's AUTH_SECRET.
  writeFileSync(file, JSON.stringify(state, null, 2) + "\n", { mode: 0o600 });
}

const seconds = (since: number) => `${((Date.now() - since) / 1000).toFixed(1)} s`;

/** Runs a driftwatch command to its end and returns its stdout. */
function runCommand(args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(BIN, args, { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout!.on("data", (c: Buffer) => void (out += c.toString()));
    child.stderr!.on("data", (c: Buffer) => void (err += c.toString()));
    child.once("error", reject);
    child.once("exit", (code) => (code === 0 ? resolve(out) : reject(new Error(`driftwatch ${args[0]} ${args[1] ?? ""} failed: ${err.trim().split("\n").pop()}`))));
  });
}

/** Signs in as the demo's owner with the printed credentials, as the sign-in form does; the session's cookies. */
async function signInAsOwner(baseUrl: string): Promise<string> {
  const jar = new Map<string, string>();
  const keep = (res: Response) => {
    for (const c of res.headers.getSetCookie()) {
      const [pair = ""] = c.split(";");
      const eq = pair.indexOf("=");
      jar.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
  };
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
  const csrf = await fetch(`${baseUrl}/api/auth/csrf`);
  keep(csrf);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const signIn = await fetch(`${baseUrl}/api/auth/callback/credentials`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookie(), origin: baseUrl },
    body: new URLSearchParams({ email: DEMO_EMAIL, password: DEMO_PASSWORD, csrfToken, callbackUrl: `${baseUrl}/` }),
    redirect: "manual",
  });
  keep(signIn);
  await signIn.body?.cancel();
  if (![...jar.keys()].some((k) => k.includes("session-token"))) {
    throw new Error(`signing in as ${DEMO_EMAIL} with the password ${DEMO_PASSWORD} failed (${signIn.status}); the demo's data directory holds another password for it: remove the directory to start afresh`);
  }
  return cookie();
}

/** A member token made the way the Users page makes one: sign in as the owner, then POST /api/v1/tokens. */
async function createTokenSignedIn(baseUrl: string): Promise<string> {
  const cookie = await signInAsOwner(baseUrl);
  const res = await fetch(`${baseUrl}/api/v1/tokens`, {
    method: "POST",
    headers: { "content-type": "application/json", cookie, origin: baseUrl },
    body: JSON.stringify({ name: "demo-seed", role: "member" }),
  });
  if (res.status !== 201) throw new Error(`creating the demo's API token failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { value: string }).value;
}

async function waitHealthy(baseUrl: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`driftwatch start stopped (exit ${child.exitCode})`);
    if (await fetch(`${baseUrl}/api/health`).then((r) => r.ok, () => false)) return;
    if (Date.now() > deadline) throw new Error(`driftwatch start did not answer on ${baseUrl} within 180 s`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

export async function runDemo(opts: { port: number; log?: (line: string) => void }): Promise<void> {
  const log = opts.log ?? ((line: string) => console.log(line));
  const started = Date.now();
  const dataDir = path.resolve(process.env.DRIFTWATCH_DATA_DIR || ".driftwatch-demo");
  const demoDir = path.join(dataDir, "demo");
  mkdirSync(demoDir, { recursive: true });
  const stateFile = path.join(demoDir, "state.json");
  const state = readState(stateFile);

  let registry: DemoRegistry | null = null;
  let eol: EolServer | null = null;
  let github: GithubServer | null = null;
  // Every date of the dataset counts back from this instant: the first run's, kept for later runs.
  const plannedAt = state.seeded_at ?? Date.now();
  let server: ChildProcess | null = null;
  let reporting: { stop: () => void } | null = null;
  const cleanUp = async () => {
    reporting?.stop();
    if (server) await stopChild(server);
    await registry?.stop();
    await eol?.close();
    await github?.close();
  };
  try {
    // Before the server starts: its health wait is shorter than a first build.
    buildWebAppIfStale(ROOT);
    if (registryInstalled()) {
      // Image names carry the registry's port, so a second run must listen where the first one did.
      const registryPort = state.registry_port ?? (await freePort());
      registry = await startDemoRegistry(path.join(demoDir, "registry"), registryPort);
      state.registry_port = registryPort;
    } else {
      log(`No docker-registry here (${REGISTRY_BINARY}): upstream tags come from recorded agent look-ups instead.`);
    }
    eol = await startEolServer();
    github = await startGithubServer(plannedAt);
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DRIFTWATCH_DATA_DIR: dataDir,
      DRIFTWATCH_EOL: "true",
      DRIFTWATCH_EOL_API_URL: eol.apiUrl,
      DRIFTWATCH_DEMO: "true",
      // The demo's releases with their published dates, from a loopback stand-in for GitHub's API.
      DRIFTWATCH_GITHUB_API_URL: github.apiUrl,
      ...(registry ? { DRIFTWATCH_SERVER_REGISTRIES: registry.host, DRIFTWATCH_INSECURE_REGISTRIES: registry.host } : {}),
    };
    const baseUrl = `http://localhost:${opts.port}`;
    server = spawn(BIN, ["start", "--port", String(opts.port)], { cwd: ROOT, env, stdio: ["ignore", "inherit", "inherit"] });
    const child = server;
    const stop = (signal: NodeJS.Signals) => void child.kill(signal);
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
    await waitHealthy(`http://127.0.0.1:${opts.port}`, child);
    log(`Driftwatch answers after ${seconds(started)}.`);

    if (!state.seeded) {
      log("Filling the demo workspace…");
      const digests = new Map<string, string>();
      if (registry) {
        const pushStarted = Date.now();
        const pushes = DEMO_SERVICES.flatMap((s) => s.releases.map(([tag]) => [s.repository, tag] as const));
        let next = 0;
        await Promise.all(Array.from({ length: 6 }, async () => {
          while (next < pushes.length) {
            const [repository, tag] = pushes[next++]!;
            digests.set(`${repository}:${tag}`, await registry!.push(repository, tag));
          }
        }));
        log(`  ${pushes.length} releases pushed to the loopback registry ${registry.host} in ${seconds(pushStarted)}`);
      }
      const keysStarted = Date.now();
      const seededAt = plannedAt;
      await runCommand(["setup", "--workspace", DEMO_WORKSPACE, "--email", DEMO_EMAIL, "--password", DEMO_PASSWORD], env);
      const [token, agentKey] = await Promise.all([
        createTokenSignedIn(`http://127.0.0.1:${opts.port}`),
        runCommand(["agent", "create", "--workspace", DEMO_WORKSPACE, "--name", "demo-agent"], env),
      ]);
      log(`  workspace ${DEMO_WORKSPACE}, its owner, an API token and an agent key made in ${seconds(keysStarted)}`);
      await seedDemo({
        baseUrl: `http://127.0.0.1:${opts.port}`,
        token: token.trim(),
        agentKey: agentKey.trim(),
        imageHost: registry?.host ?? RECORDED_HOST,
        digestOf: (repository, tag) => digests.get(`${repository}:${tag}`) ?? demoImageDigest(repository, tag),
        recordedTags: !registry,
        gitDir: demoDir,
        now: seededAt,
      }, log);
      Object.assign(state, { seeded: true, seeded_at: seededAt, agent_key: agentKey.trim() });
      writeState(stateFile, state);
    } else {
      log("The demo workspace is already filled; reusing it.");
      // A workspace filled by an earlier version kept no agent key: make one to report with.
      if (state.agent_key === undefined) state.agent_key = (await runCommand(["agent", "create", "--workspace", DEMO_WORKSPACE, "--name", `demo-agent-${Date.now()}`], env)).trim();
      writeState(stateFile, state);
      // The printed sign-in must still open it (nothing in the server changes the demo owner's password).
      await signInAsOwner(`http://127.0.0.1:${opts.port}`);
    }
    // The targets keep reporting while the demo runs, so nothing it shows turns quiet.
    reporting = await startKeepReporting({
      baseUrl: `http://127.0.0.1:${opts.port}`,
      agentKey: state.agent_key!,
      imageHost: registry?.host ?? RECORDED_HOST,
      registry,
      recordedTags: !registry,
      plannedAt: state.seeded_at ?? null,
      quietAfterMs: loadConfig(env).quietAfterMs,
      log,
    });
    log("");
    log(`Driftwatch demo is running at ${baseUrl} (ready in ${seconds(started)})`);
    log(`Sign in as ${DEMO_EMAIL} with the password ${DEMO_PASSWORD} (workspace ${DEMO_WORKSPACE}).`);
    log(`Data: ${dataDir}. End-of-life data and the Compose file in Git are read within a minute. Ctrl-C stops it.`);
    const code = await new Promise<number>((resolve) => child.once("exit", (c) => resolve(c ?? 0)));
    reporting.stop();
    server = null;
    await cleanUp();
    process.exit(code);
  } catch (err) {
    await cleanUp();
    throw err;
  }
}
