/**
 * Translation seam. Keys are the Chinese strings of the spec; a later locale maps them to another language
 * without touching components. `{name}` placeholders are filled from vars.
 */
const dictionary: Record<string, string> = {};

export function t(key: string, vars?: Record<string, string | number>): string {
  let text = dictionary[key] ?? key;
  if (vars) {
    for (const [k, v] of Object.entries(vars)) text = text.replaceAll(`{${k}}`, String(v));
  }
  return text;
}
