// Settings pages share the shell and a side navigation.
import Link from "next/link";
import { AppShell } from "@/components/app-shell";

export type SettingsKey = "environments" | "agents" | "compose" | "notifications" | "users" | "tokens" | "registries" | "sharing";

const ITEMS: { key: SettingsKey; href: string; label: string; hint: string }[] = [
  { key: "environments", href: "/settings/environments", label: "Environments", hint: "Pipeline order, production" },
  { key: "agents", href: "/settings/agents", label: "Agents and targets", hint: "Keys, last reports" },
  { key: "compose", href: "/settings/compose", label: "Compose in Git", hint: "Declared versions" },
  { key: "notifications", href: "/settings/notifications", label: "Notifications", hint: "Rules, test sends" },
  { key: "users", href: "/settings/users", label: "Users", hint: "People and roles" },
  { key: "tokens", href: "/settings/tokens", label: "API tokens", hint: "Scripts and the CLI" },
  { key: "registries", href: "/settings/registries", label: "Registries", hint: "Pull budgets the server keeps" },
  { key: "sharing", href: "/settings/sharing", label: "Calendar and badges", hint: "Addresses without sign-in" },
];

export function SettingsFrame({ current, workspace, email, children }: { current: SettingsKey; workspace: string; email: string; children: React.ReactNode }) {
  return (
    <AppShell current="settings" workspace={workspace} email={email}>
      <div className="settings">
        <nav className="settings-nav" aria-label="Settings">
          <p className="settings-title">Settings</p>
          <ul>
            {ITEMS.map((item) => (
              <li key={item.key}>
                <Link href={item.href} aria-current={item.key === current ? "page" : undefined}>
                  {item.label}
                  <span className="sub">{item.hint}</span>
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <div className="settings-body">{children}</div>
      </div>
    </AppShell>
  );
}
