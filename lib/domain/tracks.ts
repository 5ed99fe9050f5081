// The jumps a policy's track names, apart from the policy's schema so that
// readers of the names alone (the offline `tags newest`) do not load zod.
export const TRACKS = ["patch", "minor", "major"] as const;
export type Track = (typeof TRACKS)[number];
