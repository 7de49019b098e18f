// The colour theme: "system" follows prefers-color-scheme (style.css), "light" and "dark" are a
// person's choice, kept in localStorage (a display preference, not a credential) and applied as
// data-theme on <html>. main.ts imports this module first, so the choice applies before the app
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

function apply(choice: ThemeChoice): void {
  if (choice === "system") delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = choice;
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

// Another tab changed it: follow, so the tabs of one browser agree.
window.addEventListener("storage", (event) => {
  if (event.key !== THEME_KEY && event.key !== null) return;
  theme.value = stored();
  apply(theme.value);
});
