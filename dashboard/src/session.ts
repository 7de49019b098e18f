// The signed-in session. The access token lives in memory only; the refresh token is an HttpOnly
// cookie this code never sees (no token in localStorage, sessionStorage or a URL), shared by every
// tab of the browser, so a new tab or a link opened in one continues the session. The access token
// is short-lived and refreshed in the background before it expires, which also re-reads role and
// grants: an owner's change is felt within minutes.
//
// A refresh token works once: the server treats a second use as theft and ends the whole sign-in.
// Each refresh rotates the shared cookie, so refreshes run strictly one after another across tabs
// (a Web Lock): each tab's request carries the cookie the previous one received, and gets its own
// access token. Signing out, or a refused refresh, is told to the other tabs (BroadcastChannel).
import { reactive } from "vue";
import { api, setAccessToken, setUnauthorizedHandler, statusOf, type RefreshRefusal } from "./api";
import type { Grant, Me, TokenPair } from "./types";

const EARLY_MS = 60_000;

/** Why the session ended, for the sign-in screen; "signed_out" when this browser signed out in another tab. */
export type EndReason = Exclude<RefreshRefusal, "missing"> | "signed_out";

/** What an owner changed about this person's access, noticed at a background refresh. */
export interface AccessChange {
  added: Grant[];
  removed: Grant[];
  role?: { from: Me["role"]; to: Me["role"] };
}

/** `ended` (with `reason`): the session ended while signed in, and the sign-in screen says why. */
export const session = reactive({
  me: undefined as Me | undefined,
  ready: false,
  ended: false,
  reason: undefined as EndReason | undefined,
  change: undefined as AccessChange | undefined,
});
let timer: ReturnType<typeof setTimeout> | undefined;
let refreshing: Promise<boolean> | undefined;

type Message = { type: "ended"; reason: EndReason } | { type: "signed-in" };
const channel = typeof BroadcastChannel === "function" ? new BroadcastChannel("contentsvc.session") : undefined;
channel?.addEventListener("message", (event: MessageEvent<Message>) => {
  const message = event.data;
  if (message?.type === "ended" && session.me) end(message.reason);
  // Another tab signed in: a tab showing the sign-in screen takes the session too.
  if (message?.type === "signed-in" && !session.me) void refreshNow();
});

async function adopt(pair: TokenPair): Promise<void> {
  setAccessToken(pair.access_token);
  clearTimeout(timer);
  timer = setTimeout(() => void refreshNow(), Math.max(5_000, pair.expires_in * 1000 - EARLY_MS));
  const before = session.me;
  const me = await api.me();
  session.change = (before && changeBetween(before, me)) ?? session.change;
  session.me = me;
  session.ended = false;
  session.reason = undefined;
}

/** Runs `fn` holding the browser-wide refresh lock (Web Locks), or directly where there are none. */
function exclusively<R>(fn: () => Promise<R>): Promise<R> {
  const locks = typeof navigator === "object" ? navigator.locks : undefined;
  return locks ? (locks.request("contentsvc.refresh", fn) as Promise<R>) : fn();
}

/** Exchanges the refresh cookie for a new access token; false (and signed out) when it is refused. */
export function refreshNow(): Promise<boolean> {
  refreshing ??= exclusively(async () => {
    try {
      await adopt(await api.refresh());
      return true;
    } catch (error) {
      const reason = statusOf(error) === 401 ? refusalOf(error) : undefined;
      // "missing": this browser holds no session (a first visit, or signed out): nothing to tell.
      if (reason && reason !== "missing") {
        end(reason);
        channel?.postMessage({ type: "ended", reason } satisfies Message);
      } else forget();
      return false;
    }
  }).finally(() => (refreshing = undefined));
  return refreshing;
}

function end(reason: EndReason): void {
  forget();
  session.ended = true;
  session.reason = reason;
}

function forget(): void {
  clearTimeout(timer);
  setAccessToken(undefined);
  session.me = undefined;
  session.change = undefined;
}

export async function signIn(email: string, password: string): Promise<void> {
  await adopt(await api.login(email, password));
  channel?.postMessage({ type: "signed-in" } satisfies Message);
}

/** Signs out this browser: the server ends the sign-in and clears the cookie; the other tabs follow. */
export async function signOut(): Promise<void> {
  // No lock needed: the server ends the whole sign-in, whichever rotation of the cookie it sees.
  await api.logout().catch(() => undefined);
  forget();
  session.ended = false;
  session.reason = undefined;
  channel?.postMessage({ type: "ended", reason: "signed_out" } satisfies Message);
}

/** On start: continue this browser's session, if its cookie holds one. */
export async function resume(): Promise<void> {
  setUnauthorizedHandler(refreshNow);
  await refreshNow();
  session.ready = true;
}

/** The notice of an access change has been read. */
export function dismissChange(): void {
  session.change = undefined;
}

/** True when the session holds `grant` in effect: the server's own answer (owners hold everything). */
export function can(grant: Grant): boolean {
  return session.me?.effective_grants.includes(grant) ?? false;
}
export const isOwner = () => session.me?.role === "owner";

/** What changed between two answers of /me for the same person, or undefined when nothing did. */
export function changeBetween(before: Me, after: Me): AccessChange | undefined {
  if (before.id !== after.id) return undefined;
  const added = after.effective_grants.filter((g) => !before.effective_grants.includes(g));
  const removed = before.effective_grants.filter((g) => !after.effective_grants.includes(g));
  const role = before.role === after.role ? undefined : { from: before.role, to: after.role };
  return added.length || removed.length || role ? { added, removed, role } : undefined;
}

function refusalOf(error: unknown): RefreshRefusal {
  const reason = (error as { data?: { reason?: unknown } }).data?.reason;
  const known: RefreshRefusal[] = ["expired", "revoked", "reused", "member_removed", "missing"];
  return known.includes(reason as RefreshRefusal) ? (reason as RefreshRefusal) : "revoked";
}
