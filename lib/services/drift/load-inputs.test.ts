import { describe, expect, it } from "vitest";
import purlFixture from "@/tests/fixtures/eol/identifiers-purl.json";
import type { PurlIdentifier } from "@/lib/domain/eol";
import { eolProductFor } from "../eol-status";
import { eolProductOf, indexPurls } from "./load-inputs";

const purls = (purlFixture as { body: { result: PurlIdentifier[] } }).body.result;

describe("eolProductOf", () => {
  const repositories = [
    ...purls.map((p) => p.identifier.replace(/^pkg:(docker|oci)\//, "").replace(/\?.*$/, "")),
    "docker.io/library/postgres", "postgres", "docker.io/library/nginx", "ghcr.io/acme/app", "registry.example.test/team/api", "redis",
  ];
  const policies = [null, { eol: "none" }, { eol: "python" }];

  it.each(repositories.flatMap((repository) => policies.map((policy) => [repository, policy] as const)))(
    "gives eolProductFor's product for %s with policy %j",
    (repository, policy) => {
      const facts = { policy, repository: null, runningRepository: repository };
      expect(eolProductOf(facts, indexPurls(purls))).toBe(eolProductFor(facts, purls));
    },
  );
});
