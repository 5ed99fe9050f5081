// An agent key as the settings page and the CLI create one.
import { z } from "zod";

export const createAgentKeySchema = z.object({ name: z.string().trim().min(1).max(100) });
