// The guard for outbound destinations taken from user settings (webhook and
// Slack URLs). A URL is refused unless every address its host resolves to is
// public; the caller then connects to the address that was checked (see
// pinned-request.ts), so a DNS answer that changes in between is never used.
import { lookup } from "node:dns/promises";
import { AppError } from "@/lib/domain/errors";
import { classifyAddress, formatIPv4, parseIPv4Loose, type AddressCategory, type ClassifiedAddress } from "./ip";

export type Resolve = (hostname: string) => Promise<string[]>;

export type DestinationOptions = {
  /** An administrator's explicit permission to reach private networks (also used by tests for loopback). */
  allowPrivate: boolean;
  /** Injected DNS; defaults to the system resolver (getaddrinfo, as the HTTP client would use). */
  resolve?: Resolve | undefined;
  /** JSON pointer named in the error (`/url` by default). */
  pointer?: string | undefined;
  /** Schemes accepted (without the colon); http and https by default. */
  schemes?: readonly string[] | undefined;
  /** Credentials in the address (an MQTT broker's login); refused by default. */
  allowCredentials?: boolean | undefined;
};

export type ParsedDestination = {
  url: URL;
  /** Host name without IPv6 brackets. */
  hostname: string;
  port: number;
  /** Set when the URL names an IP address rather than a host name. */
  literal: ClassifiedAddress | null;
};

export type CheckedDestination = ParsedDestination & {
  /** The checked address to connect to. */
  address: string;
  family: 4 | 6;
};

const DNS_TIMEOUT_MS = 5_000;
const DEFAULT_SCHEMES = ["http", "https"] as const;
const DEFAULT_PORTS: Record<string, number> = { "http:": 80, "https:": 443, "mqtt:": 1883, "mqtts:": 8883 };
const MAX_URL_LENGTH = 2_048;

// Never reachable, whatever the administrator allows: instance metadata holds
// cloud credentials, and the rest cannot be a web server.
const ALWAYS_REFUSED = new Set<AddressCategory>(["metadata", "unspecified", "multicast", "broadcast"]);

const CATEGORY_LABEL: Record<AddressCategory, string> = {
  public: "a public address",
  loopback: "a loopback address",
  private: "a private-network address",
  link_local: "a link-local address",
  cgnat: "a carrier-grade NAT address",
  unspecified: "the unspecified address",
  multicast: "a multicast address",
  broadcast: "the broadcast address",
  reserved: "a reserved address",
  documentation: "a documentation-only address",
  metadata: "a cloud metadata service",
};

export function isAllowedCategory(category: AddressCategory, allowPrivate: boolean): boolean {
  if (category === "public") return true;
  if (ALWAYS_REFUSED.has(category)) return false;
  return allowPrivate;
}

function refuse(pointer: string, detail: string): AppError {
  return new AppError("invalid_input", detail, { errors: [{ pointer, detail }] });
}

function refusalFor(address: ClassifiedAddress, subject: string, allowPrivate: boolean): string {
  const shown = address.embeddedIPv4 ? `${address.address}, which carries ${address.embeddedIPv4}` : address.address;
  const rule =
    ALWAYS_REFUSED.has(address.category) || allowPrivate
      ? "this is never allowed"
      : "only public addresses are allowed";
  return `${subject} ${CATEGORY_LABEL[address.category]} (${shown}); ${rule}.`;
}

function isLocalhostName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, "");
  return name === "localhost" || name.endsWith(".localhost");
}

/**
 * Checks what can be checked without DNS: scheme, credentials, and a host that
 * is an IP address in any spelling. Throws AppError("invalid_input").
 */
