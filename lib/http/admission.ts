// POST /admission/<signed>: the promotion gate as a Kubernetes validating
// webhook. No sign-in: the signed address names the workspace and environment,
// and any wrong part is the same bare 404. A review that is not one gets a 400
// naming the field, never a 500: the API server then applies the webhook's failurePolicy.
import { admissionResponse, admissionReviewSchema, admissionWorkload, AdmissionShapeError } from "@/lib/adapters/runtimes/kubernetes/admission";
import { AppError, zodErrors } from "@/lib/domain/errors";
import { getServerServices } from "@/lib/server/services";
import { loadSignedAdmission, parseAdmissionAddress } from "@/lib/services/gate/admission-address";
import { reviewAdmission } from "@/lib/services/gate/review-admission";
import { readJsonBody, type DirectBody } from "./body";
import { errorToResponse, problemResponse } from "./problem";

const JSON_HEADERS = { "content-type": "application/json", "cache-control": "no-store" };

/** `direct`: the body read from Node's stream, when the direct path (lib/http/direct.ts) answers. */
export async function answerAdmission(req: Request, signed: string, direct?: DirectBody): Promise<Response> {
  try {
    const services = await getServerServices();
    const now = new Date();
    // The body's own faults first (413, 415, 400), as on every route: they say nothing about the address.
    const body = await readJsonBody(req, direct);
    const address = parseAdmissionAddress(signed);
    if (!address) return problemResponse("not_found", "Not found.");
    // A review to judge has its address checked in the same read as the facts (reviewAdmission); any
    // other answer checks it first, so a wrong address is a 404 whatever the body holds.
    const checkAddress = async () => {
      if (!(await loadSignedAdmission({ ctx: { db: services.db }, input: { signed } }))) throw new AppError("not_found", "Not found.");
    };
    const parsed = admissionReviewSchema.safeParse(body);
    if (!parsed.success) {
      await checkAddress();
      throw new AppError("bad_request", "The body is not an admission.k8s.io/v1 AdmissionReview with a request.", { errors: zodErrors(parsed.error) });
    }
    const review = parsed.data;
    let workload;
    try {
      workload = admissionWorkload(review);
    } catch (err) {
      await checkAddress();
      if (err instanceof AdmissionShapeError) throw new AppError("bad_request", err.message, { errors: [{ pointer: err.pointer, detail: err.message }] });
      throw err;
    }
    const uid = review.request.uid;
    if (workload.kind === "skipped") {
      await checkAddress();
      return Response.json(admissionResponse(uid, { allowed: true, message: null, warnings: [] }), { headers: JSON_HEADERS });
    }
    const answer = await reviewAdmission({
      ctx: { db: services.db, config: services.config, now },
      input: {
        address, images: workload.images, workload: `${workload.objectKind}/${workload.name}`,
        namespace: review.request.namespace ?? "", dryRun: review.request.dryRun === true,
      },
    });
    return Response.json(admissionResponse(uid, answer), { headers: JSON_HEADERS });
  } catch (err) {
    if (err instanceof AppError && err.code === "not_found") return problemResponse("not_found", "Not found.");
    return errorToResponse(err);
  }
}
