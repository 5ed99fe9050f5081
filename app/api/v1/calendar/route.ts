import { ops } from "@/lib/api/operations";
import { handle } from "@/lib/http/route";
import { getCalendarAddress } from "@/lib/services/calendar/get-address";

export const GET = handle(ops.getCalendarAddress, async ({ ctx }) => getCalendarAddress({ ctx }));
