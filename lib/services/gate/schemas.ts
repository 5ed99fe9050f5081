// The promotion gate as the API accepts and shows it.
import { z } from "zod";
import { GATE_MODES, GATE_REASON_CODES, GATE_UNKNOWN } from "@/lib/domain/gate";
import { parseDuration } from "@/lib/domain/duration";
import { parseImageRef } from "@/lib/domain/image-ref";
import { isVersionTag } from "@/lib/domain/versions";
import { nameSchema } from "../schemas";

const soakInput = z
  .string()
  .max(32)
  .refine((v) => /^0+[smhdw]?$/.test(v.trim()) || parseDuration(v) !== null, { message: "must be a duration such as 0s, 24h or 3d" })
  .refine((v) => (parseDuration(v) ?? 0) <= 366 * 86_400_000, { message: "must be at most 366d" });

export const gateSettingsSchema = z
  .object({
    mode: z.enum(GATE_MODES).meta({ description: "`off`: everything may run; `audit`: allowed, with the reasons (Kubernetes shows them as warnings); `enforce`: refused with the reasons" }),
    soak: z.string().meta({ description: "How long a version must have run in the previous environment, summed over its runs there (`0s`, `24h`, `3d`)" }),
    refuse_eol: z.boolean().meta({ description: "Refuse a version whose cycle's end of life has passed" }),
    unknown: z.enum(GATE_UNKNOWN).meta({ description: "What a service or version Driftwatch has never seen gets" }),
  })
  .meta({ id: "GateSettings" });

export const gateSettingsInput = z
  .object({ mode: z.enum(GATE_MODES).optional(), soak: soakInput.optional(), refuse_eol: z.boolean().optional(), unknown: z.enum(GATE_UNKNOWN).optional() })
  .strict()
  .meta({ id: "GateSettingsChange", description: "Fields given are merged into the environment's gate settings (admin)" });

export const askGateSchema = z
  .object({
    service: nameSchema,
    environment: nameSchema,
    version: z.string().trim().min(1).max(128).refine(isVersionTag, { message: "must be a version such as 2.4.0" }).optional(),
    image: z.string().trim().min(1).max(512).refine((v) => parseImageRef(v) !== null, { message: "must be an image reference such as ghcr.io/acme/api:2.4.0 or nginx@sha256:…" }).optional(),
  })
  .strict()
  .superRefine((v, ctx) => {
    if ((v.version === undefined) === (v.image === undefined)) ctx.addIssue({ code: "custom", path: ["version"], message: "give exactly one of version and image" });
  })
  .meta({ id: "GateQuestion", description: "May this version (or the version this image runs) run in this environment now?" });

export const gateReasonSchema = z.object({
  code: z.enum(GATE_REASON_CODES),
  detail: z.string().meta({ description: "One sentence; for soak_not_met, how long is left" }),
});

export const gateAnswerSchema = z
  .object({
    allowed: z.boolean(),
    mode: z.enum(GATE_MODES),
    version: z.string().nullable().meta({ description: "The exact version judged (an image's worked out as the agent's are); null when unknown" }),
    reasons: z.array(gateReasonSchema),
    service: z.string(),
    environment: z.string(),
  })
  .meta({ id: "GateAnswer" });
