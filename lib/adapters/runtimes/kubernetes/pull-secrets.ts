// Registry credentials from the pods' own `imagePullSecrets`, read only when a
// registry lookup asks for one. Secrets of pods that run the repository asked
// about are tried first.
import { AppError } from "@/lib/domain/errors";
import { hostOfRepository, parseDockerConfig, type CredentialsProvider, type RegistryCredential } from "../credentials";
import { requestJson, type HttpEndpoint } from "../http-json";
import { repositoryOf } from "../image-ref";
import { secretSchema, type Pod } from "./schema";

type SecretRef = { namespace: string; name: string };

const refKey = (r: SecretRef) => `${r.namespace}/${r.name}`;

/** Registry host → credential from a Secret of type `kubernetes.io/dockerconfigjson` or `kubernetes.io/dockercfg`. */
export function credentialsFromSecret(secret: { type?: string; data: Record<string, string> }): Map<string, RegistryCredential> {
  const decode = (v: string) => JSON.parse(Buffer.from(v, "base64").toString("utf8")) as unknown;
  try {
    const json = secret.data[".dockerconfigjson"];
    if (json) return parseDockerConfig(decode(json));
    const legacy = secret.data[".dockercfg"];
    if (legacy) return parseDockerConfig(decode(legacy), { legacy: true });
  } catch {
    // a malformed secret holds no usable credential
  }
  return new Map();
}

export function pullSecretProvider(endpoint: HttpEndpoint, pods: readonly Pod[]): CredentialsProvider {
  const byRepository = new Map<string, SecretRef[]>();
  const all = new Map<string, SecretRef>();
  for (const pod of pods) {
    const namespace = pod.metadata.namespace ?? "default";
    const refs = pod.spec.imagePullSecrets.map((s) => ({ namespace, name: s.name }));
    for (const r of refs) all.set(refKey(r), r);
    for (const c of [...pod.spec.containers, ...pod.spec.initContainers]) {
      const repo = c.image ? repositoryOf(c.image) : null;
      if (repo) byRepository.set(repo, [...(byRepository.get(repo) ?? []), ...refs]);
    }
  }
  const cache = new Map<string, Promise<Map<string, RegistryCredential>>>();
  const load = (ref: SecretRef) => {
    let hit = cache.get(refKey(ref));
    if (!hit) {
      hit = requestJson(endpoint, `/api/v1/namespaces/${encodeURIComponent(ref.namespace)}/secrets/${encodeURIComponent(ref.name)}`, secretSchema)
        .then(credentialsFromSecret)
        .catch((err: unknown) => {
          // A secret we may not read, or that is gone, gives no credential; a cluster outage does not pass silently.
          if (err instanceof AppError && ["forbidden", "not_found", "unauthenticated"].includes(err.code)) return new Map<string, RegistryCredential>();
          cache.delete(refKey(ref));
          throw err;
        });
      cache.set(refKey(ref), hit);
    }
    return hit;
  };
  return {
    forRepository: async (repository) => {
      const host = hostOfRepository(repository);
      const preferred = byRepository.get(repository) ?? [];
      const order = new Map([...preferred, ...all.values()].map((r) => [refKey(r), r]));
      for (const ref of order.values()) {
        const cred = (await load(ref)).get(host);
        if (cred) return cred;
      }
      return null;
    },
  };
}
