export const EVENTS = ["content.created", "content.updated", "content.deleted", "content.published", "content.unpublished", "form.submitted"];
export const FORMATS = ["service", "code_host_repository_dispatch"];
