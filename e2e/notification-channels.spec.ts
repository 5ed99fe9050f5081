// Settings › Notifications offers every channel kind with its fields and
// help; a Shoutrrr address is accepted, bad settings are shown at the field.
// The Discord embed and Teams card the renderers produce are drawn as
// previews (no Discord or Teams client here) and kept with their JSON.
import { readFileSync, writeFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { renderDiscordMessage, type DiscordMessage } from "../lib/adapters/channels/discord/render";
import { renderTeamsMessage, type TeamsMessage } from "../lib/adapters/channels/teams/render";
import type { DriftEventPayload, UpgradePlanPayload } from "../lib/domain/notifications/payloads";
import { shot, signIn } from "./support/owner";

const fixture = (name: string): unknown => JSON.parse(readFileSync(`tests/fixtures/channels/${name}.json`, "utf8"));
const driftFixture = fixture("drift-detected");
const planFixture = fixture("upgrade-plan");

const KINDS = ["Webhook (signed JSON)", "Slack incoming webhook", "E-mail", "Microsoft Teams (Workflows)", "Discord", "Telegram", "ntfy", "Gotify", "Matrix", "MQTT", "PagerDuty"];

test("every channel kind is offered with its fields; Shoutrrr addresses work and bad input shows at the field", async ({ page }) => {
  await signIn(page);
  await page.goto("/settings/notifications");
  const channel = page.getByLabel("Channel", { exact: true });
  await expect(channel.locator("option")).toHaveText(KINDS);

  await channel.selectOption("matrix");
  await expect(page.getByLabel("Homeserver", { exact: true })).toBeVisible();
  await expect(page.getByLabel("Room id", { exact: true })).toBeVisible();
  await expect(page.getByLabel("Access token", { exact: true })).toHaveAttribute("type", "password");
  await expect(page.getByLabel("Bot token", { exact: true })).toBeHidden();

  // A wrong scheme: 422 from the service, shown at the field, nothing stored.
  await page.getByLabel("Name", { exact: true }).fill("Home Assistant");
  await channel.selectOption("mqtt");
  await page.getByLabel("Broker", { exact: true }).fill("http://homeassistant.example.com");
  await page.getByLabel("Topic", { exact: true }).fill("driftwatch/events");
  await page.getByRole("button", { name: "Add rule" }).click();
  await expect(page.locator("#nr-mqtt-url-err")).toHaveText("must be an mqtt:// or mqtts:// address");
  await expect(page.getByText("must be an mqtt:// or mqtts:// address")).toHaveCount(1);
  await expect(page.locator("ul.rules-list")).toHaveCount(0);

  await page.getByLabel("Broker", { exact: true }).fill("mqtts://ha:broker-pass@homeassistant.example.com:8883");
  await page.getByRole("checkbox", { name: /^Retain/ }).check();
  await page.getByRole("button", { name: "Add rule" }).click();
  await expect(page.getByText("Rule “Home Assistant” created.")).toBeVisible();

  await page.getByLabel("Name", { exact: true }).fill("Ops on Discord");
  await channel.selectOption("discord");
  await page.getByLabel("Webhook URL", { exact: true }).last().fill("discord://W3dE2OZz4C13_e2eSecretToken@693853386302554172");
  await page.getByRole("button", { name: "Add rule" }).click();
  await expect(page.getByText("Rule “Ops on Discord” created.")).toBeVisible();

  await page.getByLabel("Name", { exact: true }).fill("On call");
  await channel.selectOption("pagerduty");
  await page.getByLabel("Integration key", { exact: true }).fill("R0123456789abcdef0123456789ABCDE");
  await page.getByRole("button", { name: "Add rule" }).click();
  await expect(page.getByText("Rule “On call” created.")).toBeVisible();

  const rules = page.locator("ul.rules-list > li");
  await expect(rules).toHaveCount(3);
  await expect(page.locator("ul.rules-list")).toContainText("mqtts://ha:***@homeassistant.example.com:8883 · driftwatch/events");
  await expect(page.locator("ul.rules-list")).toContainText("https://discord.com/***");
  const html = await page.content();
  for (const secret of ["broker-pass", "e2eSecretToken", "R0123456789abcdef0123456789ABCDE"]) expect(html).not.toContain(secret);

  await page.getByLabel("Name", { exact: true }).fill("");
  await channel.selectOption("telegram");
  // From the top, so the sticky header is not drawn across the middle of the full-page picture.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: shot("settings-notifications-channels"), fullPage: true });
});

function md(text: string): string {
  const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  return esc(text)
    .replace(/\[([^\]]+)\]\((https?:[^)]+)\)/g, '<a href="$2">$1</a>')
    .replace(/\*\*(.+?)\*\*/g, "<strong>$1</strong>")
    .replace(/\\(.)/g, "$1")
    .replace(/\n/g, "<br>");
}

