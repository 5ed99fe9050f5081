import { handleMcpRequest } from "@/lib/mcp/handle-request";

// Stateless Streamable HTTP: every request is a POST; GET and DELETE answer 405 (see proxy.ts).
export const POST = (req: Request) => handleMcpRequest(req);
