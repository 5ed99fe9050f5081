"use client";
// The matrix filters. A plain GET form, so they work without JavaScript;
// with it, a change applies at once (search after a short pause) and the
// URL keeps every filter.
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState, useTransition, type FormEvent } from "react";
import { DRIFT_KIND_LIST, DRIFT_LABEL } from "@/components/ui/drift";
import { matrixHref, SORTS, type MatrixParams, type SortKey } from "./search-params";

type Values = Omit<MatrixParams, "page">;

const valuesOf = (p: MatrixParams): Values => ({ q: p.q, team: p.team, env: p.env, kind: p.kind, sort: p.sort });

let searchTimer: ReturnType<typeof setTimeout> | undefined;

export function MatrixFilters({ params, teams, environments }: { params: MatrixParams; teams: string[]; environments: string[] }) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const [values, setValues] = useState<Values>(() => valuesOf(params));
  // Follow navigations this form did not make (Clear, back, a link), not the ones it made itself.
  const urlHref = matrixHref(params, { page: 1 });
  const [seen, setSeen] = useState({ url: urlHref, pushed: urlHref });
  if (urlHref !== seen.url) {
    setSeen({ url: urlHref, pushed: seen.pushed });
    if (urlHref !== seen.pushed) setValues(valuesOf(params));
  }

  function go(next: Values) {
    const href = matrixHref({ ...next, page: 1 });
    setSeen((s) => ({ ...s, pushed: href }));
    startTransition(() => router.replace(href, { scroll: false }));
  }
  function change<K extends keyof Values>(key: K, value: Values[K], delay = 0) {
    const next = { ...values, [key]: value };
    setValues(next);
    clearTimeout(searchTimer);
    if (delay === 0) go(next);
    else searchTimer = setTimeout(() => go(next), delay);
  }
  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    clearTimeout(searchTimer);
    go(values);
  }
  const filtered = Boolean(values.q || values.team || values.env || values.kind);

  return (
    <form method="get" action="/" role="search" aria-label="Filter the matrix" className="filters" onSubmit={submit} aria-busy={pending}>
      <div className="filter grow">
        <label htmlFor="mx-q">Search</label>
        <input id="mx-q" type="search" name="q" value={values.q} placeholder="Service name" maxLength={200} onChange={(e) => change("q", e.target.value, 300)} />
      </div>
      <div className="filter">
        <label htmlFor="mx-team">Team</label>
        <select id="mx-team" name="team" value={values.team} onChange={(e) => change("team", e.target.value)}>
          <option value="">All teams</option>
          {teams.map((t) => <option key={t} value={t}>{t}</option>)}
        </select>
      </div>
      <div className="filter">
        <label htmlFor="mx-env">Environment</label>
        <select id="mx-env" name="env" value={values.env} onChange={(e) => change("env", e.target.value)}>
          <option value="">All environments</option>
          {environments.map((e) => <option key={e} value={e}>{e}</option>)}
        </select>
      </div>
      <div className="filter">
        <label htmlFor="mx-kind">Drift</label>
        <select id="mx-kind" name="kind" value={values.kind} onChange={(e) => change("kind", e.target.value as Values["kind"])}>
          <option value="">Any or none</option>
          {DRIFT_KIND_LIST.map((k) => <option key={k} value={k}>{DRIFT_LABEL[k]}</option>)}
        </select>
      </div>
      <div className="filter">
        <label htmlFor="mx-sort">Sort</label>
        <select id="mx-sort" name="sort" value={values.sort} onChange={(e) => change("sort", e.target.value as SortKey)}>
          {(Object.keys(SORTS) as SortKey[]).map((s) => <option key={s} value={s}>{SORTS[s]}</option>)}
        </select>
      </div>
      <div className="filter-actions">
        <button type="submit">Apply</button>
        {filtered ? <Link className="button quiet" href="/" onClick={(e) => { e.preventDefault(); const clear = { q: "", team: "", env: "", kind: "" as const, sort: values.sort }; setValues(clear); go(clear); }}>Clear</Link> : null}
      </div>
    </form>
  );
}
