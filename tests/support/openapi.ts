// Validates responses against the OpenAPI document the server serves: the
// status must be documented for the operation, and the body must match the
// documented schema for its content type.
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import YAML from "yaml";

type Doc = { paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: unknown }> }> }>>; components?: unknown };

const compiled = new Map<string, ReturnType<InstanceType<typeof Ajv2020>["compile"]>>();
let docPromise: Promise<{ doc: Doc; ajv: InstanceType<typeof Ajv2020> }> | undefined;

export function loadOpenApi(baseUrl: string) {
  docPromise ??= (async () => {
    const res = await fetch(`${baseUrl}/api/v1/openapi.yaml`);
    if (!res.ok) throw new Error(`openapi.yaml: ${res.status}`);
    const doc = YAML.parse(await res.text()) as Doc;
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema({ $id: "openapi", components: doc.components ?? {} });
    return { doc, ajv };
  })();
  return docPromise;
}

function templateFor(doc: Doc, pathname: string): string | null {
  for (const template of Object.keys(doc.paths)) {
    const re = new RegExp("^" + template.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\\?\{[^}]+\\?\}/g, "[^/]+").replace(/\{[^}]+\}/g, "[^/]+") + "$");
    if (re.test(pathname)) return template;
  }
  return null;
}

/** Rewrite $refs to point into the registered "openapi" schema. */
function rebase(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(rebase);
  if (schema && typeof schema === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(schema)) out[k] = k === "$ref" && typeof v === "string" && v.startsWith("#/") ? `openapi${v}` : rebase(v);
    return out;
  }
  return schema;
}

export async function assertMatchesOpenApi(baseUrl: string, method: string, pathname: string, status: number, contentType: string | null, body: unknown) {
  const { doc, ajv } = await loadOpenApi(baseUrl);
  const template = templateFor(doc, pathname);
  if (!template) {
    // Unknown routes must still answer problem+json.
    if (!contentType?.startsWith("application/problem+json")) throw new Error(`${method} ${pathname}: undocumented route answered ${status} ${contentType}`);
    return;
  }
  const operation = doc.paths[template]?.[method.toLowerCase()];
  if (!operation) {
    if (status === 405 && contentType?.startsWith("application/problem+json")) return;
    throw new Error(`${method} ${template}: method not documented (status ${status})`);
  }
  const response = operation.responses[String(status)];
  if (!response) throw new Error(`${method} ${template}: status ${status} is not documented (documented: ${Object.keys(operation.responses).join(", ")})`);
  if (!response.content) {
    if (body !== null && body !== undefined && body !== "") throw new Error(`${method} ${template} ${status}: documented without a body but one was sent`);
    return;
  }
  const type = (contentType ?? "").split(";")[0]!.trim();
  const media = response.content[type];
  if (!media) throw new Error(`${method} ${template} ${status}: content type ${type} not documented (${Object.keys(response.content).join(", ")})`);
  const key = `${method} ${template} ${status} ${type}`;
  let validate = compiled.get(key);
  if (!validate) {
    validate = ajv.compile(rebase(media.schema) as object);
    compiled.set(key, validate);
  }
  if (!validate(body)) {
    throw new Error(`${method} ${template} ${status}: body does not match the OpenAPI schema: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(body).slice(0, 500)}`);
  }
}
