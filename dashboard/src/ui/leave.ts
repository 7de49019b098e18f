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
