import { describe, expect, it } from "vitest";
import driftFixture from "@/tests/fixtures/channels/drift-detected.json";
import planFixture from "@/tests/fixtures/channels/upgrade-plan.json";
import type { DriftEventPayload, UpgradePlanPayload } from "./payloads";
import { escapeHtml, renderEmail } from "./render-email";
import gateFixture from "@/tests/fixtures/channels/gate-refused.json";
import type { GateRefusedPayload } from "./payloads";

const drift = driftFixture as DriftEventPayload;
const plan = planFixture as UpgradePlanPayload;

describe("renderEmail: drift", () => {
  it("renders subject, text and HTML", () => {
    const email = renderEmail(drift);
    expect(email.subject).toBe("[Driftwatch] Drift detected in acme: web in production (newer release upstream)");
    expect(email.text).toBe(
      [
        "Drift detected: web in production (newer release upstream)",
        "",
        "web in production is behind the newest release.",
        "",
        "Kind:       Newer release upstream",
        "Running:    1.25.0",
        "Expected:   1.27.3",
        "Team:       payments",
        "Open since: 2026-11-20T10:00:00.000Z",
        "",
        "Open in Driftwatch: https://driftwatch.example.com/services/web",
        "",
        "-- ",
        "Driftwatch · workspace acme · event evt_01JD3W8Q5K2R9",
        "",
      ].join("\n"),
    );
    expect(email.html).toContain('<h2>Drift detected: <a href="https://driftwatch.example.com/services/web">web</a> in production (newer release upstream)</h2>');
    expect(email.html).toContain("<tr><th align=\"left\">Running</th><td>1.25.0</td></tr>");
  });

  it("escapes HTML and keeps the subject on one line", () => {
    const email = renderEmail({ ...drift, service: "<script>alert('x')</script>", environment: "prod\r\nBcc: victim@example.com" });
    expect(email.html).not.toContain("<script>");
    expect(email.html).toContain("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;");
    expect(email.subject).not.toMatch(/[\r\n]/);
    expect(email.subject).toContain("prod Bcc: victim@example.com");
  });
});

describe("renderEmail: upgrade plan", () => {
  it("renders a markdown checklist in text", () => {
    const email = renderEmail(plan);
    expect(email.subject).toBe("[Driftwatch] Weekly upgrade plan for acme: 4 upgrades");
    expect(email.text.split("\n").filter((l) => l.startsWith("- [ ]"))).toEqual([
      "- [ ] postgres (production): 13.16 → 17.2 · end of life passed · https://www.postgresql.org/docs/release/17.2/",
      "- [ ] web (production): 1.25.0 → 1.27.3 · minor release · https://nginx.org/en/CHANGES-1.27",
      "- [ ] api (staging): 2.3.0 → 2.4.1 · behind the previous environment",
      "- [ ] redis (staging): 7.2.4 → 7.2.6 · patch release",
    ]);
    expect(email.text).toContain("Open the updates list: https://driftwatch.example.com/updates");
  });

  it("renders the same list in HTML without unsafe links", () => {
    const email = renderEmail(plan);
    expect(email.html.match(/<li>/g)).toHaveLength(4);
    expect(email.html).toContain('<a href="https://nginx.org/en/CHANGES-1.27">release notes</a>');
    expect(email.html).not.toContain("javascript:");
  });

  it("says so when there is nothing to upgrade", () => {
    const email = renderEmail({ ...plan, items: [] });
    expect(email.subject).toBe("[Driftwatch] Weekly upgrade plan for acme: 0 upgrades");
    expect(email.text).toContain("Nothing to upgrade this week.");
  });
});

describe("escapeHtml", () => {
  it("escapes the five characters", () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe("&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
  });
});

describe("renderEmail: gate refused", () => {
  it("says what was refused in the subject and why in the body, with the service link", () => {
    const m = renderEmail(gateFixture as GateRefusedPayload);
    expect(m.subject).toBe("[Driftwatch] Gate refused web 3.0.0 in production");
    expect(m.text.split("\n").slice(0, 3)).toEqual(["Gate refused web 3.0.0 in production: 20 hours of soak left in staging (3.0.0 ran 4 hours of 1 day)", "", "Open in Driftwatch: https://driftwatch.example.com/services/web"]);
    expect(m.html).toContain('<a href="https://driftwatch.example.com/services/web">Open in Driftwatch</a>');
  });
});
