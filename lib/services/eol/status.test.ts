import { describe, expect, it } from "vitest";
import purlFixture from "@/tests/fixtures/eol/identifiers-purl.json";
import { productForImage, resolveEolProduct, type PurlIdentifier } from "@/lib/domain/eol";
import type { Policy } from "@/lib/domain/policy";
import { catalogFor } from "../services/catalog-lookup";
import { eolProductOf, indexPurls } from "./status";

const purls = (purlFixture as { body: { result: PurlIdentifier[] } }).body.result;

/** The rule spelt out: policy `eol`, else the catalog's, else a linear search of the package URLs. */
function linearProduct(facts: { policy: unknown; repository: string | null; runningRepository: string | null }): string | null {
  const repository = facts.repository ?? facts.runningRepository;
  return resolveEolProduct({
    policyEol: (facts.policy as Policy | null)?.eol,
    catalogEol: repository ? catalogFor(repository)?.eol : undefined,
    purlMatch: repository ? productForImage(repository, purls) : undefined,
  });
}

describe("eolProductOf", () => {
  const repositories = [
    ...purls.map((p) => p.identifier.replace(/^pkg:(docker|oci)\//, "").replace(/\?.*$/, "")),
    "docker.io/library/postgres", "postgres", "docker.io/library/nginx", "ghcr.io/acme/app", "registry.example.test/team/api", "redis",
  ];
  const policies = [null, { eol: "none" }, { eol: "python" }];

  it.each(repositories.flatMap((repository) => policies.map((policy) => [repository, policy] as const)))(
    "gives the linear search's product for %s with policy %j",
    (repository, policy) => {
      const facts = { policy, repository: null, runningRepository: repository };
      expect(eolProductOf(facts, indexPurls(purls))).toBe(linearProduct(facts));
    },
  );
});
