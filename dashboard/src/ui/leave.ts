// The one "leave without saving?" question of the app: an editor asks, LeaveDialog (mounted once
// in App.vue) shows it as a modal dialog and answers.
import { shallowRef } from "vue";

/** The pending question's answer callback, while the dialog is open. */
export const leaveQuestion = shallowRef<(leave: boolean) => void>();

/** Asks whether to drop unsaved changes; resolves true for "Leave without saving". */
export function askLeave(): Promise<boolean> {
  leaveQuestion.value?.(false);
  return new Promise((resolve) => {
    leaveQuestion.value = (leave) => {
      leaveQuestion.value = undefined;
      resolve(leave);
    };
  });
}

/** The mounted editors' change checks: actions outside the router (signing out) ask too. */
const editors = new Set<() => boolean>();
export function watchEditor(hasChanges: () => boolean): () => void {
  editors.add(hasChanges);
  return () => editors.delete(hasChanges);
}
/** True when a mounted editor holds unsaved changes. */
export const hasUnsavedEdits = () => [...editors].some((changed) => changed());

/** Resolves true when nothing unsaved is open, or the person chose to drop it. */
export async function mayDropEdits(): Promise<boolean> {
  return !hasUnsavedEdits() || (await askLeave());
}
