export { createEolClient, toEolCycle } from "./client";
export type { EolClient, EolClientOptions, EolFetch, EolProduct } from "./client";
