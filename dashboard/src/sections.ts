// The dashboard's sections and what each needs: the navigation and the route guard read this one
// table, so a section a member cannot use is neither listed nor reachable.
import type { Grant } from "./types";

export interface Section {
  name: string;
  label: string;
  path: string;
  /** A grant that reaches it (read), or owner-only. */
  needs: Grant | "owner";
  identityOnly?: boolean;
}

export const SECTIONS: Section[] = [
  { name: "collections", label: "Collections", path: "/collections", needs: "collections:read" },
  { name: "media", label: "Media", path: "/media", needs: "media:read" },
  { name: "forms", label: "Forms", path: "/forms", needs: "forms:read" },
  { name: "endusers", label: "End users", path: "/end-users", needs: "users:read", identityOnly: true },
  { name: "rules", label: "Rules", path: "/rules", needs: "rules:read" },
  { name: "site", label: "Site", path: "/site", needs: "sites:read" },
  { name: "access", label: "Users & API Keys", path: "/access", needs: "owner" },
  { name: "webhooks", label: "Webhooks", path: "/webhooks", needs: "owner" },
  { name: "identity", label: "Identity settings", path: "/identity", needs: "owner" },
];
