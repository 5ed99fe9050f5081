// Configuration, read once from the environment at an entry point and passed
// down. A bad value stops start-up with one line naming the variable.
import path from "node:path";
import { z } from "zod";

const bool = z
  .string()
  .trim()
  .toLowerCase()
  .refine((v) => ["true", "false", "1", "0", "yes", "no"].includes(v), { message: "expected true or false" })
  .transform((v) => v === "true" || v === "1" || v === "yes");

const httpUrl = z
  .string()
  .trim()
  .refine((v) => {
    try {
      const u = new URL(v);
      return u.protocol === "http:" || u.protocol === "https:";
    } catch {
      return false;
    }
  }, { message: "expected an http(s) URL" })
  .transform((v) => v.replace(/\/+$/, ""));

const hostList = z
  .string()
  .transform((v) => v.split(",").map((h) => h.trim().toLowerCase()).filter(Boolean))
  .refine((hosts) => hosts.every((h) => /^[a-z0-9.-]+(:\d{1,5})?$/.test(h)), { message: "expected host[:port] names, comma-separated" });

const port = z.coerce.number().int().min(1).max(65535);

// A registry mirror as Docker's `registry-mirrors` takes one: a scheme and a host, no path, no credentials.
const registryMirror = z
  .string()
  .trim()
  .refine((v) => {
    try {
      const u = new URL(v);
      return (u.protocol === "http:" || u.protocol === "https:") && !u.username && !u.password && (u.pathname === "/" || u.pathname === "") && !u.search && !u.hash && /^https?:\/\/[^/]+\/?$/i.test(v);
    } catch {
      return false;
    }
  }, { message: "expected https://host[:port] (a registry mirror's address, without a path)" })
  .transform((v) => new URL(v).origin);
// Durations as users write them (`15m`, `1h30m`, `7d`); lib/domain/duration.ts reads the same shape.
const DURATION_UNIT_MS = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 } as const;
const duration = z
  .string()
  .trim()
  .toLowerCase()
  .refine((v) => /^(?:\d{1,7}[smhdw])+$/.test(v) && /[1-9]/.test(v), { message: "expected a duration such as 15m, 1h or 2d" })
  .transform((v) => [...v.matchAll(/(\d+)([smhdw])/g)].reduce((ms, [, n, unit]) => ms + Number(n) * DURATION_UNIT_MS[unit as keyof typeof DURATION_UNIT_MS], 0));

/** Roles single sign-on may give; owners are made by hand only. */
export const OIDC_ROLES = ["admin", "member", "viewer"] as const;
export type OidcRole = (typeof OIDC_ROLES)[number];

// Kept exactly as given: the provider's `iss` must match it character for character, trailing slash included.
const issuerUrl = z
  .string()
  .trim()
  .refine((v) => {
    try {
      const u = new URL(v);
      return (u.protocol === "https:" || u.protocol === "http:") && !u.search && !u.hash;
    } catch {
      return false;
    }
  }, { message: "expected the provider's issuer URL (https://…, no query)" });

/** `group=role,group=role`: which role a group in the groups claim gives. */
const groupRoles = z
  .string()
  .transform((v, zctx) => {
    const out = new Map<string, OidcRole>();
    for (const pair of v.split(",").map((p) => p.trim()).filter(Boolean)) {
      const at = pair.lastIndexOf("=");
      const group = pair.slice(0, Math.max(at, 0)).trim();
      const role = pair.slice(at + 1).trim();
      if (at <= 0 || !group) {
        zctx.addIssue({ code: "custom", message: `expected group=role pairs, comma-separated, like ops=member,platform=admin (bad pair ${JSON.stringify(pair)})` });
        return z.NEVER;
      }
      if (!(OIDC_ROLES as readonly string[]).includes(role)) {
        zctx.addIssue({ code: "custom", message: `the role of group ${JSON.stringify(group)} must be ${OIDC_ROLES.join(", ")} (got ${JSON.stringify(role)})` });
        return z.NEVER;
      }
      if (out.has(group)) {
        zctx.addIssue({ code: "custom", message: `group ${JSON.stringify(group)} is listed twice` });
        return z.NEVER;
      }
      out.set(group, role as OidcRole);
    }
    return out;
  });

