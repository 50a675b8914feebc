/** The dashboard's words: Brazilian Portuguese by default, English selectable (kept in localStorage). */
import { EN } from "./messages-en";
import { type Key, PT } from "./messages-pt";

export type { Key };
export type Lang = "pt-BR" | "en";

let current: Lang = (globalThis.localStorage?.getItem("cofre.lang") as Lang) === "en" ? "en" : "pt-BR";

export function lang(): Lang {
  return current;
}

export function setLang(l: Lang): void {
  current = l;
  localStorage.setItem("cofre.lang", l);
  document.documentElement.lang = l;
}

/** The text of `key` in the current language. */
export function t(key: Key): string {
  return current === "en" ? EN[key] : PT[key];
}
