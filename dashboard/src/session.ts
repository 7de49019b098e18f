// The signed-in session: the access token lives in memory only, the refresh token in
// sessionStorage (this tab, gone with it), never localStorage and never a URL. The access token
// is refreshed in the background a minute before it expires, which also re-reads role and grants.
import { reactive } from "vue";
import { api, setAccessToken, setUnauthorizedHandler } from "./api";
import type { Grant, Me, Resource, TokenPair } from "./types";

const REFRESH_KEY = "contentsvc.refresh";
const EARLY_MS = 60_000;

export const session = reactive({ me: undefined as Me | undefined, ready: false });
let timer: ReturnType<typeof setTimeout> | undefined;
let refreshing: Promise<boolean> | undefined;

async function adopt(pair: TokenPair): Promise<void> {
  setAccessToken(pair.access_token);
  sessionStorage.setItem(REFRESH_KEY, pair.refresh_token);
  clearTimeout(timer);
  timer = setTimeout(() => void refreshNow(), Math.max(5_000, pair.expires_in * 1000 - EARLY_MS));
  session.me = await api.me();
}

/** Exchanges the stored refresh token for a new pair; false (and signed out) when it is refused. */
export function refreshNow(): Promise<boolean> {
  refreshing ??= (async () => {
    const token = sessionStorage.getItem(REFRESH_KEY);
    if (!token) return false;
    try {
      await adopt(await api.refresh(token));
      return true;
    } catch {
      forget();
      return false;
    }
  })().finally(() => (refreshing = undefined));
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

const holds = (grants: readonly Grant[], grant: Grant) => {
  const [resource, action] = grant.split(":") as [Resource, "read" | "write"];
  if (grants.includes(grant)) return true;
  if (action === "read" && grants.includes(`${resource}:write`)) return true;
  // The two cross-resource implications of the API: entries ⇒ collections:read, submissions ⇒ forms:read.
  if (grant === "collections:read") return grants.some((g) => g.startsWith("entries:"));
  if (grant === "forms:read") return grants.some((g) => g.startsWith("submissions:"));
  return false;
};

/** True when the session holds `grant` as the API checks it (owners hold everything). */
export function can(grant: Grant): boolean {
  const me = session.me;
  return !!me && (me.role === "owner" || holds(me.grants, grant));
}
export const isOwner = () => session.me?.role === "owner";
