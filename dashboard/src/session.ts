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
import { hasUnsavedEdits } from "./ui/leave";
import type { Grant, Me, TokenPair } from "./types";

const EARLY_MS = 60_000;
/** Waits between retries of a refresh that failed without a refusal; the last one repeats. */
const RETRY_MS = [5_000, 15_000, 30_000];

/**
 * Why the session ended, for the sign-in screen; "signed_out" when this browser signed out in
 * another tab; "unreachable" when the service could not be reached before the access token expired.
 */
export type EndReason = Exclude<RefreshRefusal, "missing"> | "signed_out" | "unreachable";

/** What an owner changed about this person's access, noticed at a background refresh. */
export interface AccessChange {
  added: Grant[];
  removed: Grant[];
  role?: { from: Me["role"]; to: Me["role"] };
}

/**
 * `ended` (with `reason`): the session ended while signed in, and the sign-in screen says why.
 * `me` set while `ended`: the screen is kept for its unsaved edits under a sign-in dialog.
 * `reconnecting`: a refresh failed without a refusal and is being retried.
 */
export const session = reactive({
  me: undefined as Me | undefined,
  ready: false,
  ended: false,
  reconnecting: false,
  reason: undefined as EndReason | undefined,
  change: undefined as AccessChange | undefined,
});
let timer: ReturnType<typeof setTimeout> | undefined;
let refreshing: Promise<boolean> | undefined;
/** When the current access token expires (ms since the epoch). */
let expiresAt = 0;
let retries = 0;

type Message = { type: "ended"; reason: EndReason } | { type: "signed-in" };
const channel = typeof BroadcastChannel === "function" ? new BroadcastChannel("contentsvc.session") : undefined;
channel?.addEventListener("message", (event: MessageEvent<Message>) => {
  const message = event.data;
  if (message?.type === "ended" && session.me) end(message.reason);
  // Another tab signed in: a tab showing the sign-in screen takes the session too.
  if (message?.type === "signed-in" && (!session.me || session.ended)) void refreshNow();
});

async function adopt(pair: TokenPair): Promise<void> {
  setAccessToken(pair.access_token);
  clearTimeout(timer);
  expiresAt = Date.now() + pair.expires_in * 1000;
  timer = setTimeout(() => void refreshNow(), Math.max(5_000, pair.expires_in * 1000 - EARLY_MS));
  const before = session.me;
  const me = await api.me();
  // Someone else signing in over a kept screen gets a fresh one (App.vue keys the shell by person).
  session.change = before && !samePerson(before, me) ? undefined : ((before && changeBetween(before, me)) ?? session.change);
  session.me = me;
  session.ended = false;
  session.reason = undefined;
  session.reconnecting = false;
  retries = 0;
}

export const samePerson = (a: Me, b: Me) => a.id === b.id && a.workspace.slug === b.workspace.slug;

/**
 * A refresh failed without a refusal: while the access token still works, keep the session and
 * try again later; once it has expired with the service still unreachable, the session ends.
 */
function retryLater(): void {
  const wait = RETRY_MS[Math.min(retries, RETRY_MS.length - 1)]!;
  const left = expiresAt - Date.now();
  if (left <= 1_000) return end("unreachable");
  retries += 1;
  session.reconnecting = true;
  clearTimeout(timer);
  // The last try lands just before the token expires, not after it.
  timer = setTimeout(() => void refreshNow(), Math.min(wait, Math.max(left - 1_000, 0)));
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
      const refused = statusOf(error) === 401;
      const reason = refused ? refusalOf(error) : undefined;
      if (!refused && session.me && !session.ended) retryLater();
      // "missing": this browser holds no session (a first visit, or signed out): nothing to tell.
      else if (reason && reason !== "missing") {
        end(reason);
        channel?.postMessage({ type: "ended", reason } satisfies Message);
      } else forget();
      return false;
    }
  }).finally(() => (refreshing = undefined));
  return refreshing;
}

function end(reason: EndReason): void {
  // Unsaved edits keep their screen (and `me`) under the sign-in dialog instead of unmounting.
  if (session.me && hasUnsavedEdits()) {
    clearTimeout(timer);
    setAccessToken(undefined);
    session.reconnecting = false;
  } else forget();
  session.ended = true;
  session.reason = reason;
}

function forget(): void {
  clearTimeout(timer);
  setAccessToken(undefined);
  session.me = undefined;
  session.change = undefined;
  session.reconnecting = false;
  retries = 0;
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