const envSchema = z.object({
  DATABASE_URL: z
    .string()
    .trim()
    .refine((v) => /^postgres(ql)?:\/\//.test(v), { message: "expected a postgresql:// URL" })
    .optional(),
  DRIFTWATCH_DATA_DIR: z.string().trim().min(1).default("./.driftwatch"),
  PORT: port.default(3000),
  HOST: z.string().trim().min(1).default("127.0.0.1"),
  DRIFTWATCH_BASE_URL: httpUrl.optional(),
  AUTH_SECRET: z.string().min(32, { message: "must be at least 32 characters" }).optional(),
  DRIFTWATCH_GITHUB_TOKEN: z.string().trim().min(1).optional(),
  DRIFTWATCH_GITHUB_API_URL: httpUrl.default("https://api.github.com"),
  DRIFTWATCH_GITLAB_URL: httpUrl.optional(),
  DRIFTWATCH_GITLAB_TOKEN: z.string().trim().min(1).optional(),
  DRIFTWATCH_DOCKERHUB_USERNAME: z.string().trim().regex(/^[a-z0-9][a-z0-9_.-]{1,62}$/i, { message: "expected a Docker Hub user name" }).optional(),
  DRIFTWATCH_DOCKERHUB_TOKEN: z.string().trim().min(8, { message: "expected a personal access token" }).optional(),
  DRIFTWATCH_DOCKERHUB_MIRROR: registryMirror.optional(),
  DRIFTWATCH_EOL: bool.default(true),
  DRIFTWATCH_EOL_API_URL: httpUrl.default("https://endoflife.date/api/v1"),
  DRIFTWATCH_SERVER_REGISTRIES: hostList.default([]),
  DRIFTWATCH_INSECURE_REGISTRIES: hostList.default([]),
  DRIFTWATCH_SMTP_URL: z
    .string()
    .trim()
    .refine((v) => /^smtps?:\/\//.test(v), { message: "expected smtp://user:pass@host:port" })
    .optional(),
  DRIFTWATCH_OIDC_ISSUER: issuerUrl.optional(),
  DRIFTWATCH_OIDC_CLIENT_ID: z.string().trim().min(1).optional(),
  DRIFTWATCH_OIDC_CLIENT_SECRET: z.string().trim().min(1).optional(),
  DRIFTWATCH_OIDC_NAME: z.string().trim().min(1).max(40).optional(),
  DRIFTWATCH_OIDC_WORKSPACE: z.string().trim().min(1).optional(),
  DRIFTWATCH_OIDC_ROLE: z.enum(OIDC_ROLES, { message: `expected ${OIDC_ROLES.join(", ")}` }).optional(),
  DRIFTWATCH_OIDC_GROUPS_CLAIM: z.string().trim().regex(/^[A-Za-z0-9_.:/-]{1,200}$/, { message: "expected a claim name" }).optional(),
  DRIFTWATCH_OIDC_GROUP_ROLES: groupRoles.optional(),
  DRIFTWATCH_QUIET_AFTER: duration.default(15 * 60_000),
  // Set by `driftwatch demo` for the server it starts: sign-in shows the demo's printed credentials.
  DRIFTWATCH_DEMO: bool.default(false),
  DRIFTWATCH_LOG_LEVEL: z.enum(["debug", "info", "warn", "error"]).default("info"),
  // History kept: 90-day delivery window + its 365-day look-back; 0 keeps everything.
  DRIFTWATCH_RETENTION_DAYS: z.coerce.number().int().refine((v) => v === 0 || v >= 90, { message: "expected 0 (keep forever) or at least 90 days" }).default(455),
  DRIFTWATCH_LOG_RETENTION_DAYS: z.coerce.number().int().min(1, { message: "expected at least 1 day" }).default(30),
  // Docker's own variables: the host the server may watch. Never stops start-up: a host it cannot
  // speak to (ssh://) is shown as not readable.
  DOCKER_HOST: z.string().trim().optional(),
  DOCKER_TLS_VERIFY: z.string().optional(),
  DOCKER_CERT_PATH: z.string().trim().optional(),
});

export type Config = {
  databaseUrl: string | undefined;
  dataDir: string;
  port: number;
  host: string;
  baseUrl: string;
  authSecret: string | undefined;
  githubToken: string | undefined;
  githubApiUrl: string;
  gitlabUrl: string | undefined;
  gitlabToken: string | undefined;
  eolEnabled: boolean;
  eolApiUrl: string;
  serverRegistries: string[];
  insecureRegistries: string[];
  /** Sign-ins for public registries where one raises the pull limit, by reference host (`docker.io`). */
  registryCredentials: Record<string, { username: string; password: string }>;
  /** A Docker Hub mirror or pull-through cache (`https://host[:port]`) that Docker Hub's reads go to instead. */
  dockerHubMirror: string | undefined;
  /**
   * Further hosts rationed like Docker Hub, with its credentials: set only by tests and the benchmark, whose
   * loopback registries stand in for it. No environment variable sets it.
   */
  dockerHubHosts: string[];
  smtpUrl: string | undefined;
  /** Single sign-on with an OpenID Connect provider, when its issuer, client id and secret are all set. */
  oidc: OidcConfig | undefined;
  logLevel: "debug" | "info" | "warn" | "error";
  /** Days of closed history and resolved drift kept (0: forever); older deploys are kept folded (lib/services/retention/prune.ts). */
  retentionDays: number;
  /** Days of delivered events and their deliveries kept. */
  logRetentionDays: number;
  /** DOCKER_HOST, DOCKER_TLS_VERIFY and DOCKER_CERT_PATH as Docker's own tools read them. */
  docker: { host: string | undefined; tlsVerify: boolean; certPath: string | undefined };
  /** A target with no accepted report for longer than this is quiet. */
  quietAfterMs: number;
  /** The server `driftwatch demo` started: its sign-in page shows the demo's credentials. */
  demo: boolean;
};

export type OidcConfig = {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Shown on the sign-in button: "Sign in with <name>". */
  name: string;
  /** The workspace a person signing in for the first time joins; unset: only known people may sign in. */
  workspace: string | undefined;
  /** Their role when no group of theirs is mapped. */
  role: OidcRole;
  /** The ID token claim that lists a person's groups. */
  groupsClaim: string;
  /** Group → role; empty: roles are not taken from groups, and later sign-ins leave roles alone. */
  groupRoles: ReadonlyMap<string, OidcRole>;
};

const OIDC_TRIO = ["DRIFTWATCH_OIDC_ISSUER", "DRIFTWATCH_OIDC_CLIENT_ID", "DRIFTWATCH_OIDC_CLIENT_SECRET"] as const;
const OIDC_OPTIONS = ["DRIFTWATCH_OIDC_NAME", "DRIFTWATCH_OIDC_WORKSPACE", "DRIFTWATCH_OIDC_ROLE", "DRIFTWATCH_OIDC_GROUPS_CLAIM", "DRIFTWATCH_OIDC_GROUP_ROLES"] as const;

function oidcConfig(e: z.infer<typeof envSchema>): OidcConfig | undefined {
  const set = OIDC_TRIO.filter((k) => e[k] !== undefined);
  if (set.length === 0) {
    const stray = OIDC_OPTIONS.find((k) => e[k] !== undefined);
    if (stray) throw new ConfigError(stray, `has no effect without ${OIDC_TRIO.join(", ")}`);
    return undefined;
  }
  if (set.length < OIDC_TRIO.length) {
    const missing = OIDC_TRIO.find((k) => e[k] === undefined)!;
    throw new ConfigError(missing, `set ${OIDC_TRIO.join(", ")} together to turn single sign-on on`);
  }
  return {
    issuer: e.DRIFTWATCH_OIDC_ISSUER!,
    clientId: e.DRIFTWATCH_OIDC_CLIENT_ID!,
    clientSecret: e.DRIFTWATCH_OIDC_CLIENT_SECRET!,
    name: e.DRIFTWATCH_OIDC_NAME ?? new URL(e.DRIFTWATCH_OIDC_ISSUER!).hostname,
    workspace: e.DRIFTWATCH_OIDC_WORKSPACE,
    role: e.DRIFTWATCH_OIDC_ROLE ?? "viewer",
    groupsClaim: e.DRIFTWATCH_OIDC_GROUPS_CLAIM ?? "groups",
    groupRoles: e.DRIFTWATCH_OIDC_GROUP_ROLES ?? new Map(),
  };
}

export class ConfigError extends Error {
  constructor(readonly variable: string, detail: string) {
    super(`${variable}: ${detail}`);
    this.name = "ConfigError";
  }
}

/** Parse the environment; empty strings count as unset. Throws ConfigError naming the first bad variable. */
export function loadConfig(env: Record<string, string | undefined>, overrides: Partial<Config> = {}): Config {
  const cleaned: Record<string, string> = {};
  for (const key of Object.keys(envSchema.shape)) {
    const value = env[key];
    if (value !== undefined && value !== "") cleaned[key] = value;
  }
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const variable = String(issue.path[0] ?? "environment");
    const shown = cleaned[variable] !== undefined && !/TOKEN|SECRET|PASSWORD|DATABASE_URL|SMTP/.test(variable)
      ? ` (got ${JSON.stringify(cleaned[variable])})`
      : "";
    throw new ConfigError(variable, `${issue.message}${shown}`);
  }
  const e = parsed.data;
  if (Boolean(e.DRIFTWATCH_DOCKERHUB_USERNAME) !== Boolean(e.DRIFTWATCH_DOCKERHUB_TOKEN)) {
    const missing = e.DRIFTWATCH_DOCKERHUB_USERNAME ? "DRIFTWATCH_DOCKERHUB_TOKEN" : "DRIFTWATCH_DOCKERHUB_USERNAME";
    throw new ConfigError(missing, "set DRIFTWATCH_DOCKERHUB_USERNAME and DRIFTWATCH_DOCKERHUB_TOKEN together");
  }
  const registryCredentials: Config["registryCredentials"] = {};
  if (e.DRIFTWATCH_DOCKERHUB_USERNAME && e.DRIFTWATCH_DOCKERHUB_TOKEN) {
    registryCredentials["docker.io"] = { username: e.DRIFTWATCH_DOCKERHUB_USERNAME, password: e.DRIFTWATCH_DOCKERHUB_TOKEN };
  }
  const mirror = e.DRIFTWATCH_DOCKERHUB_MIRROR;
  if (mirror?.startsWith("http:") && !e.DRIFTWATCH_INSECURE_REGISTRIES.includes(new URL(mirror).host)) {
    throw new ConfigError("DRIFTWATCH_DOCKERHUB_MIRROR", `${mirror} is plain http: add ${new URL(mirror).host} to DRIFTWATCH_INSECURE_REGISTRIES, or use https`);
  }
  const port = overrides.port ?? e.PORT;
  return {
    databaseUrl: e.DATABASE_URL,
    dataDir: path.resolve(e.DRIFTWATCH_DATA_DIR),
    port,
    host: e.HOST,
    baseUrl: e.DRIFTWATCH_BASE_URL ?? `http://localhost:${port}`,
    authSecret: e.AUTH_SECRET,
    githubToken: e.DRIFTWATCH_GITHUB_TOKEN,
    githubApiUrl: e.DRIFTWATCH_GITHUB_API_URL,
    gitlabUrl: e.DRIFTWATCH_GITLAB_URL,
    gitlabToken: e.DRIFTWATCH_GITLAB_TOKEN,
    eolEnabled: e.DRIFTWATCH_EOL,
    eolApiUrl: e.DRIFTWATCH_EOL_API_URL,
    serverRegistries: e.DRIFTWATCH_SERVER_REGISTRIES,
    insecureRegistries: e.DRIFTWATCH_INSECURE_REGISTRIES,
    registryCredentials,
    dockerHubMirror: mirror,
    dockerHubHosts: [],
    smtpUrl: e.DRIFTWATCH_SMTP_URL,
    oidc: oidcConfig(e),
    logLevel: e.DRIFTWATCH_LOG_LEVEL,
    retentionDays: e.DRIFTWATCH_RETENTION_DAYS,
    logRetentionDays: e.DRIFTWATCH_LOG_RETENTION_DAYS,
    docker: { host: e.DOCKER_HOST, tlsVerify: Boolean(e.DOCKER_TLS_VERIFY), certPath: e.DOCKER_CERT_PATH },
    quietAfterMs: e.DRIFTWATCH_QUIET_AFTER,
    demo: e.DRIFTWATCH_DEMO,
    ...overrides,
  };
}

let cached: Config | undefined;

/** The process's configuration, for code running inside the web server (route handlers). */
export function getConfig(): Config {
  cached ??= loadConfig(process.env);
  return cached;
}
