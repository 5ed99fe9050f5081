// Registry credentials for private registries: a Docker `config.json` (`auths`) and Kubernetes pull
// secrets, which share one format. Credential helpers (`credsStore`, `credHelpers`) name programs
// to run; the agent does not run them.
import { readFile } from "node:fs/promises";
import { z } from "zod";

export type RegistryCredential = { username: string; password: string };

export type CredentialsProvider = {
  /** A credential for `host/path`, or null when none is known. */
  forRepository: (repository: string) => Promise<RegistryCredential | null>;
};

const authEntry = z.object({
  auth: z.string().optional(),
  username: z.string().optional(),
  password: z.string().optional(),
  identitytoken: z.string().optional(),
});
const dockerConfigSchema = z.object({ auths: z.record(z.string(), authEntry).optional() });
// The legacy `.dockercfg` format is the `auths` map itself.
const legacyDockerCfgSchema = z.record(z.string(), authEntry);

/** `https://index.docker.io/v1/` → `docker.io`; `ghcr.io` → `ghcr.io`; `reg:5000/v2/` → `reg:5000`. */
export function registryHostOf(key: string): string {
  const host = key.replace(/^[a-z]+:\/\//i, "").split("/")[0]?.toLowerCase() ?? "";
  return host === "index.docker.io" || host === "registry-1.docker.io" ? "docker.io" : host;
}

function toCredential(entry: z.infer<typeof authEntry>): RegistryCredential | null {
  if (entry.username && entry.password) return { username: entry.username, password: entry.password };
  if (entry.identitytoken) return { username: "<token>", password: entry.identitytoken };
  if (entry.auth) {
    const decoded = Buffer.from(entry.auth, "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    if (colon > 0) return { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
  }
  return null;
}

/** Registry host → credential, from a Docker config body (or a legacy `.dockercfg` with `legacy`). */
export function parseDockerConfig(json: unknown, opts: { legacy?: boolean } = {}): Map<string, RegistryCredential> {
  const out = new Map<string, RegistryCredential>();
  const parsed = opts.legacy ? legacyDockerCfgSchema.safeParse(json) : dockerConfigSchema.safeParse(json);
  if (!parsed.success) return out;
  const auths = opts.legacy ? (parsed.data as z.infer<typeof legacyDockerCfgSchema>) : ((parsed.data as z.infer<typeof dockerConfigSchema>).auths ?? {});
  for (const [key, entry] of Object.entries(auths)) {
    const cred = toCredential(entry);
    const host = registryHostOf(key);
    if (cred && host && !out.has(host)) out.set(host, cred);
  }
  return out;
}

export const hostOfRepository = (repository: string): string => registryHostOf(repository);

/** Credentials from a Docker `config.json` file; a missing or unreadable file gives none. */
export function dockerConfigProvider(file: string): CredentialsProvider {
  let table: Promise<Map<string, RegistryCredential>> | undefined;
  const load = async () => {
    try {
      return parseDockerConfig(JSON.parse(await readFile(file, "utf8")));
    } catch {
      return new Map<string, RegistryCredential>();
    }
  };
  return {
    forRepository: async (repository) => {
      table ??= load();
      return (await table).get(hostOfRepository(repository)) ?? null;
    },
  };
}

/** The first provider that knows a credential wins. */
export function combineProviders(providers: readonly CredentialsProvider[]): CredentialsProvider {
  return {
    forRepository: async (repository) => {
      for (const p of providers) {
        const cred = await p.forRepository(repository);
        if (cred) return cred;
      }
      return null;
    },
  };
}
