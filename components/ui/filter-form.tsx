"use client";
// A GET form of filters: without JavaScript it submits as usual; with it, a
// changed select applies at once and the URL keeps every filter.
import { useRouter } from "next/navigation";
import { useTransition, type FormEvent, type ReactNode } from "react";

function hrefOf(form: HTMLFormElement): string {
  const query = new URLSearchParams();
  for (const [key, value] of new FormData(form).entries()) if (typeof value === "string" && value !== "") query.set(key, value);
  const s = query.toString();
  return `${form.getAttribute("action") ?? ""}${s ? `?${s}` : ""}`;
}

export function FilterForm({ action, label, children }: { action: string; label: string; children: ReactNode }) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const go = (form: HTMLFormElement) => startTransition(() => router.replace(hrefOf(form), { scroll: false }));
  return (
    <form
      method="get"
      action={action}
      role="search"
      aria-label={label}
      aria-busy={pending}
      className="filters"
      onChange={(e) => { if (e.target instanceof HTMLSelectElement) go(e.currentTarget); }}
      onSubmit={(e: FormEvent<HTMLFormElement>) => { e.preventDefault(); go(e.currentTarget); }}
    >
      {children}
      <div className="filter-actions"><button type="submit">Apply</button></div>
    </form>
  );
}
