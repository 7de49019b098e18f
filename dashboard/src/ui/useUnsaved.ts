// Nothing lost by accident: an editor's state is compared with what was last loaded or saved;
// leaving the route with changes asks first (LeaveDialog), closing or reloading the tab gets the
// browser's own question (beforeunload), and Ctrl+S / Cmd+S submits the editor's own form (never
// another editor's form on the same screen, and not while its save is in flight).
import { computed, onBeforeUnmount, onMounted, ref } from "vue";
import { onBeforeRouteLeave, onBeforeRouteUpdate } from "vue-router";
import { holdsUnsavedText } from "./checks";
import { askLeave, watchEditor } from "./leave";

export interface UnsavedOptions {
  /** False for a read-only viewer: nothing to lose, nothing to save. Default: always on. */
  enabled?: () => boolean;
  /** The form Ctrl+S submits when focus is in no form; its controls' unparsed text also counts as a change. */
  form?: () => HTMLFormElement | null | undefined;
  /** Further forms of this editor: Ctrl+S with focus in one submits that one. */
  forms?: () => (HTMLFormElement | null | undefined)[];
  /** A save is in flight: Ctrl+S does nothing meanwhile. */
  busy?: () => boolean;
}

/**
 * `snapshot`: the editable state (plain data). Call `markSaved()` once it is loaded and after
 * each successful save; until the first call nothing counts as changed.
 *
 * @example
 * const { dirty, markSaved } = useUnsaved(() => values.value, { enabled: () => !readOnly, form: () => formEl.value });
 */
export function useUnsaved(snapshot: () => unknown, options: UnsavedOptions = {}) {
  const baseline = ref<string>();
  const current = computed(() => JSON.stringify(snapshot()));
  const enabled = () => options.enabled?.() ?? true;
  /** The state differs from the last loaded or saved one. */
  const dirty = computed(() => enabled() && baseline.value !== undefined && current.value !== baseline.value);
  /** Also counts typed text the state cannot hold yet (invalid JSON, a half-typed number). */
  const hasChanges = () => dirty.value || (enabled() && holdsUnsavedText(options.form?.()));
  const markSaved = () => {
    baseline.value = current.value;
  };
  /**
   * The state `sent` (a snapshot taken before the request) is saved: edits typed while the save
   * was in flight still count as changes.
   */
  const markSavedAs = (sent: unknown) => {
    baseline.value = JSON.stringify(sent);
  };
  /** The editable state now (a copy): take it before sending, for `markSavedAs`. */
  const state = (): unknown => JSON.parse(current.value);
  /** Something was edited since `sent` was taken (while its save was in flight). */
  const changedSince = (sent: unknown) => JSON.stringify(sent) !== current.value;
  /** Changes the baseline in place (a part saved on its own, such as a removed field). */
  const rebase = (change: (saved: unknown) => unknown) => {
    if (baseline.value !== undefined) baseline.value = JSON.stringify(change(JSON.parse(baseline.value)));
  };

  /** The last loaded or saved state (a copy), or undefined before the first `markSaved()`. */
  const saved = (): unknown => (baseline.value === undefined ? undefined : JSON.parse(baseline.value));

  const guard = async () => !hasChanges() || (await askLeave());
  onBeforeRouteLeave(guard);
  onBeforeRouteUpdate(guard);

  const onBeforeUnload = (event: BeforeUnloadEvent) => {
    if (!hasChanges()) return;
    event.preventDefault();
    event.returnValue = "";
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (!(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey || event.key.toLowerCase() !== "s") return;
    // Never the browser's "Save page as": on an editor, Ctrl+S means save the edits.
    event.preventDefault();
    // Unchanged: nothing to save (a save would still tell webhooks the item changed).
    if (!enabled() || event.repeat || options.busy?.() || !hasChanges()) return;
    const focused = document.activeElement instanceof HTMLElement ? document.activeElement.closest("form") : null;
    const own = options.form?.();
    // Focus in a form this editor does not own: that form is someone else's to save.
    if (focused && focused !== own && !options.forms?.().includes(focused)) return;
    (focused ?? own)?.requestSubmit();
  };
  let unwatch: (() => void) | undefined;
  onMounted(() => {
    unwatch = watchEditor(hasChanges);
    window.addEventListener("beforeunload", onBeforeUnload);
    window.addEventListener("keydown", onKeyDown);
  });
  onBeforeUnmount(() => {
    unwatch?.();
    window.removeEventListener("beforeunload", onBeforeUnload);
    window.removeEventListener("keydown", onKeyDown);
  });
  return { dirty, hasChanges, markSaved, markSavedAs, state, changedSince, rebase, saved };
}
