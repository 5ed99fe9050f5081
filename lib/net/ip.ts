// IP address parsing and classification for the outbound-destination guard.
// Pure: no sockets, no DNS. IPv6 forms that carry an IPv4 address (mapped,
// NAT64, 6to4, compatible) are judged by the IPv4 address they carry.

export type AddressCategory =
  | "public"
  | "loopback"
  | "private"
  | "link_local"
  | "cgnat"
  | "unspecified"
  | "multicast"
  | "broadcast"
  | "reserved"
  | "documentation"
  | "metadata";

export type ClassifiedAddress = {
  family: 4 | 6;
  /** Canonical text form (dotted quad, or IPv6 with brackets removed as given). */
  address: string;
  category: AddressCategory;
  /** The IPv4 address an IPv6 form carries, when it carries one. */
  embeddedIPv4?: string;
};

type V4Range = readonly [base: string, bits: number, category: AddressCategory];

// Most specific first: the first match wins.
const IPV4_RANGES: readonly V4Range[] = [
  ["169.254.169.254", 32, "metadata"], // AWS, GCP, Azure, OCI instance metadata
  ["100.100.100.200", 32, "metadata"], // Alibaba Cloud instance metadata
  ["255.255.255.255", 32, "broadcast"],
  ["0.0.0.0", 8, "unspecified"],
  ["10.0.0.0", 8, "private"],
  ["100.64.0.0", 10, "cgnat"],
  ["127.0.0.0", 8, "loopback"],
  ["169.254.0.0", 16, "link_local"],
  ["172.16.0.0", 12, "private"],
  ["192.0.0.0", 24, "reserved"],
  ["192.0.2.0", 24, "documentation"],
  ["192.88.99.0", 24, "reserved"],
  ["192.168.0.0", 16, "private"],
  ["198.18.0.0", 15, "reserved"],
  ["198.51.100.0", 24, "documentation"],
  ["203.0.113.0", 24, "documentation"],
  ["224.0.0.0", 4, "multicast"],
  ["240.0.0.0", 4, "reserved"],
];

type V6Range = readonly [base: string, bits: number, category: AddressCategory];

const IPV6_RANGES: readonly V6Range[] = [
  ["fd00:ec2::254", 128, "metadata"], // AWS instance metadata over IPv6
  ["64:ff9b:1::", 48, "private"], // local-use NAT64
  ["100::", 64, "reserved"], // discard-only
  ["2001:db8::", 32, "documentation"],
  ["2001::", 23, "reserved"], // IETF protocol assignments, Teredo
  ["fc00::", 7, "private"], // unique local
  ["fe80::", 10, "link_local"],
  ["fec0::", 10, "private"], // deprecated site-local
  ["ff00::", 8, "multicast"],
];

/** Strict dotted quad (`10.0.0.1`); leading zeros are refused as ambiguous. */
export function parseIPv4(text: string): number | null {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (!m) return null;
  let value = 0;
  for (const part of m.slice(1)) {
    if (part.length > 1 && part.startsWith("0")) return null;
    const n = Number(part);
    if (n > 255) return null;
    value = value * 256 + n;
  }
  return value;
}

/**
 * The forms `inet_aton` and the WHATWG URL parser accept: one to four parts,
 * each decimal, octal (`0177`) or hex (`0x7f`), the last filling the
 * remaining bytes (`2130706433`, `0x7f.1`, `127.1`).
 */
export function parseIPv4Loose(text: string): number | null {
  const parts = text.split(".");
  if (parts.length > 1 && parts[parts.length - 1] === "") parts.pop();
  if (parts.length === 0 || parts.length > 4) return null;
  const values: number[] = [];
  for (const part of parts) {
    let n: number;
    if (/^0x[0-9a-f]*$/i.test(part)) n = part.length === 2 ? 0 : parseInt(part.slice(2), 16);
    else if (/^0[0-7]+$/.test(part)) n = parseInt(part.slice(1), 8);
    else if (/^(0|[1-9]\d*)$/.test(part)) n = Number(part);
    else return null;
    if (!Number.isSafeInteger(n)) return null;
    values.push(n);
  }
  const last = values.pop() ?? 0;
  if (values.some((v) => v > 255)) return null;
  if (last >= 256 ** (4 - values.length)) return null;
  let value = 0;
  for (const v of values) value = value * 256 + v;
  return value * 256 ** (4 - values.length) + last;
}

export function formatIPv4(value: number): string {
  return [24, 16, 8, 0].map((shift) => Math.floor(value / 2 ** shift) % 256).join(".");
}

