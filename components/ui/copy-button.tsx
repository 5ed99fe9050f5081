"use client";
// Copies a text to the clipboard and says so, politely, to screen readers too.
import { useState } from "react";

export function CopyButton({ text, label = "Copy", copiedLabel = "Copied", describedBy, className }: { text: string; label?: string; copiedLabel?: string; describedBy?: string; className?: string }) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setState("copied");
    } catch {
      setState("failed");
    }
    setTimeout(() => setState("idle"), 2500);
  }
  return (
    <>
      <button type="button" className={className ?? "small"} onClick={() => void copy()} aria-describedby={describedBy}>
        {state === "copied" ? copiedLabel : label}
      </button>
      <span className="sr" role="status">{state === "copied" ? copiedLabel : state === "failed" ? "Copy failed: select the text and copy it by hand." : ""}</span>
    </>
  );
}
