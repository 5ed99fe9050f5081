// Compose-file interpolation and `.env` parsing as Docker Compose does them: `$VAR`, `${VAR}`,
// `${VAR:-default}` (unset or empty), `${VAR-default}` (unset), `:?`/`?` errors, `:+`/`+`
// alternatives, nesting inside the argument, and `$$` for a literal `$`.

export type Variables = Readonly<Record<string, string | undefined>>;

export type InterpolationResult = { value: string; errors: string[]; warnings: string[] };

const NAME_START = /[A-Za-z_]/;
const NAME_CHAR = /[A-Za-z0-9_]/;

/** Index just past the `}` matching the `${` whose body starts at `start`, or -1. */
function closingBrace(text: string, start: number): number {
  let depth = 1;
  for (let i = start; i < text.length; i++) {
    if (text[i] === "$" && text[i + 1] === "{") {
      depth++;
      i++;
    } else if (text[i] === "$" && text[i + 1] === "$") {
      i++;
    } else if (text[i] === "}") {
      depth--;
      if (depth === 0) return i;
    }
  }
  return -1;
}

const OPERATORS = [":-", ":?", ":+", "-", "?", "+"] as const;

export function interpolate(text: string, vars: Variables): InterpolationResult {
  const errors: string[] = [];
  const warnings: string[] = [];
  const lookup = (name: string) => (Object.prototype.hasOwnProperty.call(vars, name) ? vars[name] : undefined);
  const unset = (name: string) => {
    warnings.push(`The "${name}" variable is not set. Defaulting to a blank string.`);
    return "";
  };
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch !== "$") {
      out += ch;
      continue;
    }
    const next = text[i + 1];
    if (next === "$") {
      out += "$";
      i++;
      continue;
    }
    if (next !== undefined && NAME_START.test(next)) {
      let j = i + 1;
      while (j < text.length && NAME_CHAR.test(text[j] ?? "")) j++;
      const name = text.slice(i + 1, j);
      out += lookup(name) ?? unset(name);
      i = j - 1;
      continue;
    }
    if (next !== "{") {
      errors.push(`Invalid interpolation format in "${text}": a "$" must start a variable, or be written "$$".`);
      return { value: text, errors, warnings };
    }
    const end = closingBrace(text, i + 2);
    if (end < 0) {
      errors.push(`Invalid interpolation format in "${text}": missing "}".`);
      return { value: text, errors, warnings };
    }
    const body = text.slice(i + 2, end);
    let k = 0;
    while (k < body.length && (k === 0 ? NAME_START : NAME_CHAR).test(body[k] ?? "")) k++;
    const name = body.slice(0, k);
    const rest = body.slice(k);
    const op = OPERATORS.find((o) => rest.startsWith(o));
    if (!name || (rest && !op)) {
      errors.push(`Invalid interpolation format in "${text}": "\${${body}}".`);
      return { value: text, errors, warnings };
    }
    const value = lookup(name);
    const arg = () => {
      const inner = interpolate(rest.slice(op?.length ?? 0), vars);
      errors.push(...inner.errors);
      warnings.push(...inner.warnings);
      return inner.value;
    };
    switch (op) {
      case undefined:
        out += value ?? unset(name);
        break;
      case ":-":
        out += value ? value : arg();
        break;
      case "-":
        out += value ?? arg();
        break;
      case ":?":
      case "?":
        if (op === ":?" ? !value : value === undefined) {
          const message = arg();
          errors.push(`Required variable "${name}" is missing a value${message ? `: ${message}` : ""}.`);
          out += "";
        } else out += value;
        break;
      case ":+":
        out += value ? arg() : "";
        break;
      case "+":
        out += value !== undefined ? arg() : "";
        break;
    }
    i = end;
  }
  return { value: out, errors, warnings };
}

const ESCAPES: Record<string, string> = { n: "\n", r: "\r", t: "\t", '"': '"', "\\": "\\" };

/**
 * Parse a `.env` file: `KEY=value`, optional `export`, `#` comments, single
 * quotes (literal), double quotes (escapes, may span lines), unquoted values
 * with trailing ` # comment` removed. Unquoted and double-quoted values are
 * interpolated with `outer` and the keys defined above them.
 */
export function parseDotEnv(text: string, outer: Variables = {}): { vars: Record<string, string>; errors: string[] } {
  const vars: Record<string, string> = {};
  const errors: string[] = [];
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  const scope = () => ({ ...vars, ...outer });
  for (let n = 0; n < lines.length; n++) {
    const line = (lines[n] ?? "").trim();
    if (!line || line.startsWith("#")) continue;
    const m = line.match(/^(?:export\s+)?([A-Za-z_][A-Za-z0-9_.-]*)\s*=\s*(.*)$/);
    if (!m) {
      errors.push(`.env line ${n + 1}: expected KEY=value.`);
      continue;
    }
    const key = m[1] as string;
    let raw = m[2] ?? "";
    if (raw.startsWith("'")) {
      const end = raw.indexOf("'", 1);
      vars[key] = end > 0 ? raw.slice(1, end) : raw.slice(1);
      continue;
    }
    if (raw.startsWith('"')) {
      // Read up to the closing quote, across lines, decoding escapes; `\$` becomes `$$` so it survives interpolation.
      let inner = "";
      let rest = raw.slice(1);
      let closed = false;
      for (;;) {
        for (let i = 0; i < rest.length; i++) {
          const c = rest[i] as string;
          if (c === "\\" && i + 1 < rest.length) {
            const e = rest[++i] as string;
            inner += e === "$" ? "$$" : (ESCAPES[e] ?? `\\${e}`);
          } else if (c === '"') {
            closed = true;
            break;
          } else inner += c;
        }
        if (closed || n + 1 >= lines.length) break;
        inner += "\n";
        rest = lines[++n] ?? "";
      }
      const result = interpolate(inner, scope());
      errors.push(...result.errors.map((e) => `.env ${key}: ${e}`));
      vars[key] = result.value;
      continue;
    }
    raw = raw.replace(/\s+#.*$/, "").trim();
    const result = interpolate(raw, scope());
    errors.push(...result.errors.map((e) => `.env ${key}: ${e}`));
    vars[key] = result.value;
  }
  return { vars, errors };
}
