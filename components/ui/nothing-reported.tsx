// What a page with nothing to list says while no agent has reported yet:
// nothing is known, and how to connect an agent (as the empty matrix does),
// never that everything is up to date.
import Link from "next/link";

export function NothingReported({ what, workspace, baseUrl }: { what: string; workspace: string; baseUrl: string }) {
  return (
    <div className="card empty" data-testid="nothing-reported">
      <h2>Nothing reported yet</h2>
      <p>{what} No agent has reported what runs in this workspace, so Driftwatch knows of no service yet: nothing here means nothing is known, not that everything is up to date.</p>
      <p>Create an agent key and run an agent where your services run, here on the local Docker Engine:</p>
      <pre className="code" tabIndex={0}>{`KEY=$(npx driftwatch agent create --workspace ${workspace} --name edge-1)\nnpx driftwatch agent --url ${baseUrl} --key "$KEY" --environment production`}</pre>
      <p className="muted">Or declare what should run with a <Link href="/settings/compose">Compose-in-Git target</Link>. <Link href="/settings/agents">Settings › Agents</Link> lists the agents that report.</p>
    </div>
  );
}
