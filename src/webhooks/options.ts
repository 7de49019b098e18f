/**
 * Dispatcher options: validated once at creation (the error names the option), defaults applied.
 */
import { consola } from "consola";
import { systemClock } from "./clock.js";
import type { DispatcherLogger, DispatcherOptions } from "./types.js";

/** spec 6.6 and 6.7.1 defaults, plus the dispatcher's own bounds. */
export const DEFAULTS = {
  timeoutMs: 10_000,
  retryDelaysMs: [1000, 2000],
  coalesceMs: 500,
  maxConcurrency: 64,
  maxPerHost: 8,
  maxPending: 100_000,
  graceMs: 5000,
} as const;

/** The dispatcher's options with every default applied. */
export interface DispatcherSettings extends Required<Omit<DispatcherOptions, "lookup" | "ca" | "onAttempt">> {
  lookup: DispatcherOptions["lookup"];
  ca: DispatcherOptions["ca"];
  onAttempt: DispatcherOptions["onAttempt"];
}

/**
 * @example
 * resolveOptions({ source, timeoutMs: 0 }); // throws "contentsvc/webhooks: option timeoutMs must be a positive number"
 */
export function resolveOptions(options: DispatcherOptions): DispatcherSettings {
  if (!options || typeof options.source?.targetsFor !== "function") {
    throw new TypeError("contentsvc/webhooks: option source must have a targetsFor(workspaceId, event) function");
  }
  const resolved: DispatcherSettings = {
    source: options.source,
    allowPrivateTargets: options.allowPrivateTargets ?? false,
    lookup: options.lookup,
    ca: options.ca,
    onAttempt: options.onAttempt,
    timeoutMs: options.timeoutMs ?? DEFAULTS.timeoutMs,
    retryDelaysMs: [...(options.retryDelaysMs ?? DEFAULTS.retryDelaysMs)],
    coalesceMs: options.coalesceMs ?? DEFAULTS.coalesceMs,
    maxConcurrency: options.maxConcurrency ?? DEFAULTS.maxConcurrency,
    maxPerHost: options.maxPerHost ?? DEFAULTS.maxPerHost,
    maxPending: options.maxPending ?? DEFAULTS.maxPending,
    clock: options.clock ?? systemClock,
    logger: options.logger ?? (consola.withTag("webhooks") as DispatcherLogger),
    windows: options.windows ?? "memory",
  };
  positive("timeoutMs", resolved.timeoutMs);
  atLeast("coalesceMs", resolved.coalesceMs, 0);
  integer("maxConcurrency", resolved.maxConcurrency);
  integer("maxPerHost", resolved.maxPerHost);
  integer("maxPending", resolved.maxPending);
  if (!resolved.retryDelaysMs.every((ms) => Number.isFinite(ms) && ms >= 0)) {
    throw new TypeError("contentsvc/webhooks: option retryDelaysMs must be a list of non-negative numbers");
  }
  if (resolved.windows !== "memory" && typeof resolved.windows !== "function") {
    throw new TypeError('contentsvc/webhooks: option windows must be "memory" or a window store factory');
  }
  if (options.lookup !== undefined && typeof options.lookup !== "function") {
    throw new TypeError("contentsvc/webhooks: option lookup must be a function");
  }
  return resolved;
}

function positive(name: string, value: number): void {
  if (!(Number.isFinite(value) && value > 0)) throw new TypeError(`contentsvc/webhooks: option ${name} must be a positive number`);
}

function atLeast(name: string, value: number, min: number): void {
  if (!(Number.isFinite(value) && value >= min)) throw new TypeError(`contentsvc/webhooks: option ${name} must be a number >= ${min}`);
}

function integer(name: string, value: number): void {
  if (!(Number.isInteger(value) && value >= 1)) throw new TypeError(`contentsvc/webhooks: option ${name} must be an integer >= 1`);
}
