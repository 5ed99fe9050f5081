// Watching the server's Docker host, as the settings and setup forms send it.
import { z } from "zod";
import { nameSchema } from "../schemas";

export const watchDockerHostSchema = z.object({ environment: z.string().trim().pipe(nameSchema) });
export const stopWatchingDockerHostSchema = z.object({ id: z.uuid() });
