// The system `git`, run with a timeout, no prompts, no hooks and no `ext::` transports, into a bare
// cache repository. Files are read as blobs at a commit (`git cat-file`): no checkout, filter or hook runs.
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdir, stat } from "node:fs/promises";
import path from "node:path";
import { AppError } from "@/lib/domain/errors";

export type GitOptions = {
  /** Where bare cache repositories live (one per repository URL). */
  cacheDir: string;
  timeoutMs?: number;
  /** Base environment for git (PATH, HOME, SSH_AUTH_SOCK…); the entry point passes it in. */
  env?: Record<string, string | undefined>;
  gitBinary?: string;
  /** Largest file read; default 1 MiB. */
  maxFileBytes?: number;
};

const DEFAULT_PATH = "/usr/local/bin:/usr/bin:/bin";
const SAFE_CONFIG = ["-c", "core.hooksPath=/dev/null", "-c", "protocol.ext.allow=never", "-c", "protocol.fd.allow=never", "-c", "core.fsmonitor=false", "-c", "submodule.recurse=false"];

/** `https://user:token@host/x` → `https://***@host/x`, for messages. */
export const redactUrl = (url: string) => url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@]*@/i, "$1***@");

/** https, http, ssh, git, file URLs, scp-like `user@host:path`, or an absolute local path. */
export function validateRepositoryUrl(url: string): void {
  const ok =
    /^(https?|ssh|git|file):\/\/[^\s]+$/i.test(url) ||
    /^[A-Za-z0-9._-]+@[A-Za-z0-9.-]+:[^\s]+$/.test(url) ||
    (path.isAbsolute(url) && !/[\0\r\n]/.test(url));
  if (!ok || url.startsWith("-")) {
    throw new AppError("invalid_input", `Unsupported repository URL "${redactUrl(url)}": use https://, ssh://, git://, file://, user@host:path or an absolute path.`);
  }
}

export function validateBranch(branch: string): void {
  const ok = /^[A-Za-z0-9._/-]{1,200}$/.test(branch) && !branch.startsWith("-") && !branch.startsWith("/") && !branch.endsWith("/") && !branch.includes("..") && !branch.endsWith(".lock");
  if (!ok) throw new AppError("invalid_input", `Invalid branch name "${branch}".`);
}

type RunResult = { stdout: string };

/**
 * What a failed git command's stderr says went wrong, in one line. Git ends a failed fetch with advice
 * ("Please make sure you have the correct access rights / and the repository exists.") after a generic
 * "Could not read from remote repository": the reason is the line before those (ssh's, the path's, the host's).
 */
export function gitFailureReason(stderr: string): string | undefined {
  const lines = stderr.split("\n").map((l) => l.trim()).filter(Boolean);
  const advice = lines.findIndex((l) => l.startsWith("Please make sure you have the correct access rights"));
  const said = (advice < 0 ? lines : lines.slice(0, advice)).filter((l) => !/^(warning|hint): /.test(l));
  const specific = said.filter((l) => l !== "fatal: Could not read from remote repository.");
  return (specific[0] ?? said[0])?.replace(/^(fatal|error): /, "");
}

function runGit(args: string[], opts: GitOptions & { cwd?: string; maxBuffer?: number }): Promise<RunResult> {
  const base = opts.env ?? {};
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(base)) if (v !== undefined) env[k] = v;
  Object.assign(env, {
    PATH: base.PATH ?? DEFAULT_PATH,
    GIT_TERMINAL_PROMPT: "0",
    GIT_ALLOW_PROTOCOL: "file:git:http:https:ssh",
    GIT_SSH_COMMAND: base.GIT_SSH_COMMAND ?? "ssh -o BatchMode=yes",
    LC_ALL: "C",
  });
  return new Promise((resolve, reject) => {
    execFile(
      opts.gitBinary ?? "git",
      [...SAFE_CONFIG, ...args],
      { cwd: opts.cwd, env: env as NodeJS.ProcessEnv, timeout: opts.timeoutMs ?? 60_000, killSignal: "SIGKILL", maxBuffer: opts.maxBuffer ?? 4 * 1024 * 1024, encoding: "utf8" },
      (err, stdout, stderr) => {
        if (err) {
          const e = err as NodeJS.ErrnoException & { killed?: boolean; code?: number | string };
          const detail = e.killed ? "timed out" : (gitFailureReason(stderr) ?? e.message);
          reject(Object.assign(new Error(detail), { exitCode: typeof e.code === "number" ? e.code : undefined, killed: !!e.killed, stderr }));
          return;
        }
        resolve({ stdout });
      },
    );
  });
}

