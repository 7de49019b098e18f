/**
 * contentsvc: a multi-tenant headless content service as an embeddable h3 v2 app.
 *
 * @example
 * import { createService } from "contentsvc";
 * import { createServer } from "node:http";
 * const svc = await createService();
 * createServer(svc.handler).listen(3000);
 */
export { createService, type Service, type ServiceOptions } from "./service.js";
export type { ServiceContext } from "./services/context.js";
export type { WorkspaceBootstrap } from "./services/bootstrap.js";
export type { RequestLogLine, RequestLogger } from "./http/request-log.js";
export type { MailMessage, MailSender } from "./services/mail.js";
export { ServiceError, isServiceError } from "./core/errors.js";
export { EVENT_NAMES, type EventName, type ServiceEvent } from "./core/events.js";
export type { Sql, Dialect } from "./storage/sql.js";
export { openDatabase } from "./storage/open.js";
