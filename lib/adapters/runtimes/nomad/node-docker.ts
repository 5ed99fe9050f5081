// The node's Docker daemon, asked which image each Nomad task's container runs.
import { inspectImages } from "../docker/collect-docker";
import { createDockerClient, dockerEndpoint } from "../docker/engine-client";
import { LABELS, nodeContainerKey, taskOfContainer, type NodeContainer } from "./transform";

/** `alloc id/task` → image facts, for the containers Nomad started on this node. */
export async function readNodeContainers(dockerSocket: string): Promise<Map<string, NodeContainer>> {
  const opts = /^[a-z]+:\/\//.test(dockerSocket) ? { url: dockerSocket } : { socketPath: dockerSocket };
  const client = createDockerClient(dockerEndpoint(opts, "Docker Engine (Nomad node)"));
  const list = await client.listContainers({ label: [LABELS.allocId] });
  const images = await inspectImages(client, list.map((c) => c.ImageID));
  const out = new Map<string, NodeContainer>();
  for (const c of list) {
    const owner = taskOfContainer(c.Labels, c.Names);
    if (!owner) continue;
    const image = images.get(c.ImageID);
    out.set(nodeContainerKey(owner.allocId, owner.task), {
      image: c.Image,
      repoDigests: image?.RepoDigests ?? [],
      os: image?.Os,
      arch: image?.Architecture,
      variant: image?.Variant,
    });
  }
  return out;
}
