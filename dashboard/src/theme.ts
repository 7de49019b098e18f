// The colour theme: "system" follows prefers-color-scheme, "light" and "dark" are a person's
// choice, kept in localStorage (a display preference, not a credential) and set as data-theme on
// <html>; the scheme in effect is data-scheme, the one attribute style.css's dark palette keys on
// (so the palette is written once). main.ts imports this module first, so the choice applies before the app
// renders; the page's CSP allows no inline script that could apply it any earlier.
import { ref } from "vue";

export type ThemeChoice = "system" | "light" | "dark";
export const THEME_KEY = "contentsvc.theme";
export const THEMES: ThemeChoice[] = ["system", "light", "dark"];

function stored(): ThemeChoice {
  try {
    const value = localStorage.getItem(THEME_KEY);
    return value === "light" || value === "dark" ? value : "system";
  } catch {
    return "system"; // storage disabled: follow the system
  }
}

const systemDark = typeof matchMedia === "function" ? matchMedia("(prefers-color-scheme: dark)") : undefined;

function apply(choice: ThemeChoice): void {
  const root = document.documentElement;
  if (choice === "system") delete root.dataset.theme;
  else root.dataset.theme = choice;
  root.dataset.scheme = choice === "system" ? (systemDark?.matches ? "dark" : "light") : choice;
}

export const theme = ref<ThemeChoice>(stored());
apply(theme.value);

export function setTheme(choice: ThemeChoice): void {
  theme.value = choice;
  apply(choice);
  try {
    // "system" is the default, so choosing it leaves nothing behind.
    if (choice === "system") localStorage.removeItem(THEME_KEY);
    else localStorage.setItem(THEME_KEY, choice);
  } catch {
    // Not remembered where storage is disabled; the choice still holds for this page.
  }
}

// The system switched between light and dark: follow it while the choice is "system".
systemDark?.addEventListener("change", () => apply(theme.value));

// Another tab changed it: follow, so the tabs of one browser agree.
window.addEventListener("storage", (event) => {
  if (event.key !== THEME_KEY && event.key !== null) return;
  theme.value = stored();
  apply(theme.value);
});
