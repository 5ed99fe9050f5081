"use client";
// Where the server cannot render a PDF (no Chromium), the browser's print
// dialog saves one.
export function PrintButton({ label = "Save as PDF" }: { label?: string }) {
  return <button type="button" className="primary" onClick={() => window.print()}>{label}</button>;
}
