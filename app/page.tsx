import { redirect } from "next/navigation";
import { auth } from "@/auth";
import { getServerServices } from "@/lib/server/services";
import { hasAnyUser } from "@/lib/services/setup-workspace";

export const dynamic = "force-dynamic";

export default async function Home() {
  const { db } = await getServerServices();
  if (!(await hasAnyUser(db))) redirect("/setup");
  const session = await auth();
  if (!session?.user) redirect("/signin");
  return (
    <main>
      <h1>Driftwatch</h1>
    </main>
  );
}
