// One-time tickets that sign a visitor in as the demo's owner without its
// password, so "Try the demo" never has to change a password someone was given.
// Issued only by the server's own action and kept in this process's memory:
// nothing outside the process can mint one.
import { randomBytes } from "node:crypto";

export const DEMO_TICKET_PROVIDER_ID = "demo-ticket";
const TICKET_LIFE_MS = 60_000;

type Ticket = { userId: string; email: string; expiresAt: number };
const holder = globalThis as typeof globalThis & { __driftwatchDemoTickets?: Map<string, Ticket> };
const tickets = (holder.__driftwatchDemoTickets ??= new Map());

export function issueDemoTicket(user: { userId: string; email: string }, now = Date.now()): string {
  for (const [key, t] of tickets) if (t.expiresAt <= now) tickets.delete(key);
  const ticket = randomBytes(32).toString("base64url");
  tickets.set(ticket, { ...user, expiresAt: now + TICKET_LIFE_MS });
  return ticket;
}

/** The ticket's user, once: a ticket that was used, has expired or was never issued gives null. */
export function redeemDemoTicket(ticket: unknown, now = Date.now()): { userId: string; email: string } | null {
  if (typeof ticket !== "string") return null;
  const found = tickets.get(ticket);
  tickets.delete(ticket);
  return found && found.expiresAt > now ? { userId: found.userId, email: found.email } : null;
}
