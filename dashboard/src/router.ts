// Routes: every screen is its own lazily loaded chunk, so the first screen stays small.
import { createRouter, createWebHistory, type RouteRecordRaw } from "vue-router";
import type { Grant } from "./types";

declare module "vue-router" {
  interface RouteMeta {
    needs?: Grant | "owner";
    title?: string;
  }
}

const routes: RouteRecordRaw[] = [
  { path: "/", component: () => import("./shell/Home.vue"), meta: { title: "Overview" } },
  { path: "/collections", component: () => import("./collections/CollectionList.vue"), meta: { needs: "collections:read", title: "Collections" } },
  { path: "/collections/new", component: () => import("./collections/CollectionEdit.vue"), meta: { needs: "collections:write", title: "New collection" } },
  { path: "/collections/:name/definition", component: () => import("./collections/CollectionEdit.vue"), meta: { needs: "collections:read", title: "Collection" } },
  { path: "/collections/:name", component: () => import("./entries/EntryList.vue"), meta: { needs: "entries:read", title: "Entries" } },
  { path: "/collections/:name/new", component: () => import("./entries/EntryEdit.vue"), meta: { needs: "entries:write", title: "New entry" } },
  { path: "/collections/:name/:id", component: () => import("./entries/EntryEdit.vue"), meta: { needs: "entries:read", title: "Entry" } },
  { path: "/media", component: () => import("./media/MediaLibrary.vue"), meta: { needs: "media:read", title: "Media" } },
  { path: "/forms", component: () => import("./forms/FormList.vue"), meta: { needs: "forms:read", title: "Forms" } },
  { path: "/forms/new", component: () => import("./forms/FormEdit.vue"), meta: { needs: "forms:write", title: "New form" } },
  { path: "/forms/:slug", component: () => import("./forms/FormEdit.vue"), meta: { needs: "forms:read", title: "Form" } },
  { path: "/end-users", component: () => import("./endusers/EndUsers.vue"), meta: { needs: "users:read", title: "End users" } },
  { path: "/rules", component: () => import("./rules/RuleList.vue"), meta: { needs: "rules:read", title: "Rules" } },
  { path: "/site", component: () => import("./site/SiteDeploys.vue"), meta: { needs: "sites:read", title: "Site" } },
  { path: "/access", redirect: "/access/members" },
  { path: "/access/members", component: () => import("./members/Members.vue"), meta: { needs: "owner", title: "Users & API Keys" } },
  { path: "/access/keys", component: () => import("./keys/ApiKeys.vue"), meta: { needs: "owner", title: "Users & API Keys" } },
  { path: "/webhooks", component: () => import("./webhooks/WebhookList.vue"), meta: { needs: "owner", title: "Webhooks" } },
  { path: "/webhooks/new", component: () => import("./webhooks/WebhookEdit.vue"), meta: { needs: "owner", title: "New webhook" } },
  { path: "/webhooks/:id", component: () => import("./webhooks/WebhookEdit.vue"), meta: { needs: "owner", title: "Webhook" } },
  { path: "/webhooks/:id/settings", component: () => import("./webhooks/WebhookSettings.vue"), meta: { needs: "owner", title: "Webhook settings" } },
  { path: "/identity", component: () => import("./identity/IdentitySettings.vue"), meta: { needs: "owner", title: "Identity settings" } },
  { path: "/:rest(.*)*", component: () => import("./shell/NotFound.vue"), meta: { title: "Not found" } },
];

export const router = createRouter({ history: createWebHistory("/_/"), routes });
router.afterEach((to) => {
  document.title = `${to.meta.title ?? "Dashboard"} · contentsvc`;
});