/** Eight 16-bit groups, or null. Accepts `::`, an IPv4 tail and surrounding brackets; refuses zone ids. */
export function parseIPv6(text: string): number[] | null {
  let s = text;
  if (s.startsWith("[") && s.endsWith("]")) s = s.slice(1, -1);
  if (s.length === 0 || s.length > 45 || s.includes("%")) return null;

  const tail: number[] = [];
  const lastColon = s.lastIndexOf(":");
  if (lastColon < 0) return null;
  if (s.slice(lastColon + 1).includes(".")) {
    const v4 = parseIPv4(s.slice(lastColon + 1));
    if (v4 === null) return null;
    tail.push(Math.floor(v4 / 65536), v4 % 65536);
    const prefix = s.slice(0, lastColon + 1);
    s = prefix.endsWith("::") ? prefix : s.slice(0, lastColon);
    if (s === "") return null;
  }

  const halves = s.split("::");
  if (halves.length > 2) return null;
  const parseGroups = (part: string): number[] | null => {
    if (part === "") return [];
    const groups = part.split(":");
    const out: number[] = [];
    for (const g of groups) {
      if (!/^[0-9a-f]{1,4}$/i.test(g)) return null;
      out.push(parseInt(g, 16));
    }
    return out;
  };
  const head = parseGroups(halves[0] ?? "");
  const rest = halves.length === 2 ? parseGroups(halves[1] ?? "") : [];
  if (head === null || rest === null) return null;
  const given = head.length + rest.length + tail.length;
  if (halves.length === 2) {
    if (given > 7) return null;
    return [...head, ...new Array<number>(8 - given).fill(0), ...rest, ...tail];
  }
  return given === 8 ? [...head, ...tail] : null;
}

function toBigInt(groups: readonly number[]): bigint {
  let v = 0n;
  for (const g of groups) v = (v << 16n) | BigInt(g);
  return v;
}

function v6(text: string): bigint {
  const groups = parseIPv6(text);
  if (!groups) throw new Error(`invalid IPv6 range ${text}`);
  return toBigInt(groups);
}

function inV6Range(value: bigint, base: bigint, bits: number): boolean {
  const shift = BigInt(128 - bits);
  return value >> shift === base >> shift;
}

const COMPILED_V4 = IPV4_RANGES.map(([base, bits, category]) => {
  const b = parseIPv4(base);
  if (b === null) throw new Error(`invalid IPv4 range ${base}`);
  return { base: b, size: 2 ** (32 - bits), category };
});
const COMPILED_V6 = IPV6_RANGES.map(([base, bits, category]) => ({ base: v6(base), bits, category }));
const MAPPED = v6("::ffff:0:0");
const TRANSLATED = v6("::ffff:0:0:0");
const NAT64 = v6("64:ff9b::");
const SIX_TO_FOUR = v6("2002::");
const GLOBAL_UNICAST = v6("2000::");

function classifyIPv4Value(value: number): AddressCategory {
  for (const { base, size, category } of COMPILED_V4) {
    if (Math.floor(value / size) === Math.floor(base / size)) return category;
  }
  return "public";
}

function classifyIPv6Groups(groups: number[], address: string): ClassifiedAddress {
  const value = toBigInt(groups);
  const low32 = Number(value & 0xffffffffn);
  const embedded = (v4: number, publicAs?: AddressCategory): ClassifiedAddress => {
    const category = classifyIPv4Value(v4);
    return {
      family: 6,
      address,
      category: category === "public" && publicAs ? publicAs : category,
      embeddedIPv4: formatIPv4(v4),
    };
  };

  if (value === 0n) return { family: 6, address, category: "unspecified" };
  if (value === 1n) return { family: 6, address, category: "loopback" };
  if (inV6Range(value, MAPPED, 96)) return embedded(low32);
  if (inV6Range(value, TRANSLATED, 96)) return embedded(low32, "reserved");
  if (inV6Range(value, NAT64, 96)) return embedded(low32);
  if (inV6Range(value, 0n, 96)) return embedded(low32, "reserved"); // IPv4-compatible (deprecated)
  if (inV6Range(value, SIX_TO_FOUR, 16)) return embedded(Number((value >> 80n) & 0xffffffffn));
  for (const { base, bits, category } of COMPILED_V6) {
    if (inV6Range(value, base, bits)) return { family: 6, address, category };
  }
  // Only 2000::/3 is allocated as global unicast.
  if (!inV6Range(value, GLOBAL_UNICAST, 3)) return { family: 6, address, category: "reserved" };
  return { family: 6, address, category: "public" };
}

/** Classifies a literal IP address (strict forms only), or returns null for anything else. */
export function classifyAddress(text: string): ClassifiedAddress | null {
  const v4 = parseIPv4(text);
  if (v4 !== null) return { family: 4, address: formatIPv4(v4), category: classifyIPv4Value(v4) };
  const v6 = parseIPv6(text);
  if (v6 !== null) return classifyIPv6Groups(v6, text.replace(/^\[|\]$/g, "").toLowerCase());
  return null;
}
