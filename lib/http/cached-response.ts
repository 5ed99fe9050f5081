// JSON answers of cached results: the body is serialised and encoded once per
// result and shared by every response that sends it.
const serialized = new WeakMap<object, Uint8Array>();
const bodies = new WeakMap<Response, Uint8Array>();

/** A JSON response whose body is serialised and UTF-8 encoded once per cached result, not once per request. */
export function jsonResponse(value: object): Response {
  let body = serialized.get(value);
  if (body === undefined) {
    body = new TextEncoder().encode(JSON.stringify(value));
    serialized.set(value, body);
  }
  // A stream of the shared bytes: a Uint8Array body would be copied into every Response (megabytes for a whole-fleet matrix).
  const shared = body;
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(shared);
      controller.close();
    },
  });
  const response = new Response(stream, {
    status: 200,
    headers: { "content-type": "application/json", "cache-control": "no-store", "content-length": String(body.byteLength) },
  });
  bodies.set(response, body);
  return response;
}

/**
 * The shared bytes of a jsonResponse() answer: the server sends (and
 * compresses, once) them without reading the response's stream.
 */
export function cachedBodyOf(response: Response): Uint8Array | undefined {
  return bodies.get(response);
}
