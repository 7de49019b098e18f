// A screen's actions (save, delete, revoke…): one error and one success message, shown in place.
// A refusal that names a field (`{error, field}`, e.g. "fields.0.name") is shown beside that
// field when the form has it (fieldError), else with the form (formError).
import { computed, ref } from "vue";
import { errorField, errorMessage } from "../api";
import { defaultKey, firstInvalid } from "./checks";

/** `fields`: the field names the form shows its own error beside (a getter when rows come and go). */
/** `fieldOf`: where the form shows a field the API names (e.g. a rule's condition path → its input). */
export function useAction(fields: readonly string[] | (() => readonly string[]) = [], fieldOf: (named: string) => string = (named) => named) {
  const error = ref("");
  const message = ref("");
  /** The field the last refusal named, if any. */
  const field = ref<string>();
  /** An action is in flight: a second `run` meanwhile is ignored (a double click saves once). */
  const busy = ref(false);
  const shown = () => (typeof fields === "function" ? fields() : fields);
  /** The message to show beside field `name`: set only when the refusal named it. */
  const fieldError = (name: string) => (field.value === name ? error.value : "");
  /** The message to show with the form: a refusal no field of the form shows. */
  const formError = computed(() => (field.value !== undefined && shown().includes(field.value) ? "" : error.value));
  /**
   * Runs `fn`; on success shows `done` and resolves true, on failure shows the API's message,
   * unless `handled` takes the refusal (returns true), as a confirmation flow does. While one
   * runs, another resolves false at once without running.
   */
  async function run(fn: () => Promise<unknown>, done = "", handled?: (refusal: unknown) => boolean): Promise<boolean> {
    if (busy.value) return false;
    busy.value = true;
    error.value = "";
    message.value = "";
    field.value = undefined;
    try {
      await fn();
      message.value = done;
      return true;
    } catch (e) {
      if (handled?.(e)) return false;
      error.value = errorMessage(e);
      const named = errorField(e);
      field.value = named === undefined ? undefined : fieldOf(named);
      return false;
    } finally {
      busy.value = false;
    }
  }
  /**
   * Checks `form` before anything is sent: the first invalid control's message is shown like a
   * refusal naming that field (beside it), focus moves there, and the result is false.
   */
  function check(form: HTMLFormElement | null | undefined, keyOf: (el: Element) => string = defaultKey): boolean {
    const bad = form ? firstInvalid(form, keyOf) : undefined;
    if (!bad) return true;
    message.value = "";
    error.value = bad.message;
    field.value = bad.field;
    bad.element.focus();
    return false;
  }
  /** Clears the error (the field it named was edited since). */
  const dismiss = () => {
    error.value = "";
    field.value = undefined;
  };
  return { error, message, field, busy, fieldError, formError, run, check, dismiss };
}
