// Reports answer 202 once history is stored; drift is evaluated just after.
// A read through the API waits for that evaluation (read-your-writes), so a
// test that next reads the database directly, or holds the evaluation lock,
// settles first.
import { api, type TestWorkspace } from "./api";

export async function settled(ws: Pick<TestWorkspace, "viewer">): Promise<void> {
  const res = await api(ws.viewer).get("/api/v1/drifts");
  if (res.status !== 200) throw new Error(`settling drift evaluation: GET /api/v1/drifts answered ${res.status}`);
}
