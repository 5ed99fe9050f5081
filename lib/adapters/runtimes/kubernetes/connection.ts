// Where the Kubernetes API is and how to authenticate: a kubeconfig (token, token file, client
// certificate, basic auth; CA or insecure-skip-tls-verify) or the pod's service account. Exec and
// auth-provider plugins would run programs, so they are refused.
import { readFileSync } from "node:fs";
import path from "node:path";
import { parse as parseYaml } from "yaml";
import { z } from "zod";
import { AppError } from "@/lib/domain/errors";
import type { HttpEndpoint, TlsOptions } from "../http-json";

export const SERVICE_ACCOUNT_DIR = "/var/run/secrets/kubernetes.io/serviceaccount";

export type InClusterOptions = {
  /** `KUBERNETES_SERVICE_HOST` */
  host: string;
  /** `KUBERNETES_SERVICE_PORT` */
  port: string | number;
  serviceAccountDir?: string;
};

export type KubeConnection = {
  endpoint: HttpEndpoint;
  /** Context name (kubeconfig), or undefined in-cluster. */
  context?: string;
  cluster?: string;
};

/** In-cluster settings from an environment map (the entry point passes process.env). */
export function inClusterFromEnv(env: Record<string, string | undefined>): InClusterOptions | null {
  const host = env.KUBERNETES_SERVICE_HOST;
  const port = env.KUBERNETES_SERVICE_PORT;
  return host && port ? { host, port } : null;
}

const read = (file: string, what: string): Buffer => {
  try {
    return readFileSync(file);
  } catch (err) {
    throw new AppError("invalid_input", `Cannot read ${what} at ${file}: ${(err as Error).message}`, { cause: err });
  }
};

/**
 * The service-account token is re-read on each call: projected tokens rotate
 * (about hourly), so a connection should be made per collection.
 */
export function inClusterConnection(opts: InClusterOptions, timeoutMs = 20_000): KubeConnection {
  const dir = opts.serviceAccountDir ?? SERVICE_ACCOUNT_DIR;
  const token = read(path.join(dir, "token"), "the service-account token").toString("utf8").trim();
  const host = opts.host.includes(":") ? `[${opts.host}]` : opts.host;
  return {
    endpoint: {
      label: "Kubernetes API",
      baseUrl: `https://${host}:${opts.port}`,
      headers: { authorization: `Bearer ${token}` },
      tls: { ca: read(path.join(dir, "ca.crt"), "the cluster CA") },
      timeoutMs,
    },
  };
}

const kubeconfigSchema = z.object({
  "current-context": z.string().optional(),
  clusters: z
    .array(
      z.object({
        name: z.string(),
        cluster: z.object({
          server: z.string(),
          "certificate-authority": z.string().optional(),
          "certificate-authority-data": z.string().optional(),
          "insecure-skip-tls-verify": z.boolean().optional(),
          "tls-server-name": z.string().optional(),
        }),
      }),
    )
    .nullish()
    .transform((v) => v ?? []),
  users: z
    .array(
      z.object({
        name: z.string(),
        user: z
          .object({
            token: z.string().optional(),
            tokenFile: z.string().optional(),
            "client-certificate": z.string().optional(),
            "client-certificate-data": z.string().optional(),
            "client-key": z.string().optional(),
            "client-key-data": z.string().optional(),
            username: z.string().optional(),
            password: z.string().optional(),
            exec: z.unknown().optional(),
            "auth-provider": z.unknown().optional(),
          })
          .nullish()
          .transform((v) => v ?? {}),
      }),
    )
    .nullish()
    .transform((v) => v ?? []),
  contexts: z
    .array(z.object({ name: z.string(), context: z.object({ cluster: z.string(), user: z.string().optional(), namespace: z.string().optional() }) }))
    .nullish()
    .transform((v) => v ?? []),
});

type Kubeconfig = z.infer<typeof kubeconfigSchema>;

function pem(data: string | undefined, file: string | undefined, base: string, what: string): Buffer | undefined {
  if (data) return Buffer.from(data, "base64");
  if (file) return read(path.resolve(base, file), what);
  return undefined;
}

/** Parse kubeconfig text; `base` resolves relative file paths (the file's folder). */
export function connectionFromKubeconfig(text: string, opts: { base: string; context?: string; timeoutMs?: number }): KubeConnection {
  let raw: unknown;
  try {
    raw = parseYaml(text);
  } catch (err) {
    throw new AppError("invalid_input", `The kubeconfig is not valid YAML: ${(err as Error).message}`, { cause: err });
  }
  const parsed = kubeconfigSchema.safeParse(raw);
  if (!parsed.success) throw new AppError("invalid_input", `The kubeconfig is not valid: ${parsed.error.issues[0]?.path.join(".")} ${parsed.error.issues[0]?.message}`);
  const cfg: Kubeconfig = parsed.data;
  const contextName = opts.context ?? cfg["current-context"];
  if (!contextName) throw new AppError("invalid_input", "The kubeconfig names no current-context; pass a context.");
  const context = cfg.contexts.find((c) => c.name === contextName)?.context;
  if (!context) throw new AppError("invalid_input", `The kubeconfig has no context "${contextName}".`);
  const cluster = cfg.clusters.find((c) => c.name === context.cluster)?.cluster;
  if (!cluster) throw new AppError("invalid_input", `The kubeconfig has no cluster "${context.cluster}".`);
  const user = context.user ? cfg.users.find((u) => u.name === context.user)?.user : {};
  if (!user) throw new AppError("invalid_input", `The kubeconfig has no user "${context.user}".`);
  if (user.exec || user["auth-provider"]) {
    throw new AppError("invalid_input", `The kubeconfig user "${context.user}" uses an exec or auth-provider plugin, which the agent does not run; use a token or a client certificate.`);
  }
  const headers: Record<string, string> = {};
  const token = user.token ?? (user.tokenFile ? read(path.resolve(opts.base, user.tokenFile), "the token file").toString("utf8").trim() : undefined);
  if (token) headers.authorization = `Bearer ${token}`;
  else if (user.username && user.password) headers.authorization = `Basic ${Buffer.from(`${user.username}:${user.password}`).toString("base64")}`;
  const tls: TlsOptions = {
    ca: pem(cluster["certificate-authority-data"], cluster["certificate-authority"], opts.base, "the cluster CA"),
    cert: pem(user["client-certificate-data"], user["client-certificate"], opts.base, "the client certificate"),
    key: pem(user["client-key-data"], user["client-key"], opts.base, "the client key"),
    rejectUnauthorized: !cluster["insecure-skip-tls-verify"],
    servername: cluster["tls-server-name"],
  };
  return {
    endpoint: { label: "Kubernetes API", baseUrl: cluster.server, headers, tls, timeoutMs: opts.timeoutMs ?? 20_000 },
    context: contextName,
    cluster: context.cluster,
  };
}

export function connectionFromKubeconfigFile(file: string, opts: { context?: string; timeoutMs?: number } = {}): KubeConnection {
  return connectionFromKubeconfig(read(file, "the kubeconfig").toString("utf8"), { ...opts, base: path.dirname(path.resolve(file)) });
}
