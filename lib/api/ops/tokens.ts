import { idParams } from "../schemas/common";
import { createdTokenSchema, createTokenBodySchema, tokenListSchema } from "../schemas/tokens";
import { defineOperation } from "../operation";

export const tokensOps = {
  listTokens: defineOperation({
    id: "listTokens", method: "GET", path: "/api/v1/tokens", summary: "API tokens of the workspace", tags: ["tokens"], auth: "admin",
    responses: { 200: { description: "Tokens (values are never shown again)", schema: tokenListSchema } },
  }),
  createToken: defineOperation({
    id: "createToken", method: "POST", path: "/api/v1/tokens", summary: "Create an API token", tags: ["tokens"], auth: "admin",
    body: createTokenBodySchema,
    responses: { 201: { description: "Created; the value is shown this once", schema: createdTokenSchema } },
  }),
  revokeToken: defineOperation({
    id: "revokeToken", method: "DELETE", path: "/api/v1/tokens/{id}", summary: "Revoke an API token", tags: ["tokens"], auth: "admin",
    params: idParams,
    responses: { 204: { description: "Revoked" } },
  }),
};
