/** The in-process window store (the default) through the window store conformance suite. */
import { createDispatcher } from "../../src/webhooks/index.js";
import type { DispatcherOptions } from "../../src/webhooks/index.js";
import { describeWindowStore } from "./window-store-conformance.js";

describeWindowStore("memory", { shared: false, persistent: false, latencyMs: 0 }, async () => ({
  workspaceId: "ws-1",
  async instance(options) {
    const dispatcher = createDispatcher({ ...(options as DispatcherOptions), windows: "memory" });
    return { dispatcher, emit: async (event) => dispatcher.emit(event) };
  },
  cleanup: async () => undefined,
}));
