// Loads an API route module (app/api/**/route.ts) by its file. The compiled
// command line replaces this module with a table of the route files
// (scripts/build-cli.mjs), so they are compiled with it.
import { pathToFileURL } from "node:url";

export function importRouteModule(file: string): Promise<unknown> {
  return import(pathToFileURL(file).href);
}
