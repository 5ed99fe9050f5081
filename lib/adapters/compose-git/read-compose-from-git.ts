// Compose-in-Git: the images a branch of a repository declares, at the
// branch's head commit. Called again, it fetches again and sees new commits.
import { AppError } from "@/lib/domain/errors";
import { resolveComposeImages, type DeclaredService } from "./compose";
import { fetchBranch, readBlob, type GitOptions } from "./git";
import type { Variables } from "./interpolate";

export type ComposeGitSource = {
  /** https://…, ssh://…, git@host:path, file://… or an absolute local path. */
  url: string;
  branch: string;
  /** Compose files, repository-relative; later ones override earlier ones. */
  paths: string[];
};

export type ComposeGitOptions = GitOptions & {
  /** Override `.env` values, as the shell environment does for `docker compose`. */
  variables?: Variables;
};

/** `committedAt`: when the head commit was made (the time declared versions start from). */
export type ComposeGitResult = { commit: string; committedAt: Date; services: DeclaredService[]; errors: string[] };

export async function readComposeFromGit(source: ComposeGitSource, opts: ComposeGitOptions): Promise<ComposeGitResult> {
  if (source.paths.length === 0) throw new AppError("invalid_input", "A Compose-in-Git source needs at least one path.");
  const { repoDir, commit, committedAt } = await fetchBranch(source.url, source.branch, opts);
  const errors: string[] = [];
  const unreadable = new Set<string>();
  const read = async (p: string) => {
    try {
      return await readBlob(repoDir, commit, p, opts);
    } catch (err) {
      unreadable.add(p);
      errors.push(err instanceof AppError ? err.message : `${p}: ${(err as Error).message}`);
      return null;
    }
  };
  const resolved = await resolveComposeImages(source.paths, read, { variables: opts.variables });
  // A file that could not be read is reported once, not again as missing.
  const rest = resolved.errors.filter((e) => ![...unreadable].some((p) => e === `${p}: file not found.`));
  return { commit, committedAt, services: resolved.services, errors: [...errors, ...rest] };
}
