/**
 * Command groups beyond serve/init/workspaces; each feature registers its own file here.
 */
import type { Command } from "commander";

export function registerCommands(_program: Command): void {}
