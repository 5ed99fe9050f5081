// POST /admission/<key id>.<environment>.<signature>: the gate's Kubernetes webhook.
import { answerAdmission } from "@/lib/http/admission";

export const dynamic = "force-dynamic";

export async function POST(req: Request, { params }: { params: Promise<{ signed: string }> }): Promise<Response> {
  return answerAdmission(req, (await params).signed);
}
