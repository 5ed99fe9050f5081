// The step before an environment in the pipeline: every environment at the
// nearest lower position. Environments that share a position run side by side
// (prod-eu and prod-us), so neither is the other's step before.

export function stepBefore<T extends { name: string; position: number }>(envs: readonly T[], name: string): { env: T; previous: T[] } | null {
  const env = envs.find((e) => e.name === name);
  if (!env) return null;
  let top: number | null = null;
  for (const e of envs) if (e.position < env.position && (top === null || e.position > top)) top = e.position;
  return { env, previous: top === null ? [] : envs.filter((e) => e.position === top) };
}
