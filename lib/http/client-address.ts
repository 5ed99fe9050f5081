// The client's address, for sign-in rate limits. X-Forwarded-For is believed
// only when the connection comes from a reverse proxy on this host or a
// private network; a client connecting directly cannot choose its address.
import { classifyAddress } from "@/lib/net/ip";

const TRUSTED_PEERS = new Set(["loopback", "private"]);

/** The X-Forwarded-For value to pass on for a connection from `peer` (the socket's address). */
export function forwardedFor(peer: string | undefined, header: string | string[] | undefined): string | undefined {
  const peerAddress = (peer ?? "").replace(/^::ffff:/i, "");
  const category = classifyAddress(peerAddress)?.category;
  const given = Array.isArray(header) ? header.join(",") : header;
  if (category && TRUSTED_PEERS.has(category) && given) return given;
  return peerAddress || undefined;
}

/** The client address a request carries (set by lib/http/server.ts from the socket, see forwardedFor). */
export function clientAddress(headers: Pick<Headers, "get"> | undefined): string {
  const first = headers?.get("x-forwarded-for")?.split(",")[0]?.trim();
  return first ? first.slice(0, 64) : "local";
}
