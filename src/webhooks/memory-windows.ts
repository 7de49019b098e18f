/**
 * The default window store: windows per process (spec 6.6 Persistence: pending deliveries are held
 * in memory), on the shared local timers of timed-windows.ts. Every instance owns what it put in.
 */
import { createTimedWindows } from "./timed-windows.js";
import type { WindowStoreFactory } from "./window-store.js";

/**
 * @example
 * createDispatcher({ source, windows: memoryWindowStore }); // the same as windows: "memory"
 */
export const memoryWindowStore: WindowStoreFactory = (context) => createTimedWindows({ put() {}, take: () => true }, context);
