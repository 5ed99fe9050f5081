// The outcome of a settings form, carried in the URL (?ok= or ?error=) so it
// survives the redirect and works without JavaScript.
export type Flash = { ok?: string; error?: string };

export async function readFlash(searchParams: Promise<Record<string, string | string[] | undefined>>): Promise<Flash> {
  const sp = await searchParams;
  const one = (v: string | string[] | undefined) => (typeof v === "string" ? v.slice(0, 500) : undefined);
  return { ok: one(sp.ok), error: one(sp.error) };
}

export function FlashMessage({ flash }: { flash: Flash }) {
  if (flash.error) return <p className="alert" role="alert">{flash.error}</p>;
  if (flash.ok) return <p className="notice" role="status">{flash.ok}</p>;
  return null;
}

/** `/path?error=…` for a redirect after a form. */
export function withFlash(path: string, flash: Flash): string {
  const q = new URLSearchParams();
  if (flash.ok) q.set("ok", flash.ok);
  if (flash.error) q.set("error", flash.error);
  return `${path}?${q.toString()}`;
}
