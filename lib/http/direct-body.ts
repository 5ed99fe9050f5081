// A request body handed from the production server's direct API path
// (lib/server/api-dispatch.ts) to the route wrapper (lib/http/route.ts)
// without a web stream: building a ReadableStream for each request and reading
// it chunk by chunk costs more CPU than parsing the JSON inside. The body is still read only when the
// handler asks for it, after authentication, and only up to a limit.

/** The body's bytes, or "too_large" (reading stopped at the limit; the rest is discarded with the request). */
export type DirectBody = (limitBytes: number) => Promise<Buffer | "too_large">;

// On globalThis: the dispatcher and Next's bundle of the route wrapper may be different module instances.
const bodies: WeakMap<Request, DirectBody> = ((globalThis as unknown as { __driftwatchDirectBodies?: WeakMap<Request, DirectBody> }).__driftwatchDirectBodies ??=
  new WeakMap());

export function attachDirectBody(req: Request, body: DirectBody): void {
  bodies.set(req, body);
}

/** The reader attached to this request, once: a body is read at most once. */
export function takeDirectBody(req: Request): DirectBody | undefined {
  const body = bodies.get(req);
  if (body) bodies.delete(req);
  return body;
}
