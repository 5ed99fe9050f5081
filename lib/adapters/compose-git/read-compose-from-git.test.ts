import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { gitFailureReason } from "./git";
import { readComposeFromGit, type ComposeGitOptions } from "./read-compose-from-git";

let root: string;
let repo: string;
let opts: ComposeGitOptions;

const git = (...args: string[]) =>
  execFileSync("git", ["-c", "user.name=Test", "-c", "user.email=test@example.com", "-c", "commit.gpgsign=false", ...args], { cwd: repo, encoding: "utf8", env: { ...process.env, HOME: root, GIT_CONFIG_NOSYSTEM: "1" } }).trim();

function commitFiles(files: Record<string, string>, message: string): string {
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(repo, name)), { recursive: true });
    writeFileSync(path.join(repo, name), text);
  }
  git("add", "-A");
  git("commit", "--quiet", "-m", message);
  return git("rev-parse", "HEAD");
}

beforeAll(() => {
  root = mkdtempSync(path.join(os.tmpdir(), "dw-compose-git-"));
  repo = path.join(root, "deploy-repo");
  mkdirSync(repo);
  git("init", "--quiet", "-b", "main");
  opts = { cacheDir: path.join(root, "cache"), env: { PATH: process.env.PATH, HOME: root }, timeoutMs: 20_000 };
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("readComposeFromGit on real repositories", () => {
  it("reads the branch head with interpolation, .env, overrides and extends, then sees a new commit after a refresh", async () => {
    const first = commitFiles(
      {
        "staging/docker-compose.yml": [
          "name: shop",
          "x-defaults: &defaults",
          "  restart: unless-stopped",
          "services:",
          "  web:",
          "    <<: *defaults",
          "    image: nginx:${WEB_TAG}",
          "  api:",
          "    image: ${REGISTRY:-ghcr.io/acme}/shop-api:${API_TAG-2.4.0}",
          "  worker:",
          "    extends:",
          "      file: ../common/base.yml",
          "      service: worker",
          "  migrate:",
          "    build: ./migrate",
          "  price-tag:",
          "    image: ghcr.io/acme/pricing:$${NOT_INTERPOLATED}",
        ].join("\n"),
        "staging/.env": "# staging versions\nWEB_TAG=1.27.2-alpine\nAPI_TAG=2.4.1\n",
        "staging/docker-compose.override.yml": "services:\n  api:\n    environment:\n      LOG_LEVEL: debug\n  web:\n    image: nginx:${WEB_TAG}-perl\n",
        "common/base.yml": "services:\n  worker:\n    image: ghcr.io/acme/shop-worker:${API_TAG:-2.4.0}\n",
      },
      "staging compose files",
    );
    const source = { url: repo, branch: "main", paths: ["staging/docker-compose.yml", "staging/docker-compose.override.yml"] };

    const before = await readComposeFromGit(source, opts);
    expect(before).toEqual({
      commit: first,
      committedAt: expect.any(Date),
      services: [
        { service: "api", image: "ghcr.io/acme/shop-api:2.4.1", file: "staging/docker-compose.yml" },
        { service: "price-tag", image: "ghcr.io/acme/pricing:${NOT_INTERPOLATED}", file: "staging/docker-compose.yml" },
        { service: "web", image: "nginx:1.27.2-alpine-perl", file: "staging/docker-compose.override.yml" },
        { service: "worker", image: "ghcr.io/acme/shop-worker:2.4.1", file: "common/base.yml" },
      ],
      errors: [],
    });

    const second = commitFiles({ "staging/.env": "WEB_TAG=1.27.3-alpine\nAPI_TAG=2.5.0\n" }, "promote web and api");
    const after = await readComposeFromGit(source, opts);
    expect(after.commit).toBe(second);
    expect(after.services.map((s) => [s.service, s.image])).toEqual([
      ["api", "ghcr.io/acme/shop-api:2.5.0"],
      ["price-tag", "ghcr.io/acme/pricing:${NOT_INTERPOLATED}"],
      ["web", "nginx:1.27.3-alpine-perl"],
      ["worker", "ghcr.io/acme/shop-worker:2.5.0"],
    ]);
    // One bare cache repository per URL; no working tree was checked out.
    expect(readdirSync(opts.cacheDir)).toHaveLength(1);
    expect(readdirSync(path.join(opts.cacheDir, readdirSync(opts.cacheDir)[0]!))).toContain("HEAD");
  });

  it("reads another branch over a file:// URL, and reports a missing file among the paths", async () => {
    git("checkout", "--quiet", "-b", "release/2026-11");
    const head = commitFiles({ "prod/compose.yml": "services:\n  web:\n    image: nginx:1.26.2-alpine\n" }, "production");
    git("checkout", "--quiet", "main");
    const result = await readComposeFromGit({ url: `file://${repo}`, branch: "release/2026-11", paths: ["prod/compose.yml", "prod/compose.extra.yml"] }, opts);
    expect(result).toEqual({
      commit: head,
      committedAt: expect.any(Date),
      services: [{ service: "web", image: "nginx:1.26.2-alpine", file: "prod/compose.yml" }],
      errors: ["prod/compose.extra.yml: file not found."],
    });
  });

  it("fails with not_found for a branch that does not exist", async () => {
    await expect(readComposeFromGit({ url: repo, branch: "nope", paths: ["compose.yml"] }, opts)).rejects.toMatchObject({ code: "not_found", message: `Branch "nope" was not found in ${repo}.` });
  });

  it.each(["ext::sh -c touch% /tmp/pwned", "--upload-pack=touch /tmp/pwned", "relative/path", "https://example.com/a b"])("refuses the URL %s before running git", async (url) => {
    await expect(readComposeFromGit({ url, branch: "main", paths: ["compose.yml"] }, opts)).rejects.toMatchObject({ code: "invalid_input" });
  });

  it("says why a fetch failed, not git's closing advice", async () => {
    const missing = `${repo}-missing`;
    await expect(readComposeFromGit({ url: `file://${missing}`, branch: "main", paths: ["compose.yml"] }, opts)).rejects.toMatchObject({
      code: "unavailable", message: `git fetch of file://${missing} (main) failed: '${missing}' does not appear to be a git repository`,
    });
    const err = await readComposeFromGit({ url: "https://127.0.0.1:1/acme/deploy.git", branch: "main", paths: ["compose.yml"] }, opts).catch((e: Error) => e);
    expect((err as Error).message).toMatch(/failed: unable to access 'https:\/\/127\.0\.0\.1:1\/acme\/deploy\.git\/': .*connect/i);
  });

  it.each([
    ["ssh: connect to host git.internal port 22: Connection refused\nfatal: Could not read from remote repository.\n\nPlease make sure you have the correct access rights\nand the repository exists.\n", "ssh: connect to host git.internal port 22: Connection refused"],
    ["ERROR: Repository not found.\nfatal: Could not read from remote repository.\n\nPlease make sure you have the correct access rights\nand the repository exists.\n", "ERROR: Repository not found."],
    ["fatal: Could not read from remote repository.\n\nPlease make sure you have the correct access rights\nand the repository exists.\n", "Could not read from remote repository."],
    ["warning: redirecting to https://git.internal/acme/deploy.git/\nfatal: couldn't find remote ref refs/heads/nope\n", "couldn't find remote ref refs/heads/nope"],
    ["", undefined],
  ])("reads the reason out of git's stderr %#", (stderr, reason) => {
    expect(gitFailureReason(stderr)).toBe(reason);
  });

  it("redacts credentials from fetch errors", async () => {
    const err = await readComposeFromGit({ url: "https://bot:s3cret-token@127.0.0.1:1/acme/deploy.git", branch: "main", paths: ["compose.yml"] }, opts).catch((e: Error) => e);
    expect(err).toMatchObject({ code: "unavailable" });
    expect((err as Error).message).not.toContain("s3cret-token");
  });

  it("kills a git that runs past the timeout", async () => {
    const slow = path.join(root, "slow-git");
    writeFileSync(slow, "#!/bin/sh\nsleep 5\n");
    chmodSync(slow, 0o755);
    const started = Date.now();
    await expect(readComposeFromGit({ url: repo, branch: "main", paths: ["compose.yml"] }, { ...opts, cacheDir: path.join(root, "cache-slow"), gitBinary: slow, timeoutMs: 300 })).rejects.toThrow(/timed out/);
    expect(Date.now() - started).toBeLessThan(3_000);
  });
});