export function parseDestination(raw: string, opts: Omit<DestinationOptions, "resolve">): ParsedDestination {
  const pointer = opts.pointer ?? "/url";
  if (raw.length > MAX_URL_LENGTH) throw refuse(pointer, `The address is longer than ${MAX_URL_LENGTH} characters.`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refuse(pointer, "The address is not a valid URL.");
  }
  const schemes = opts.schemes ?? DEFAULT_SCHEMES;
  if (!schemes.includes(url.protocol.slice(0, -1))) {
    throw refuse(pointer, `Only ${schemes.join(" and ")} addresses are allowed.`);
  }
  if (!opts.allowCredentials && (url.username !== "" || url.password !== "")) {
    throw refuse(pointer, "The address must not contain a user name or password.");
  }
  const hostname = url.hostname.replace(/^\[|\]$/g, "");
  if (hostname === "") throw refuse(pointer, "The address has no host.");
  const port = url.port === "" ? (DEFAULT_PORTS[url.protocol] ?? 443) : Number(url.port);

  // The URL parser already turns `2130706433` and `0x7f.1` into dotted quads;
  // the loose parse is a second line for anything that slips through.
  const loose = parseIPv4Loose(hostname);
  const literal = classifyAddress(hostname) ?? (loose === null ? null : classifyAddress(formatIPv4(loose)));
  if (literal && !isAllowedCategory(literal.category, opts.allowPrivate)) {
    throw refuse(pointer, refusalFor(literal, "The address points to", opts.allowPrivate));
  }
  if (!literal && isLocalhostName(hostname) && !opts.allowPrivate) {
    throw refuse(pointer, `The host ${hostname} is a loopback name; only public addresses are allowed.`);
  }
  return { url, hostname, port, literal };
}

export const systemResolve: Resolve = async (hostname) => {
  const answers = await lookup(hostname, { all: true, verbatim: true });
  return answers.map((a) => a.address);
};

async function resolveWithTimeout(resolve: Resolve, hostname: string): Promise<string[]> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("DNS lookup timed out")), DNS_TIMEOUT_MS);
  });
  try {
    return await Promise.race([resolve(hostname), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Checks `raw` and resolves its host; every address must pass. Returns the
 * address to connect to. Refusals throw AppError("invalid_input"); a host that
 * does not resolve throws AppError("unavailable"), which may be retried.
 */
export async function checkDestination(raw: string, opts: DestinationOptions): Promise<CheckedDestination> {
  const parsed = parseDestination(raw, opts);
  if (parsed.literal) return { ...parsed, address: parsed.literal.address, family: parsed.literal.family };

  const pointer = opts.pointer ?? "/url";
  let answers: string[];
  try {
    answers = await resolveWithTimeout(opts.resolve ?? systemResolve, parsed.hostname);
  } catch (cause) {
    throw new AppError("unavailable", `The host ${parsed.hostname} could not be resolved.`, { cause });
  }
  if (answers.length === 0) throw new AppError("unavailable", `The host ${parsed.hostname} could not be resolved.`);

  const checked: ClassifiedAddress[] = [];
  for (const answer of answers) {
    const address = classifyAddress(answer);
    if (!address) throw refuse(pointer, `The host ${parsed.hostname} resolved to something that is not an IP address.`);
    if (!isAllowedCategory(address.category, opts.allowPrivate)) {
      throw refuse(pointer, refusalFor(address, `The host ${parsed.hostname} resolves to`, opts.allowPrivate));
    }
    checked.push(address);
  }
  const first = checked[0];
  if (!first) throw new AppError("unavailable", `The host ${parsed.hostname} could not be resolved.`);
  return { ...parsed, address: first.address, family: first.family };
}

/** Refuses header values that could end the header line (CR, LF) or the string (NUL). */
export function checkHeaderValue(value: string, pointer = "/headers"): string {
  if (/[\r\n\0]/.test(value)) throw refuse(pointer, "A header value must not contain line breaks or NUL characters.");
  return value;
}

/** RFC 9110 token characters only. */
export function checkHeaderName(name: string, pointer = "/headers"): string {
  if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) throw refuse(pointer, `"${name.slice(0, 64)}" is not a valid header name.`);
  return name;
}
