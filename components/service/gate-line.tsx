// "production accepts 2.4.0 (3d in staging); 3.0.0 waits: 21h of soak left in staging"
import { formatAge } from "@/lib/domain/words";
import type { GatePreview } from "@/lib/services/gate/preview";

export function GateLines({ previews }: { previews: readonly GatePreview[] }) {
  if (previews.length === 0) return null;
  return (
    <ul className="gate-lines" aria-label="Promotion gate">
      {previews.map((p) => {
        const parts = [
          ...p.accepts.map((a) => `accepts ${a.version} (${formatAge(a.soaked_seconds * 1000)} in ${p.previous})`),
          ...p.waits.map((w) => `${w.version} waits: ${w.reasons.map((r) => r.detail.replace(/\.$/, "")).join("; ")}`),
        ];
        return (
          <li key={p.environment} data-testid="gate-line" data-environment={p.environment}>
            <strong>{p.environment}</strong> {parts.join("; ")}
            {p.mode === "audit" ? <span className="muted"> (gate in audit mode: warns only)</span> : null}
          </li>
        );
      })}
    </ul>
  );
}
