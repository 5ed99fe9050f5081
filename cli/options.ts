// Option values checked as commander reads them: a bad one is a usage error
// naming the flag (exit 2), before any command work starts.
import { UsageError } from "./output";

const listOr = (values: readonly string[]) => (values.length < 2 ? values.join("") : `${values.slice(0, -1).join(", ")} or ${values.at(-1)}`);

/** `--role` → a parser accepting only `values`: "--role must be viewer or member (got admin)". */
export function oneOf<T extends string>(flag: string, values: readonly T[]) {
  return (value: string): T => {
    if ((values as readonly string[]).includes(value)) return value as T;
    throw new UsageError(`${flag} must be ${listOr(values)} (got ${value})`);
  };
}

export function wholeNumber(flag: string, opts: { min?: number; max?: number } = {}) {
  const min = opts.min ?? 0;
  return (value: string): number => {
    const n = /^\d+$/.test(value.trim()) ? Number(value) : NaN;
    if (!Number.isSafeInteger(n) || n < min || (opts.max !== undefined && n > opts.max)) {
      const range = opts.max !== undefined ? ` from ${min} to ${opts.max}` : min > 0 ? ` of at least ${min}` : "";
      throw new UsageError(`${flag} must be a whole number${range} (got ${value})`);
    }
    return n;
  };
}

export function bool(flag: string) {
  return (value: string): boolean => {
    if (value === "true") return true;
    if (value === "false") return false;
    throw new UsageError(`${flag} must be true or false (got ${value})`);
  };
}

export function httpUrl(flag: string) {
  return (value: string): string => {
    let url: URL | null = null;
    try {
      url = new URL(value);
    } catch {
      /* reported below */
    }
    if (!url || (url.protocol !== "http:" && url.protocol !== "https:")) throw new UsageError(`${flag} must be an http:// or https:// address (got ${value})`);
    return value;
  };
}
