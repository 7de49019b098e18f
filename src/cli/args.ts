/** Parsing helpers shared by the command groups: repeatable flags, name=value pairs, JSON flags, choices. */
import { Option } from "commander";
import { UsageError } from "./errors.js";

/**
 * An option whose value is one of `choices` (the core's own list): any other value is a usage
 * error naming the allowed ones, before anything is opened.
 */
export function choiceOption(flags: string, description: string, choices: readonly string[], defaultValue?: string): Option {
  const option = new Option(flags, description).choices(choices);
  return defaultValue === undefined ? option : option.default(defaultValue);
}

/** Commander collector for a repeatable flag. */
export const collect = (value: string, previous: string[]) => [...previous, value];

export function splitPair(pair: string, flag: string): [string, string] {
  const i = pair.indexOf("=");
  if (i <= 0) throw new UsageError(`${flag} ${pair}: expected name=value`);
  return [pair.slice(0, i), pair.slice(i + 1)];
}

export function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new UsageError(`${what}: invalid JSON (${(error as Error).message})`);
  }
}

export function parseJsonObject(text: string, what: string): Record<string, unknown> {
  const value = parseJson(text, what);
  if (!value || typeof value !== "object" || Array.isArray(value)) throw new UsageError(`${what}: expected a JSON object`);
  return value as Record<string, unknown>;
}

/** `true`/`false` (also on/off, yes/no) from a flag value; anything else is a usage error. */
export function parseBoolean(text: string, flag: string): boolean {
  const t = text.trim().toLowerCase();
  if (["true", "on", "yes", "1"].includes(t)) return true;
  if (["false", "off", "no", "0"].includes(t)) return false;
  throw new UsageError(`${flag} takes true or false, got ${JSON.stringify(text)}`);
}

/** A non-negative integer flag value. */
export function parseCount(text: string, flag: string): number {
  if (!/^\d+$/.test(text.trim())) throw new UsageError(`${flag} takes a whole number, got ${JSON.stringify(text)}`);
  return Number(text);
}
