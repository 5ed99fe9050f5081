import { describe, expect, it } from "vitest";
import { normaliseRepoPath, resolveComposeImages } from "./compose";

const reader = (files: Record<string, string>) => async (p: string) => files[p] ?? null;

describe("resolveComposeImages", () => {
  it("merges several files: a later image wins, a later entry without one keeps the earlier", async () => {
    const files = {
      "deploy/compose.yml": "services:\n  web:\n    image: nginx:${TAG:-1.26}\n  api:\n    image: ghcr.io/acme/api:2.4.0\n  builder:\n    build: .\n",
      "deploy/compose.prod.yml": "services:\n  api:\n    image: ghcr.io/acme/api:2.4.1\n  web:\n    environment:\n      - MODE=prod\n",
      "deploy/.env": "TAG=1.27.3\n",
    };
    const r = await resolveComposeImages(["deploy/compose.yml", "deploy/compose.prod.yml"], reader(files));
    expect(r).toEqual({
      services: [
        { service: "api", image: "ghcr.io/acme/api:2.4.1", file: "deploy/compose.prod.yml" },
        { service: "web", image: "nginx:1.27.3", file: "deploy/compose.yml" },
      ],
      errors: [],
    });
  });

  it("lets given variables override .env", async () => {
    const files = { "compose.yml": "services:\n  web:\n    image: nginx:${TAG}\n", ".env": "TAG=1.27.3\n" };
    const r = await resolveComposeImages(["compose.yml"], reader(files), { variables: { TAG: "1.27.4" } });
    expect(r.services).toEqual([{ service: "web", image: "nginx:1.27.4", file: "compose.yml" }]);
  });

  it("follows extends within a file, to another file, and in the short form", async () => {
    const files = {
      "compose.yml": [
        "services:",
        "  base:",
        "    image: ghcr.io/acme/base:${BASE_TAG:-3.1}",
        "  worker:",
        "    extends: { service: base }",
        "  short:",
        "    extends: base",
        "  shared:",
        "    extends:",
        "      file: common/services.yml",
        "      service: ${SHARED:-cache}",
        "  own:",
        "    extends: base",
        "    image: ghcr.io/acme/own:1.0",
      ].join("\n"),
      "common/services.yml": "services:\n  cache:\n    extends:\n      file: ../compose.yml\n      service: base\n",
    };
    const r = await resolveComposeImages(["compose.yml"], reader(files));
    expect(r.errors).toEqual([]);
    expect(r.services.map((s) => [s.service, s.image, s.file])).toEqual([
      ["base", "ghcr.io/acme/base:3.1", "compose.yml"],
      ["own", "ghcr.io/acme/own:1.0", "compose.yml"],
      ["shared", "ghcr.io/acme/base:3.1", "compose.yml"],
      ["short", "ghcr.io/acme/base:3.1", "compose.yml"],
      ["worker", "ghcr.io/acme/base:3.1", "compose.yml"],
    ]);
  });

  it("supports YAML anchors and merge keys", async () => {
    const files = { "compose.yml": "x-app: &app\n  image: ghcr.io/acme/app:${TAG:-1.0}\nservices:\n  a:\n    <<: *app\n  b: *app\n" };
    const r = await resolveComposeImages(["compose.yml"], reader(files));
    expect(r.services.map((s) => s.image)).toEqual(["ghcr.io/acme/app:1.0", "ghcr.io/acme/app:1.0"]);
  });

  it.each([
    ["a missing file", {}, ["compose.yml"], ["compose.yml: file not found."]],
    ["invalid YAML", { "compose.yml": "services:\n  web: [\n" }, ["compose.yml"], [expect.stringMatching(/^compose\.yml: invalid YAML/)]],
    ["a required variable", { "compose.yml": "services:\n  web:\n    image: nginx:${TAG:?set TAG}\n" }, ["compose.yml"], ['compose.yml: service "web": image: Required variable "TAG" is missing a value: set TAG.']],
    [
      "an unset variable leaving no tag",
      { "compose.yml": "services:\n  web:\n    image: nginx:${TAG}\n" },
      ["compose.yml"],
      ['compose.yml: service "web": image: The "TAG" variable is not set. Defaulting to a blank string.', 'compose.yml: service "web": image "nginx:" is not a valid reference.'],
    ],
    [
      "an extends cycle",
      { "compose.yml": "services:\n  a:\n    extends: b\n  b:\n    extends: a\n" },
      ["compose.yml"],
      ['compose.yml: service "a": extends forms a cycle (compose.yml#a → compose.yml#b → compose.yml#a).', 'compose.yml: service "b": extends forms a cycle (compose.yml#b → compose.yml#a → compose.yml#b).'],
    ],
    ["an extends file outside the repository", { "compose.yml": "services:\n  a:\n    extends: { file: ../../etc/x.yml, service: b }\n" }, ["compose.yml"], ['compose.yml: service "a": extends.file "../../etc/x.yml" is outside the repository.']],
    ["a path outside the repository", {}, ["../compose.yml"], ["../compose.yml: path is outside the repository."]],
  ])("reports %s", async (_, files, paths, errors) => {
    const r = await resolveComposeImages(paths, reader(files as Record<string, string>));
    expect(r.services).toEqual([]);
    expect(r.errors).toEqual(errors);
  });

  it("refuses a billion-laughs alias bomb", async () => {
    const bomb = ["a: &a [x, x, x, x, x, x, x, x, x, x]", "b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]", "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]", "d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]", "services: {}"].join("\n");
    const r = await resolveComposeImages(["compose.yml"], reader({ "compose.yml": bomb }));
    expect(r.errors).toHaveLength(1);
  });
});

describe("normaliseRepoPath", () => {
  it.each([
    ["./compose.yml", "compose.yml"],
    ["deploy/../compose.yml", "compose.yml"],
    ["/etc/passwd", null],
    ["../x.yml", null],
  ])("%s → %s", (input, expected) => {
    expect(normaliseRepoPath(input)).toBe(expected);
  });
});
