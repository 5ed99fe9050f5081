// The frame of every signed-in page: brand, navigation, who is signed in.
import Link from "next/link";
import { signOut } from "@/lib/http/auth";

export type NavKey = "matrix" | "updates" | "promotions" | "delivery" | "report" | "settings";

const NAV: { key: NavKey; href: string; label: string }[] = [
  { key: "matrix", href: "/", label: "Matrix" },
  { key: "updates", href: "/updates", label: "Updates" },
  { key: "promotions", href: "/promotions", label: "Promotions" },
  { key: "delivery", href: "/delivery", label: "Delivery" },
  { key: "report", href: "/report", label: "Report" },
  { key: "settings", href: "/settings", label: "Settings" },
];

async function signOutAction() {
  "use server";
  await signOut({ redirectTo: "/signin" });
}

function NavLinks({ current }: { current: NavKey | undefined }) {
  return NAV.map((item) => (
    <Link key={item.key} href={item.href} aria-current={item.key === current ? "page" : undefined}>
      {item.label}
    </Link>
  ));
}

export function AppShell({ current, workspace, email, children }: { current?: NavKey; workspace: string; email: string; children: React.ReactNode }) {
  return (
    <>
      <a className="skip-link" href="#main">Skip to content</a>
      <header className="shell-header">
        <Link href="/" className="brand" aria-label="Driftwatch home">
          <span className="brand-mark" aria-hidden="true" />
          Driftwatch
        </Link>
        <nav className="nav" aria-label="Main">
          <NavLinks current={current} />
        </nav>
        <div className="shell-user">
          <span title="Workspace">{workspace}</span>
          <span aria-hidden="true">·</span>
          <span className="shell-email">{email}</span>
          <form action={signOutAction}>
            <button type="submit" className="link">Sign out</button>
          </form>
        </div>
        {/* Narrow windows: the same links behind a menu button that needs no script (CSS shows one or the other). */}
        <details className="nav-menu">
          <summary>Menu</summary>
          <nav className="nav-menu-panel" aria-label="Main menu">
            <NavLinks current={current} />
          </nav>
        </details>
      </header>
      <main id="main" className="page">{children}</main>
    </>
  );
}
