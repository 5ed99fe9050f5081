// Which image each Compose service declares, from Compose files read through `read` (repository-relative
// paths). Later files override earlier ones per service `image`; `extends` is followed within and
// between files. Build-only services (no image) are left out: Git cannot name what they would run.
import path from "node:path";
import { parseDocument } from "yaml";
import { interpolate, parseDotEnv, type Variables } from "./interpolate";

export type ComposeFileReader = (repoPath: string) => Promise<string | null>;

export type DeclaredService = { service: string; image: string; file: string };

export type ComposeResolution = { services: DeclaredService[]; errors: string[] };

const MAX_EXTENDS_DEPTH = 10;
const MAX_ALIASES = 100;

/** A repository-relative path, or null when it would leave the repository. */
export function normaliseRepoPath(p: string): string | null {
  if (!p || p.includes("\0") || path.posix.isAbsolute(p)) return null;
  const normal = path.posix.normalize(p);
  if (normal === ".." || normal.startsWith("../")) return null;
  return normal.replace(/^\.\//, "");
}

type ServiceMap = Record<string, unknown>;
type Found = { image: string; file: string } | null;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

// A reference with nothing after `:`/`@`/`/`, or with spaces, came from a blank variable.
const looksLikeImage = (ref: string) => /^[^\s]+$/.test(ref) && !/[:@/]$/.test(ref) && !ref.startsWith(":");

class ComposeContext {
  private files = new Map<string, Promise<ServiceMap | null>>();
  readonly errors: string[] = [];

  constructor(
    private readonly read: ComposeFileReader,
    private readonly vars: Variables,
  ) {}

  private say(message: string) {
    if (!this.errors.includes(message)) this.errors.push(message);
  }

  services(file: string): Promise<ServiceMap | null> {
    let hit = this.files.get(file);
    if (!hit) {
      hit = this.load(file);
      this.files.set(file, hit);
    }
    return hit;
  }

  private async load(file: string): Promise<ServiceMap | null> {
    const text = await this.read(file);
    if (text === null) {
      this.say(`${file}: file not found.`);
      return null;
    }
    const doc = parseDocument(text, { merge: true, prettyErrors: false });
    if (doc.errors.length > 0) {
      this.say(`${file}: invalid YAML: ${doc.errors[0]?.message.split("\n")[0]}`);
      return null;
    }
    let data: unknown;
    try {
      data = doc.toJS({ maxAliasCount: MAX_ALIASES });
    } catch (err) {
      this.say(`${file}: ${(err as Error).message}`);
      return null;
    }
    if (data === null || data === undefined) return {};
    if (!isRecord(data)) {
      this.say(`${file}: not a Compose file (expected a mapping at the top).`);
      return null;
    }
    if (data.services === undefined || data.services === null) return {};
    if (!isRecord(data.services)) {
      this.say(`${file}: "services" must be a mapping.`);
      return null;
    }
    return data.services;
  }

  private text(value: unknown, where: string): string | null {
    if (typeof value !== "string") {
      this.say(`${where}: expected a string.`);
      return null;
    }
    const result = interpolate(value, this.vars);
    for (const w of result.warnings) this.say(`${where}: ${w}`);
    if (result.errors.length > 0) {
      for (const e of result.errors) this.say(`${where}: ${e}`);
      return null;
    }
    return result.value;
  }

  /** The image of `service` in `file`, following `extends`; null when it has none (build only). */
  async image(file: string, service: string, seen: string[] = []): Promise<Found> {
    const key = `${file}#${service}`;
    if (seen.includes(key)) {
      this.say(`${file}: service "${service}": extends forms a cycle (${[...seen, key].join(" → ")}).`);
      return null;
    }
    if (seen.length >= MAX_EXTENDS_DEPTH) {
      this.say(`${file}: service "${service}": extends is nested more than ${MAX_EXTENDS_DEPTH} deep.`);
      return null;
    }
    const services = await this.services(file);
    if (!services) return null;
    const def = services[service];
    const where = `${file}: service "${service}"`;
    if (def === undefined) {
      this.say(`${where}: not defined.`);
      return null;
    }
    if (def === null) return null;
    if (!isRecord(def)) {
      this.say(`${where}: must be a mapping.`);
      return null;
    }
    if (def.image !== undefined && def.image !== null) {
      const image = this.text(def.image, `${where}: image`);
      if (image === null) return null;
      if (!looksLikeImage(image)) {
        this.say(`${where}: image "${image}" is not a valid reference.`);
        return null;
      }
      return { image, file };
    }
    if (def.extends === undefined || def.extends === null) return null;
    const ext = typeof def.extends === "string" ? { service: def.extends } : isRecord(def.extends) ? def.extends : null;
    if (!ext) {
      this.say(`${where}: extends must be a service name or a mapping.`);
      return null;
    }
    const base = this.text(ext.service, `${where}: extends.service`);
    if (base === null) return null;
    let target = file;
    if (ext.file !== undefined) {
      const rel = this.text(ext.file, `${where}: extends.file`);
      const resolved = rel === null ? null : normaliseRepoPath(path.posix.join(path.posix.dirname(file), rel));
      if (resolved === null) {
        if (rel !== null) this.say(`${where}: extends.file "${rel}" is outside the repository.`);
        return null;
      }
      target = resolved;
    }
    return this.image(target, base, [...seen, key]);
  }
}

/** The variables for a Compose file: the `.env` beside it, overridden by `variables`. */
async function variablesFor(file: string, read: ComposeFileReader, variables: Variables, errors: string[]): Promise<Variables> {
  const dir = path.posix.dirname(file);
  const envPath = dir === "." ? ".env" : `${dir}/.env`;
  const text = await read(envPath);
  if (text === null) return variables;
  const parsed = parseDotEnv(text, variables);
  errors.push(...parsed.errors.map((e) => `${envPath}: ${e}`));
  return { ...parsed.vars, ...variables };
}

export async function resolveComposeImages(paths: readonly string[], read: ComposeFileReader, opts: { variables?: Variables } = {}): Promise<ComposeResolution> {
  const errors: string[] = [];
  const merged = new Map<string, DeclaredService>();
  for (const raw of paths) {
    const file = normaliseRepoPath(raw);
    if (!file) {
      errors.push(`${raw}: path is outside the repository.`);
      continue;
    }
    const vars = await variablesFor(file, read, opts.variables ?? {}, errors);
    const ctx = new ComposeContext(read, vars);
    const services = await ctx.services(file);
    if (services) {
      for (const name of Object.keys(services)) {
        const found = await ctx.image(file, name);
        if (found) merged.set(name, { service: name, image: found.image, file: found.file });
      }
    }
    errors.push(...ctx.errors.filter((e) => !errors.includes(e)));
  }
  const services = [...merged.values()].sort((a, b) => a.service.localeCompare(b.service));
  return { services, errors };
}
