// Over the matrix and Updates: the registries Driftwatch cannot reach, so no
// one reads "up to date" where the answer is not known.
import type { FailingRegistry } from "@/lib/domain/upstream";

export function RegistryBanner({ registries }: { registries: readonly FailingRegistry[] }) {
  if (registries.length === 0) return null;
  return (
    <div className="alert registry-banner" role="status" data-testid="registry-banner">
      <strong>{registries.length === 1 ? "A registry cannot be reached" : `${registries.length} registries cannot be reached`}</strong>
      {": what they last told Driftwatch is shown with its age, and newer releases there are not known."}
      <ul>
        {registries.map((r) => (
          <li key={r.host}>
            <code>{r.host}</code>: {r.repositories} {r.repositories === 1 ? "repository" : "repositories"}
            {r.reason ? ` (${r.reason})` : ""}
          </li>
        ))}
      </ul>
    </div>
  );
}
