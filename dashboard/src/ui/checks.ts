// Client-side checks that mirror the server's: the naming rules come from the server's own module
// (src/core/names.ts), and a form's controls are checked through the browser's constraint
// validation (required, type, pattern, custom validity), so nothing invalid is sent.
import type { Directive } from "vue";
import { nameProblem, type NameRule } from "../../../src/core/names";

export { NAME_RULES, type NameRule } from "../../../src/core/names";

type Control = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

/**
 * `v-name="{ rule, field }"` on a text input: sets its `pattern` from the rule and, while the
 * value breaks the rule, the message the API would refuse it with (`name: must be …`).
 */
export const vName: Directive<HTMLInputElement, NameBinding> = { mounted: applyRule, updated: applyRule };

/** `field`: the key the form shows messages by; `label`: how the message names it (default: `field`, as the API does). */
type NameBinding = { rule: NameRule; field: string; label?: string };

function applyRule(el: HTMLInputElement, { value }: { value: NameBinding }) {
  el.pattern = value.rule.pattern;
  el.dataset.field = value.field;
  // An empty value is `required`'s to report.
  const problem = el.value === "" ? undefined : nameProblem(value.rule, el.value);
  el.setCustomValidity(problem ? `${value.label ?? value.field}: ${problem}` : "");
}

/** The field key of a control: `data-field`, else its name, else its id. */
export const defaultKey = (el: Element) => (el as HTMLElement).dataset.field || (el as Control).name || el.id;

/** The first control of `form` that would be refused, with the message to show beside it. */
export function firstInvalid(form: HTMLFormElement, keyOf: (el: Element) => string = defaultKey): { element: Control; field: string; message: string } | undefined {
  for (const el of Array.from(form.elements)) {
    const control = el as Control;
    if (!("validity" in control) || !control.willValidate || control.validity.valid) continue;
    return { element: control, field: keyOf(control), message: control.validationMessage };
  }
  return undefined;
}

/** True when a control holds typed text its model cannot carry yet (unparsed JSON, a half-typed number). */
export function holdsUnsavedText(form: HTMLFormElement | null | undefined): boolean {
  if (!form) return false;
  return Array.from(form.elements).some((el) => {
    const v = (el as Control).validity;
    return !!v && (v.badInput || v.customError);
  });
}
