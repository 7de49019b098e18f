/**
 * First run: an empty data directory gets a ready-to-try demo workspace.
 */
import type { ServiceContext } from "../service-context.js";

export interface DemoCredentials {
  hosts: string[];
  owner?: { email: string; password: string };
  apiKey?: string;
}

/** Creates the demo workspace when there is no workspace at all; otherwise does nothing. */
export async function bootstrapDemo(ctx: ServiceContext): Promise<DemoCredentials | undefined> {
  if ((await ctx.workspaces.count()) > 0) return undefined;
  const ws = await ctx.workspaces.create({ slug: "demo", hosts: ["localhost", "demo.localhost"], name: "Demo", identity: true });
  return { hosts: ws.hosts };
}
