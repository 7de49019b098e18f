// A screen's actions (save, delete, revoke…): one error and one success message, shown in place.
import { ref } from "vue";
import { errorMessage } from "../api";

export function useAction() {
  const error = ref("");
  const message = ref("");
  /** Runs `fn`; on success shows `done` and resolves true, on failure shows the API's message. */
  async function run(fn: () => Promise<unknown>, done = ""): Promise<boolean> {
    error.value = "";
    message.value = "";
    try {
      await fn();
      message.value = done;
      return true;
    } catch (e) {
      error.value = errorMessage(e);
      return false;
    }
  }
  return { error, message, run };
}
