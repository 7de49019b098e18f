// The signed-in session: the access token lives in memory only, the refresh token in
// sessionStorage (this tab, gone with it), never localStorage and never a URL. The access token
// is refreshed in the background a minute before it expires, which also re-reads role and grants.
//
// A refresh token works once: the server treats a second use as theft and ends the whole sign-in.
// So this tab never presents one twice: its refreshes run one at a time, and across tabs (a
// duplicated tab starts with a copy of this tab's sessionStorage) they take a Web Lock, and a tab
// that spends a token tells the others over a BroadcastChannel, so a tab holding the same token
// takes the new pair instead of presenting the spent one.
import { reactive } from "vue";
import { api, setAccessToken, setUnauthorizedHandler, statusOf } from "./api";
import type { Grant, Me, TokenPair } from "./types";

const REFRESH_KEY = "contentsvc.refresh";
const EARLY_MS = 60_000;
/** A tab that took another tab's pair refreshes later than it, so the two do not race. */
const FOLLOWER_EARLY_MS = 30_000;

/** `ended`: the server refused to refresh (expired or revoked): the sign-in screen says so. */
export const session = reactive({ me: undefined as Me | undefined, ready: false, ended: false });
let timer: ReturnType<typeof setTimeout> | undefined;
let refreshing: Promise<boolean> | undefined;

const channel = typeof BroadcastChannel === "function" ? new BroadcastChannel("contentsvc.session") : undefined;
type Rotation = { spent: string; pair: TokenPair };
channel?.addEventListener("message", (event: MessageEvent<Rotation>) => {
  const { spent, pair } = event.data;
  if (spent && pair && sessionStorage.getItem(REFRESH_KEY) === spent) void adopt(pair, FOLLOWER_EARLY_MS).catch(() => undefined);
});

async function adopt(pair: TokenPair, early = EARLY_MS): Promise<void> {
  setAccessToken(pair.access_token);
  sessionStorage.setItem(REFRESH_KEY, pair.refresh_token);
  session.ended = false;
  clearTimeout(timer);
  timer = setTimeout(() => void refreshNow(), Math.max(5_000, pair.expires_in * 1000 - early));
  session.me = await api.me();
}

/** Runs `fn` holding the browser-wide refresh lock (Web Locks), or directly where there are none. */
function exclusively<R>(fn: () => Promise<R>): Promise<R> {
  const locks = typeof navigator === "object" ? navigator.locks : undefined;
  return locks ? (locks.request("contentsvc.refresh", fn) as Promise<R>) : fn();
}

/** Exchanges the stored refresh token for a new pair; false (and signed out) when it is refused. */
export function refreshNow(): Promise<boolean> {
  const held = sessionStorage.getItem(REFRESH_KEY);
  refreshing ??= exclusively(async () => {
    const token = sessionStorage.getItem(REFRESH_KEY);
    if (!token) return false;
    // Another tab spent the token while this one waited, and this tab took its pair.
    if (held && token !== held) return true;
    try {
      const pair = await api.refresh(token);
      channel?.postMessage({ spent: token, pair } satisfies Rotation);
      await adopt(pair);
      return true;
    } catch (error) {
      forget();
      session.ended = statusOf(error) === 401;
      return false;
    }
  }).finally(() => (refreshing = undefined));
  return refreshing;
}

function forget(): void {
  clearTimeout(timer);
  setAccessToken(undefined);
  sessionStorage.removeItem(REFRESH_KEY);
  session.me = undefined;
}

export async function signIn(email: string, password: string): Promise<void> {
  await adopt(await api.login(email, password));
}

export async function signOut(): Promise<void> {
  const token = sessionStorage.getItem(REFRESH_KEY) ?? undefined;
  await api.logout(token).catch(() => undefined);
  forget();
}

/** On start: resume this tab's session if it has a refresh token. */
export async function resume(): Promise<void> {
  setUnauthorizedHandler(refreshNow);
  await refreshNow();
  session.ready = true;
}

/** True when the session holds `grant` in effect: the server's own answer (owners hold everything). */
export function can(grant: Grant): boolean {
  return session.me?.effective_grants.includes(grant) ?? false;
}
export const isOwner = () => session.me?.role === "owner";
