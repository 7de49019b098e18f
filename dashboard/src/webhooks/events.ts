import type { Webhook } from "../types";
export const EVENTS: Webhook["events"] = ["content.created", "content.updated", "content.deleted", "content.published", "content.unpublished", "form.submitted"];
export const FORMATS: Webhook["format"][] = ["service", "code_host_repository_dispatch"];
