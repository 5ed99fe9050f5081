// A strict check of rendered Kubernetes objects: each is type-checked by the TypeScript compiler
// as an object literal of its kubernetes-models interface, so a misspelt or misplaced field
// anywhere in it is an error ("may only specify known properties"), as with kubectl's
// --validate=strict. kubernetes-models' own validate() checks types but lets unknown fields by.
import path from "node:path";
import ts from "typescript";

const ROOT = path.resolve(import.meta.dirname, "../..");

export type TypedObject = { apiVersion: string; kind: string; metadata: { name: string } };

/** One line per problem, naming the object; empty when every object is well formed. */
export function strictFieldErrors(objects: TypedObject[]): string[] {
  const file = path.join(ROOT, "__rendered_objects__.ts");
  const lines = objects.flatMap((o, i) => [
    `import type { I${o.kind} as T${i} } from "kubernetes-models/${o.apiVersion}/${o.kind}";`,
    `export const o${i}: T${i} = ${JSON.stringify(o)};`,
  ]);
  const source = lines.join("\n");
  const options: ts.CompilerOptions = {
    strict: true, noEmit: true, skipLibCheck: true, types: [],
    target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler,
  };
  const host = ts.createCompilerHost(options);
  const { getSourceFile, fileExists, readFile } = host;
  host.getSourceFile = (name, lang, ...rest) => (name === file ? ts.createSourceFile(name, source, lang) : getSourceFile.call(host, name, lang, ...rest));
  host.fileExists = (name) => name === file || fileExists.call(host, name);
  host.readFile = (name) => (name === file ? source : readFile.call(host, name));
  const program = ts.createProgram([file], options, host);
  const checked = program.getSourceFile(file)!;
  return ts.getPreEmitDiagnostics(program, checked).map((d) => {
    const line = d.start === undefined ? 0 : checked.getLineAndCharacterOfPosition(d.start).line;
    const o = objects[Math.floor(line / 2)];
    return `${o ? `${o.kind}/${o.metadata.name}` : "?"}: ${ts.flattenDiagnosticMessageText(d.messageText, " ")}`;
  });
}
