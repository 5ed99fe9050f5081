// Single sign-on's variables: all three of issuer, client id and secret turn
// it on; a bad or lone value stops start-up with one line naming it.
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./config";

const ON = {
  DRIFTWATCH_OIDC_ISSUER: "https://id.corp.example/realms/main",
  DRIFTWATCH_OIDC_CLIENT_ID: "driftwatch",
  DRIFTWATCH_OIDC_CLIENT_SECRET: "s3cret-value-never-shown",
};

function errorOf(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error("expected a ConfigError");
}

describe("single sign-on configuration", () => {
  it("is off when nothing is set", () => {
    expect(loadConfig({}).oidc).toBeUndefined();
  });

  it("turns on with issuer, client id and secret, with the documented defaults", () => {
    expect(loadConfig(ON).oidc).toEqual({
      issuer: "https://id.corp.example/realms/main",
      clientId: "driftwatch",
      clientSecret: "s3cret-value-never-shown",
      name: "id.corp.example",
      workspace: undefined,
      role: "viewer",
      groupsClaim: "groups",
      groupRoles: new Map(),
    });
  });

  it("keeps the issuer exactly as given, trailing slash included", () => {
    expect(loadConfig({ ...ON, DRIFTWATCH_OIDC_ISSUER: "https://tenant.auth.example/" }).oidc?.issuer).toEqual("https://tenant.auth.example/");
  });

  it("reads the workspace, role, name, claim and group mapping", () => {
    const oidc = loadConfig({
      ...ON,
      DRIFTWATCH_OIDC_NAME: "Corp ID",
      DRIFTWATCH_OIDC_WORKSPACE: "acme",
      DRIFTWATCH_OIDC_ROLE: "member",
      DRIFTWATCH_OIDC_GROUPS_CLAIM: "https://corp.example/groups",
      DRIFTWATCH_OIDC_GROUP_ROLES: " ops=member , platform=admin,,team=a=viewer",
    }).oidc;
    expect(oidc?.name).toEqual("Corp ID");
    expect(oidc?.workspace).toEqual("acme");
    expect(oidc?.role).toEqual("member");
    expect(oidc?.groupsClaim).toEqual("https://corp.example/groups");
    expect(oidc?.groupRoles).toEqual(new Map([["ops", "member"], ["platform", "admin"], ["team=a", "viewer"]]));
  });

  it.each([
    ["DRIFTWATCH_OIDC_ISSUER", "DRIFTWATCH_OIDC_CLIENT_ID"],
    ["DRIFTWATCH_OIDC_CLIENT_ID", "DRIFTWATCH_OIDC_ISSUER"],
    ["DRIFTWATCH_OIDC_CLIENT_SECRET", "DRIFTWATCH_OIDC_ISSUER"],
  ])("%s alone is refused, naming %s", (only, missing) => {
    const message = errorOf({ [only]: ON[only as keyof typeof ON] });
    expect(message).toEqual(`${missing}: set DRIFTWATCH_OIDC_ISSUER, DRIFTWATCH_OIDC_CLIENT_ID, DRIFTWATCH_OIDC_CLIENT_SECRET together to turn single sign-on on`);
  });

  it("refuses a setting that has no effect without the provider", () => {
    expect(errorOf({ DRIFTWATCH_OIDC_WORKSPACE: "acme" })).toEqual("DRIFTWATCH_OIDC_WORKSPACE: has no effect without DRIFTWATCH_OIDC_ISSUER, DRIFTWATCH_OIDC_CLIENT_ID, DRIFTWATCH_OIDC_CLIENT_SECRET");
  });

  it.each([
    [{ DRIFTWATCH_OIDC_ISSUER: "id.corp.example" }, /^DRIFTWATCH_OIDC_ISSUER: expected the provider's issuer URL/],
    [{ DRIFTWATCH_OIDC_ISSUER: "https://id.corp.example/?tenant=1" }, /^DRIFTWATCH_OIDC_ISSUER: expected/],
    [{ DRIFTWATCH_OIDC_ROLE: "owner" }, /^DRIFTWATCH_OIDC_ROLE: expected admin, member, viewer/],
    [{ DRIFTWATCH_OIDC_GROUP_ROLES: "ops" }, /^DRIFTWATCH_OIDC_GROUP_ROLES: expected group=role pairs.*"ops"/],
    [{ DRIFTWATCH_OIDC_GROUP_ROLES: "ops=owner" }, /^DRIFTWATCH_OIDC_GROUP_ROLES: the role of group "ops" must be admin, member, viewer \(got "owner"\)/],
    [{ DRIFTWATCH_OIDC_GROUP_ROLES: "ops=member,ops=admin" }, /^DRIFTWATCH_OIDC_GROUP_ROLES: group "ops" is listed twice/],
    [{ DRIFTWATCH_OIDC_GROUP_ROLES: "=member" }, /^DRIFTWATCH_OIDC_GROUP_ROLES: expected group=role pairs/],
    [{ DRIFTWATCH_OIDC_GROUPS_CLAIM: "groups claim" }, /^DRIFTWATCH_OIDC_GROUPS_CLAIM: expected a claim name/],
  ])("refuses %o", (bad, message) => {
    expect(errorOf({ ...ON, ...bad })).toMatch(message);
  });

  it("never shows the client secret in an error", () => {
    expect(errorOf({ ...ON, DRIFTWATCH_OIDC_CLIENT_SECRET: "   ", DRIFTWATCH_OIDC_ROLE: "root" })).not.toContain("s3cret");
    expect(errorOf({ DRIFTWATCH_OIDC_CLIENT_SECRET: "s3cret-value-never-shown" })).not.toContain("s3cret");
  });
});
