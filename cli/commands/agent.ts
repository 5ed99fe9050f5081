// driftwatch agent: observe the local orchestrators and report to the server.
// Flags and environment become the agent's options; lib/agent does the work.
import os from "node:os";
import path from "node:path";
import type { Command } from "commander";
import type { CollectOptions } from "@/lib/adapters/runtimes/collect";
import { runAgent } from "@/lib/agent/run-agent";
import { inClusterFromEnv } from "@/lib/adapters/runtimes/kubernetes/connection";
import { httpUrl, wholeNumber } from "../options";
import { UsageError } from "../output";

type AgentFlags = {
  url?: string; key?: string; once?: boolean; environment?: string;
  dockerHost?: string; swarmHost?: string; kubeconfig?: string; kubeContext?: string; inCluster?: boolean; namespace?: string[];
  nomadAddr?: string; nomadToken?: string; nomadDocker?: string; dockerConfig?: string;
  composeGit?: string; composeBranch?: string; composePath?: string[]; composeTarget?: string;
  interval: number;
};

const collectList = (value: string, previous: string[] = []) => [...previous, value];

/** `ns=env` pairs → a namespace mapping. */
function namespaceMap(pairs: string[] | undefined): Record<string, string> | undefined {
  if (!pairs?.length) return undefined;
  const out: Record<string, string> = {};
  for (const pair of pairs) {
    const [ns, env] = pair.split("=");
    if (!ns || !env) throw new UsageError(`--namespace expects namespace=environment, got ${pair}`);
    out[ns] = env;
  }
  return out;
}

export function buildAgentOptions(flags: AgentFlags, env: NodeJS.ProcessEnv): CollectOptions {
  const environment = flags.environment ?? env.DRIFTWATCH_ENVIRONMENT;
  if (!environment) throw new UsageError("--environment is required (or DRIFTWATCH_ENVIRONMENT): the environment this agent reports for");
  const options: CollectOptions = { environment };
  const dockerHost = flags.dockerHost ?? (flags.swarmHost || flags.kubeconfig || flags.inCluster || flags.nomadAddr || flags.composeGit ? undefined : env.DOCKER_HOST ?? "unix:///var/run/docker.sock");
  if (dockerHost) options.docker = { url: dockerHost };
  if (flags.swarmHost) options.swarm = { url: flags.swarmHost };
  if (flags.kubeconfig) options.kubeconfig = flags.kubeconfig;
  if (flags.kubeContext) options.kubeContext = flags.kubeContext;
  if (flags.inCluster) {
    const inCluster = inClusterFromEnv(env);
    if (!inCluster) throw new UsageError("--in-cluster needs KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT (run the agent inside the cluster)");
    options.inCluster = inCluster;
  }
  const namespaces = namespaceMap(flags.namespace);
  if (namespaces) options.namespaces = namespaces;
  if (flags.nomadAddr) options.nomad = { addr: flags.nomadAddr, token: flags.nomadToken ?? env.NOMAD_TOKEN, dockerSocket: flags.nomadDocker };
  if (flags.dockerConfig) options.dockerConfig = flags.dockerConfig;
  return options;
}

export function registerAgentCommand(program: Command) {
  const agent = program.commands.find((c) => c.name() === "agent") ?? program.command("agent");
  agent
    .description("run an agent: observe orchestrators, look up private registries, report (`agent create` makes a key)")
    .option("--url <url>", "Driftwatch server (DRIFTWATCH_URL)", httpUrl("--url"))
    .option("--key <key>", "agent key (DRIFTWATCH_AGENT_KEY)")
    .option("--once", "report once and exit (0 when every report was accepted)")
    .option("--environment <name>", "environment to report for (DRIFTWATCH_ENVIRONMENT)")
    .option("--docker-host <url>", "Docker Engine: unix:///var/run/docker.sock or tcp://host:2375 (DOCKER_HOST)")
    .option("--swarm-host <url>", "a Swarm manager's Docker Engine")
    .option("--kubeconfig <file>", "Kubernetes by kubeconfig")
    .option("--kube-context <name>", "kubeconfig context (default: current)")
    .option("--in-cluster", "Kubernetes from inside the cluster (service account)")
    .option("--namespace <ns=env>", "map a Kubernetes namespace to an environment (repeatable)", collectList)
    .option("--nomad-addr <url>", "Nomad HTTP API, e.g. http://127.0.0.1:4646")
    .option("--nomad-token <token>", "Nomad ACL token (NOMAD_TOKEN)")
    .option("--nomad-docker <socket>", "the Nomad node's Docker socket, where digests are read")
    .option("--docker-config <file>", "a Docker config.json whose credentials serve private registry lookups")
    .option("--compose-git <url>", "also report the Compose files of a Git repository (private ones too)")
    .option("--compose-branch <branch>", "branch for --compose-git", "main")
    .option("--compose-path <path>", "Compose file in the repository (repeatable; later ones override)", collectList)
    .option("--compose-target <name>", "target name for --compose-git (default compose@<environment>)")
    .option("--interval <seconds>", "report at least this often (at least 5)", wholeNumber("--interval", { min: 5 }), 60)
    .action(async (flags: AgentFlags) => {
      const url = flags.url ?? process.env.DRIFTWATCH_URL;
      const key = flags.key ?? process.env.DRIFTWATCH_AGENT_KEY;
      if (!url) throw new UsageError("--url is required (or DRIFTWATCH_URL)");
      if (!key) throw new UsageError("--key is required (or DRIFTWATCH_AGENT_KEY); create one with driftwatch agent create");
      const options = buildAgentOptions(flags, process.env);
      const interval = flags.interval;
      const composePaths = flags.composePath?.length ? flags.composePath : ["docker-compose.yml"];
      const cacheDir = path.join(process.env.DRIFTWATCH_DATA_DIR ?? path.join(os.homedir(), ".driftwatch-agent"), "git");

      if (flags.composeGit) options.composeGit = { url: flags.composeGit, branch: flags.composeBranch ?? "main", paths: composePaths, cacheDir, name: flags.composeTarget };
      const controller = new AbortController();
      process.once("SIGINT", () => controller.abort());
      process.once("SIGTERM", () => controller.abort());
      const code = await runAgent({ ...options, url, key, once: flags.once, intervalMs: interval * 1000, signal: controller.signal });
      process.exit(code);
    });
}