function discordPreview(messages: DiscordMessage[]): string {
  const embeds = messages.map(({ embeds: [e] }) => `
    <div class="msg"><div class="avatar">D</div><div><div class="who">Driftwatch <span class="bot">APP</span></div>
    <div class="embed" style="border-left-color:#${e.color.toString(16).padStart(6, "0")}">
      <a class="title" href="${e.url ?? "#"}">${md(e.title)}</a>
      <div class="desc">${md(e.description)}</div>
      ${e.fields?.length ? `<div class="fields">${e.fields.map((f) => `<div><div class="fname">${md(f.name)}</div><div>${md(f.value)}</div></div>`).join("")}</div>` : ""}
      <div class="foot">${md(e.footer.text)} • ${new Date(e.timestamp).toUTCString().slice(0, 22)}</div>
    </div></div></div>`);
  return `<!doctype html><meta charset="utf-8"><style>
    body{margin:0;padding:24px;background:#313338;color:#dbdee1;font:15px/1.4 system-ui,sans-serif;width:720px}
    .msg{display:flex;gap:14px;margin-bottom:22px}.avatar{width:40px;height:40px;border-radius:50%;background:#5865f2;display:grid;place-items:center;color:#fff;font-weight:700;flex:none}
    .who{font-weight:600;color:#f2f3f5;margin-bottom:4px}.bot{background:#5865f2;color:#fff;font-size:10px;padding:1px 4px;border-radius:3px;vertical-align:middle}
    .embed{background:#2b2d31;border-left:4px solid;border-radius:4px;padding:10px 16px 12px;max-width:520px}
    .title{color:#00a8fc;font-weight:600;text-decoration:none;display:block;margin:4px 0 6px}.desc{font-size:14px}.desc a{color:#00a8fc}
    .fields{display:grid;grid-template-columns:repeat(3,1fr);gap:8px;margin-top:10px;font-size:14px}.fname{font-weight:600;color:#f2f3f5}
    .foot{font-size:12px;color:#949ba4;margin-top:10px}</style>
    <p style="color:#949ba4;font-size:12px;margin:0 0 16px">Preview of renderDiscordMessage() output (lib/adapters/channels/discord/render.ts), drawn like Discord's embed</p>${embeds.join("")}`;
}

function teamsPreview(messages: TeamsMessage[]): string {
  const colour: Record<string, string> = { Attention: "#c4314b", Warning: "#c19c00", Accent: "#4f52b2", Good: "#237b4b", Default: "#242424" };
  const cards = messages.map(({ attachments: [{ content: c }] }) => `
    <div class="card">${c.body.map((el) => el.type === "TextBlock"
      ? `<div class="tb ${el.size ?? ""} ${el.isSubtle ? "subtle" : ""}" style="${el.weight ? "font-weight:700;" : ""}${el.color ? `color:${colour[el.color]}` : ""}">${md(el.text)}</div>`
      : `<table class="facts">${el.facts.map((f) => `<tr><th>${md(f.title)}</th><td>${md(f.value)}</td></tr>`).join("")}</table>`).join("")}
      <div class="actions">${c.actions.map((a) => `<a class="btn" href="${a.url}">${md(a.title)}</a>`).join("")}</div></div>`);
  return `<!doctype html><meta charset="utf-8"><style>
    body{margin:0;padding:24px;background:#f5f5f5;font:14px/1.45 "Segoe UI",system-ui,sans-serif;color:#242424;width:720px}
    .card{background:#fff;border-radius:6px;box-shadow:0 1px 3px rgba(0,0,0,.15);padding:16px 18px;margin-bottom:20px;max-width:560px}
    .tb{margin-bottom:8px}.Medium{font-size:17px}.Small{font-size:12px}.subtle{color:#616161}
    .facts{border-collapse:collapse;margin:4px 0 10px}.facts th{text-align:left;padding:2px 16px 2px 0;font-weight:600;vertical-align:top;white-space:nowrap}.facts td{padding:2px 0}
    .facts a{color:#4f52b2}.actions{margin-top:6px}.btn{display:inline-block;border:1px solid #d1d1d1;border-radius:4px;padding:6px 14px;color:#242424;text-decoration:none;font-weight:600}</style>
    <p style="color:#616161;font-size:12px;margin:0 0 16px">Preview of renderTeamsMessage() output (lib/adapters/channels/teams/render.ts), an Adaptive Card 1.4 drawn like Teams</p>${cards.join("")}`;
}

test("previews of a Discord embed and a Teams card, from the renderers' payloads", async ({ page }) => {
  const drift = driftFixture as DriftEventPayload;
  const payloads = [{ ...drift, kind: "eol" as const, running: "13.16", expected: "17.2", service: "postgres" }, drift, { ...drift, event: "drift_resolved" as const, state: "resolved" as const, resolved_at: "2026-11-21T09:00:00.000Z" }, planFixture as UpgradePlanPayload];
  const discord = payloads.map(renderDiscordMessage);
  const teams = payloads.map(renderTeamsMessage);
  writeFileSync("e2e/artifacts/discord-embed.json", `${JSON.stringify(discord, null, 2)}\n`);
  writeFileSync("e2e/artifacts/teams-card.json", `${JSON.stringify(teams, null, 2)}\n`);
  await page.setContent(discordPreview(discord));
  await expect(page.locator(".embed")).toHaveCount(4);
  await page.screenshot({ path: shot("discord-embed-preview"), fullPage: true });
  await page.setContent(teamsPreview(teams));
  await expect(page.locator(".card")).toHaveCount(4);
  await page.screenshot({ path: shot("teams-card-preview"), fullPage: true });
});
