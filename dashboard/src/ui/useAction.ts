// A screen's actions (save, delete, revoke…): one error and one success message, shown in place.
// A refusal that names a field (`{error, field}`, e.g. "fields.0.name") is shown beside that
// field when the form has it (fieldError), else with the form (formError).
import { computed, ref } from "vue";
import { errorField, errorMessage } from "../api";

/** `fields`: the field names the form shows its own error beside (a getter when rows come and go). */
export function useAction(fields: readonly string[] | (() => readonly string[]) = []) {
  const error = ref("");
  const message = ref("");
  /** The field the last refusal named, if any. */
  const field = ref<string>();
  const shown = () => (typeof fields === "function" ? fields() : fields);
  /** The message to show beside field `name`: set only when the refusal named it. */
  const fieldError = (name: string) => (field.value === name ? error.value : "");
  /** The message to show with the form: a refusal no field of the form shows. */
  const formError = computed(() => (field.value !== undefined && shown().includes(field.value) ? "" : error.value));
  /**
   * Runs `fn`; on success shows `done` and resolves true, on failure shows the API's message,
   * unless `handled` takes the refusal (returns true), as a confirmation flow does.
   */
  async function run(fn: () => Promise<unknown>, done = "", handled?: (refusal: unknown) => boolean): Promise<boolean> {
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
      field.value = errorField(e);
      return false;
    }
  }
  return { error, message, field, fieldError, formError, run };
}
