// An acknowledgement with the names of its service and environment, as the acks queries return it.
export type AckRow = {
  id: string;
  serviceId: string;
  environmentId: string | null;
  kind: "release" | "drift";
  untilVersion: string | null;
  skipVersion: string | null;
  expiresAt: Date | null;
  liftedAt: Date | null;
  createdBy: string | null;
  createdAt: Date;
  service: { name: string };
  environment: { name: string } | null;
};

export const ackRowInclude = { service: { select: { name: true } }, environment: { select: { name: true } } } as const;
