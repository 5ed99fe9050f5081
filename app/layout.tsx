import type { Metadata } from "next";
import { connection } from "next/server";
import { inter } from "./fonts";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Driftwatch", template: "%s · Driftwatch" },
  description: "Which version of each service runs where, and how far it has drifted.",
};

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  // Every page renders per request, so Next can put this request's CSP nonce
  // (proxy.ts) on its scripts; a prerendered page would carry none.
  await connection();
  return (
    <html lang="en" className={inter.variable}>
      <body>{children}</body>
    </html>
  );
}
