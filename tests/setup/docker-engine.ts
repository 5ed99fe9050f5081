// The engine tests' own set-up, after tests/setup/global.ts: a real Docker Engine in Swarm mode
// under a temp folder (DRIFTWATCH_DOCKER_DIR to choose it), stopped and removed afterwards. When it
// cannot start, the run fails with the reason: these tests are never skipped.
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { startDockerEngine, stopDockerEngine } from "../support/docker-engine";

declare module "vitest" {
  export interface ProvidedContext {
    /** The real engine: `unix://…/docker.sock`, and its folder (CLI config lives there). */
    dockerHost: string;
    dockerDir: string;
  }
}

export default function setup(project: TestProject) {
  const chosen = process.env.DRIFTWATCH_DOCKER_DIR;
  // Short: the socket path must stay under the kernel's 108 bytes.
  const dir = chosen || mkdtempSync(path.join(os.tmpdir(), "dw-engine-"));
  const engine = startDockerEngine(dir);
  project.provide("dockerHost", engine.host);
  project.provide("dockerDir", engine.dir);
  return () => {
    stopDockerEngine(dir);
    // Gigabytes of image layers: removed in the background, so the run does not wait on the disk.
    if (!chosen) spawn("rm", ["-rf", dir], { detached: true, stdio: "ignore" }).unref();
  };
}
