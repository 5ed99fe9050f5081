// driftwatch tags newest: the version engine offline, so anyone can ask
// "why is this the newest?" without a server.
import type { Command } from "commander";
import { AppError } from "@/lib/domain/errors";
import { TRACKS, type Track } from "@/lib/domain/tracks";
import { compileTagFilter, selectNewest, tagsFromJson } from "@/lib/domain/versions";
import { oneOf, wholeNumber } from "../options";
import { UsageError } from "../output";

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) throw new UsageError("pipe a JSON array of tags (or a registry tags/list body) on standard input");
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

export function registerTagsCommand(program: Command) {
  const tags = program.command("tags").description("offline helpers for tags");
  tags
    .command("newest")
    .description("read tags on stdin (a JSON array, or a registry tags/list body) and print the newest release for --running")
    .requiredOption("--running <tag>", "the running tag")
    .option("--track <jump>", "patch, minor or major: the smallest jump worth an alert", oneOf("--track", TRACKS), "patch")
    .option("--pin-major <n>", "stay on this major", wholeNumber("--pin-major"))
    .option("--tag-filter <regex>", "tags must match it to count as versions (RE2 syntax)")
    .option("--prerelease", "consider alpha, beta and rc versions")
    .option("--json", "print JSON (the default for this command)")
    .action(async (opts: { running: string; track: Track; pinMajor?: number; tagFilter?: string; prerelease?: boolean }) => {
      const pin = opts.pinMajor;
      if (opts.tagFilter !== undefined) {
        const compiled = compileTagFilter(opts.tagFilter);
        if (!compiled.ok) throw new UsageError(`--tag-filter: ${compiled.error}`);
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(await readStdin());
      } catch (err) {
        if (err instanceof UsageError) throw err;
        throw new UsageError(`standard input is not JSON: ${(err as Error).message}`);
      }
      let list: string[];
      try {
        list = tagsFromJson(parsed);
      } catch (err) {
        throw new UsageError(err instanceof AppError ? err.message : String(err));
      }
      const result = selectNewest({
        running: opts.running,
        tags: list,
        policy: { track: opts.track, prerelease: opts.prerelease ?? false, ...(pin !== undefined ? { pin_major: pin } : {}), ...(opts.tagFilter ? { tag_filter: opts.tagFilter } : {}) },
      });
      process.stdout.write(JSON.stringify({ running: result.running, newest: result.newest, jump: result.jump, target: result.target, alert: result.alert }) + "\n");
    });
}
