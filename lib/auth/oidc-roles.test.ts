import { describe, expect, it } from "vitest";
import { groupsInClaim, roleFromGroups, type SsoRole } from "./oidc-roles";

const mapping = new Map<string, SsoRole>([["ops", "member"], ["platform", "admin"], ["auditors", "viewer"]]);

describe("roleFromGroups", () => {
  it.each<[string, string[], SsoRole, SsoRole]>([
    ["no groups: the default", [], "viewer", "viewer"],
    ["no mapped group: the default", ["staff", "everyone"], "viewer", "viewer"],
    ["one mapped group", ["staff", "ops"], "viewer", "member"],
    ["the highest of several", ["ops", "platform", "auditors"], "viewer", "admin"],
    ["a mapped group ranks above a higher default", ["auditors"], "member", "viewer"],
    ["group names are exact", ["Ops", "ops-team"], "viewer", "viewer"],
  ])("%s", (_name, groups, fallback, expected) => {
    expect(roleFromGroups({ groups, mapping, fallback })).toEqual(expected);
  });

  it("without a mapping, everyone gets the default", () => {
    expect(roleFromGroups({ groups: ["ops"], mapping: new Map(), fallback: "member" })).toEqual("member");
  });
});

describe("groupsInClaim", () => {
  it.each<[string, unknown, string[]]>([
    ["a list of names", ["ops", "staff"], ["ops", "staff"]],
    ["one name", "ops", ["ops"]],
    ["absent", undefined, []],
    ["an empty string", "", []],
    ["non-strings in the list are skipped", ["ops", 7, null, { name: "x" }, ""], ["ops"]],
    ["an object", { ops: true }, []],
  ])("%s", (_name, value, expected) => {
    expect(groupsInClaim(value)).toEqual(expected);
  });
});
