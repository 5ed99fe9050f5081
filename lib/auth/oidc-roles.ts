// Which role single sign-on gives a person: the highest role any of their
// groups maps to, or the configured default when none is mapped.

export type SsoRole = "admin" | "member" | "viewer";
const RANK: Record<SsoRole, number> = { viewer: 0, member: 1, admin: 2 };

/** The groups a claim lists: an array of strings, or one string naming one group; anything else lists none. */
export function groupsInClaim(value: unknown): string[] {
  if (typeof value === "string") return value ? [value] : [];
  if (Array.isArray(value)) return value.filter((g): g is string => typeof g === "string" && g !== "");
  return [];
}

export function roleFromGroups({ groups, mapping, fallback }: { groups: readonly string[]; mapping: ReadonlyMap<string, SsoRole>; fallback: SsoRole }): SsoRole {
  let best: SsoRole | undefined;
  for (const group of groups) {
    const role = mapping.get(group);
    if (role && (!best || RANK[role] > RANK[best])) best = role;
  }
  return best ?? fallback;
}