const locks = new Map<string, Promise<unknown>>();

/** Serialise work on one cache repository within this process. */
async function withLock<T>(key: string, fn: () => Promise<T>): Promise<T> {
  const prev = locks.get(key) ?? Promise.resolve();
  const next = prev.catch(() => undefined).then(fn);
  locks.set(key, next);
  try {
    return await next;
  } finally {
    if (locks.get(key) === next) locks.delete(key);
  }
}

export const cacheRepoDir = (cacheDir: string, url: string) => path.join(cacheDir, `${createHash("sha256").update(url).digest("hex").slice(0, 24)}.git`);

/** Fetch the branch head into the cache; returns the cache repository and the head commit. */
export async function fetchBranch(url: string, branch: string, opts: GitOptions): Promise<{ repoDir: string; commit: string; committedAt: Date }> {
  validateRepositoryUrl(url);
  validateBranch(branch);
  const repoDir = cacheRepoDir(opts.cacheDir, url);
  const ref = `refs/driftwatch/${branch}`;
  return withLock(repoDir, async () => {
    const exists = await stat(path.join(repoDir, "HEAD")).then(() => true, () => false);
    if (!exists) {
      await mkdir(repoDir, { recursive: true });
      await runGit(["init", "--bare", "--quiet", "--template=", repoDir], opts).catch((err: Error) => {
        throw new AppError("internal", `git init failed in the cache: ${err.message}`, { cause: err });
      });
    }
    try {
      await runGit(["fetch", "--quiet", "--no-tags", "--no-recurse-submodules", "--depth=1", "--force", "--", url, `+refs/heads/${branch}:${ref}`], { ...opts, cwd: repoDir });
    } catch (err) {
      const message = (err as Error).message;
      if (/couldn't find remote ref/i.test(message)) throw new AppError("not_found", `Branch "${branch}" was not found in ${redactUrl(url)}.`, { cause: err });
      throw new AppError("unavailable", `git fetch of ${redactUrl(url)} (${branch}) failed: ${message.replaceAll(url, redactUrl(url))}`, { cause: err });
    }
    const { stdout } = await runGit(["rev-parse", "--verify", "--quiet", `${ref}^{commit}`], { ...opts, cwd: repoDir });
    const commit = stdout.trim();
    const shown = await runGit(["show", "-s", "--format=%cI", commit], { ...opts, cwd: repoDir });
    return { repoDir, commit, committedAt: new Date(shown.stdout.trim()) };
  });
}

/** A file's text at `commit`, or null when it does not exist there. Larger than the limit is an error. */
export async function readBlob(repoDir: string, commit: string, repoPath: string, opts: GitOptions): Promise<string | null> {
  const spec = `${commit}:${repoPath}`;
  let size: number;
  try {
    const typed = await runGit(["cat-file", "-t", spec], { ...opts, cwd: repoDir });
    if (typed.stdout.trim() !== "blob") return null;
    size = Number((await runGit(["cat-file", "-s", spec], { ...opts, cwd: repoDir })).stdout.trim());
  } catch {
    return null;
  }
  const limit = opts.maxFileBytes ?? 1024 * 1024;
  if (size > limit) throw new AppError("payload_too_large", `${repoPath} is ${size} bytes, over the ${limit}-byte limit.`);
  const { stdout } = await runGit(["cat-file", "blob", spec], { ...opts, cwd: repoDir, maxBuffer: limit + 1024 });
  return stdout;
}
