"use client";
// "Save as PDF": a plain download link that works without script; with
// script it fetches the PDF itself so the page can show that it is being
// made (the server's Chromium takes a few seconds) and say when it fails.
import { useState, type MouseEvent } from "react";

type State = { status: "idle" | "busy" | "done" | "error"; message?: string };

export function PdfLink({ href, paperLabel, other }: { href: string; paperLabel: string; other: { href: string; label: string } }) {
  const [state, setState] = useState<State>({ status: "idle" });
  const busy = state.status === "busy";

  async function save(event: MouseEvent<HTMLAnchorElement>, url: string, label: string) {
    event.preventDefault();
    if (busy) return;
    setState({ status: "busy", message: `Making the ${label} PDF…` });
    try {
      const res = await fetch(url, { credentials: "same-origin" });
      // No renderer on the server: it sends the page back, which then offers the print dialog.
      if (res.redirected && !(res.headers.get("content-type") ?? "").includes("application/pdf")) {
        window.location.assign(res.url);
        return;
      }
      if (!res.ok) throw new Error(`the server answered ${res.status}`);
      const blob = await res.blob();
      const name = /filename="([^"]+)"/.exec(res.headers.get("content-disposition") ?? "")?.[1] ?? "driftwatch-report.pdf";
      const link = document.createElement("a");
      link.href = URL.createObjectURL(blob);
      link.download = name;
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
      setState({ status: "done", message: `Saved ${name} (${label}).` });
    } catch (err) {
      setState({ status: "error", message: `The PDF could not be made: ${err instanceof Error ? err.message : String(err)}. Try again, or print this page.` });
    }
  }

  return (
    <div className="pdf-save">
      <a className="button primary" href={href} download aria-disabled={busy || undefined} onClick={(e) => void save(e, href, paperLabel)}>
        {busy ? <span className="spinner" aria-hidden="true" /> : null}
        {busy ? "Making the PDF…" : "Save as PDF"}
      </a>
      <span className="hint">
        {paperLabel} paper · <a href={other.href} download onClick={(e) => void save(e, other.href, other.label)}>{other.label} instead<span className="sr"> (the PDF on {other.label} paper)</span></a>
      </span>
      <span role="status" className={state.status === "error" ? "alert compact" : "hint"}>{state.message ?? ""}</span>
    </div>
  );
}
