import { describe, expect, it } from "vitest";
import driftFixture from "@/tests/fixtures/channels/drift-detected.json";
import planFixture from "@/tests/fixtures/channels/upgrade-plan.json";
import type { DriftEventPayload, UpgradePlanItem, UpgradePlanPayload } from "./payloads";
import { SLACK_MAX_BLOCKS, SLACK_MAX_SECTION_CHARS, escapeSlack, renderSlackMessage, slackLink } from "./render-slack";
import gateFixture from "@/tests/fixtures/channels/gate-refused.json";
import type { GateRefusedPayload } from "./payloads";

const drift = driftFixture as DriftEventPayload;
const plan = planFixture as UpgradePlanPayload;

describe("renderSlackMessage: drift", () => {
  it("gives a fallback text and mrkdwn blocks", () => {
    expect(renderSlackMessage(drift)).toEqual({
      text: "Drift detected: web in production (newer release upstream)",
      blocks: [
        {
          type: "section",
          text: {
            type: "mrkdwn",
            text: "*Drift detected:* <https://driftwatch.example.com/services/web|web> in *production* (newer release upstream)\nweb in production is behind the newest release.",
          },
        },
        {
          type: "section",
          fields: [
            { type: "mrkdwn", text: "*Kind*\nNewer release upstream" },
            { type: "mrkdwn", text: "*Running*\n1.25.0" },
            { type: "mrkdwn", text: "*Expected*\n1.27.3" },
            { type: "mrkdwn", text: "*Team*\npayments" },
            { type: "mrkdwn", text: "*Open since*\n2026-11-20T10:00:00.000Z" },
          ],
        },
        { type: "context", elements: [{ type: "mrkdwn", text: "Driftwatch · acme · event evt_01JD3W8Q5K2R9" }] },
      ],
    });
  });

  it("words a resolved drift", () => {
    const message = renderSlackMessage({ ...drift, event: "drift_resolved", state: "resolved", running: "1.27.3", resolved_at: "2026-11-21T08:00:00.000Z" });
    expect(message.text).toBe("Drift resolved: web in production (newer release upstream)");
    expect(JSON.stringify(message.blocks)).toContain("newer release upstream has ended");
    expect(JSON.stringify(message.blocks)).toContain("*Resolved at*\\n2026-11-21T08:00:00.000Z");
  });

  it("escapes &, < and > everywhere, so mentions and links cannot be injected", () => {
    const message = renderSlackMessage({ ...drift, service: "<!channel> & co", environment: "<https://evil.example|prod>", running: "1.0 > 0.9" });
    const all = JSON.stringify(message);
    expect(all).not.toContain("<!channel>");
    expect(all).not.toContain("<https://evil.example");
    expect(message.text).toBe("Drift detected: &lt;!channel&gt; &amp; co in &lt;https://evil.example|prod&gt; (newer release upstream)");
    expect(all).toContain("1.0 &gt; 0.9");
  });
});

describe("renderSlackMessage: upgrade plan", () => {
  it("renders a checklist with release-notes links, dropping non-http links", () => {
    const message = renderSlackMessage(plan);
    expect(message.text).toBe("Weekly upgrade plan for acme: 4 upgrades");
    expect(message.blocks).toEqual([
      { type: "section", text: { type: "mrkdwn", text: "*Weekly upgrade plan for acme: 4 upgrades*" } },
      {
        type: "section",
        text: {
          type: "mrkdwn",
          text: [
            "☐ *postgres* (production): 13.16 → 17.2 · end of life passed · <https://www.postgresql.org/docs/release/17.2/|release notes>",
            "☐ *web* (production): 1.25.0 → 1.27.3 · minor release · <https://nginx.org/en/CHANGES-1.27|release notes>",
            "☐ *api* (staging): 2.3.0 → 2.4.1 · behind the previous environment",
            "☐ *redis* (staging): 7.2.4 → 7.2.6 · patch release",
          ].join("\n"),
        },
      },
      { type: "context", elements: [{ type: "mrkdwn", text: "Driftwatch · <https://driftwatch.example.com/updates|open the updates list>" }] },
    ]);
  });

  it("stays within Slack's block and section limits for a long plan", () => {
    const item: UpgradePlanItem = { service: "svc", environment: "production", running: "1.0.0", target_version: "2.0.0", reason: "major", release_notes_url: "https://example.com/notes", team: null, production: true };
    const items = Array.from({ length: 3000 }, (_, i) => ({ ...item, service: `service-${i}` }));
    const message = renderSlackMessage({ ...plan, items });
    expect(message.blocks.length).toBeLessThanOrEqual(SLACK_MAX_BLOCKS);
    for (const block of message.blocks) {
      if (block.type === "section" && "text" in block) expect(block.text.text.length).toBeLessThanOrEqual(SLACK_MAX_SECTION_CHARS);
    }
    const last = message.blocks.at(-1);
    expect(last?.type === "section" && "text" in last ? last.text.text : "").toMatch(/^…and \d+ more in <https:\/\/driftwatch\.example\.com\/updates\|the updates list>\.$/);
    const shown = message.blocks.flatMap((b) => (b.type === "section" && "text" in b ? b.text.text.split("\n") : [])).filter((l) => l.startsWith("☐")).length;
    const more = Number(/…and (\d+) more/.exec(JSON.stringify(last))?.[1]);
    expect(shown + more).toBe(3000);
  });

  it("says so when there is nothing to upgrade", () => {
    expect(JSON.stringify(renderSlackMessage({ ...plan, items: [] }).blocks)).toContain("Nothing to upgrade this week.");
  });
});

describe("slack helpers", () => {
  it("escapes the three control characters", () => {
    expect(escapeSlack("a & b < c > d")).toBe("a &amp; b &lt; c &gt; d");
  });
  it("keeps a pipe in a URL from ending the link", () => {
    expect(slackLink("https://x.example/a|b", "notes")).toBe("<https://x.example/a%7Cb|notes>");
    expect(slackLink("ftp://x.example/", "notes")).toBe("notes");
  });
});

describe("renderSlackMessage: gate refused", () => {
  it("is one short line with a link to the service", () => {
    const m = renderSlackMessage(gateFixture as GateRefusedPayload);
    expect(m.text).toBe("Gate refused web 3.0.0 in production: 20 hours of soak left in staging (3.0.0 ran 4 hours of 1 day)");
    expect(m.blocks).toEqual([
      { type: "section", text: { type: "mrkdwn", text: "Gate refused web 3.0.0 in production: 20 hours of soak left in staging (3.0.0 ran 4 hours of 1 day)" } },
      { type: "context", elements: [{ type: "mrkdwn", text: "Driftwatch · acme · <https://driftwatch.example.com/services/web|open web>" }] },
    ]);
  });
});
