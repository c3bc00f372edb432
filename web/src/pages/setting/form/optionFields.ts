import type { ReactNode } from 'react';
import { checkJson, prettyJson, type JsonShape } from './jsonShapes';

interface FieldBase {
  /** The option key (PUT /api/option/ {key, value}). */
  key: string;
  label: string;
  extra?: ReactNode;
  placeholder?: string;
  /** Takes the whole row (text areas do anyway). */
  wide?: boolean;
}

/** One option as a form control, and how its stored string maps to the control's value and back. */
export type OptionField =
  | (FieldBase & { kind: 'switch' })
  | (FieldBase & { kind: 'text'; url?: boolean })
  /** Never sent by the server; blank on load and a blank field keeps the stored secret. */
  | (FieldBase & { kind: 'secret' })
  | (FieldBase & { kind: 'number'; min: number; max?: number; integer?: boolean; unit?: string })
  /** One entry per line: lines are trimmed and blank ones dropped. */
  | (FieldBase & { kind: 'lines'; rows?: number })
  /** Free text (Markdown, HTML, a URL), stored as typed. */
  | (FieldBase & { kind: 'textarea'; rows?: number })
  | (FieldBase & { kind: 'json'; shape: JsonShape })
  | (FieldBase & { kind: 'select'; choices: Array<{ value: string; label: string }> })
  /** A comma-joined list edited as tags. */
  | (FieldBase & { kind: 'tags' });

export type FormValues = Record<string, unknown>;

/** A stored number option as a form value (null when absent or not a number). */
export function toNumber(value: string | undefined): number | null {
  if (value === undefined || value.trim() === '') return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
}

const splitList = (raw: string | undefined, separator: RegExp): string[] =>
  (raw ?? '')
    .split(separator)
    .map((s) => s.trim())
    .filter((s) => s !== '');

/** The form's values from the stored options. */
export function fieldValues(fields: readonly OptionField[], options: Record<string, string>): FormValues {
  const values: FormValues = {};
  for (const f of fields) {
    const raw = options[f.key];
    switch (f.kind) {
      case 'switch':
        values[f.key] = raw === 'true';
        break;
      case 'number':
        values[f.key] = toNumber(raw);
        break;
      case 'secret':
        values[f.key] = '';
        break;
      case 'json':
        values[f.key] = prettyJson(raw);
        break;
      case 'tags':
        values[f.key] = splitList(raw, /,/);
        break;
      default:
        values[f.key] = raw ?? '';
    }
  }
  return values;
}

/** One field's value as the string to store. */
function storedForm(f: OptionField, value: unknown, stored: string | undefined): string {
  switch (f.kind) {
    case 'switch':
      return String(Boolean(value));
    case 'number':
      return String(value);
    case 'text':
    case 'secret':
      return String(value ?? '').trim();
    case 'lines':
      return [...new Set(splitList(String(value ?? ''), /\r?\n/))].join('\n');
    case 'tags':
      return [...new Set((value as string[] | undefined ?? []).map((s) => s.trim()).filter((s) => s !== ''))].join(',');
    case 'json': {
      // Unchanged JSON (even if the stored text is spaced or ordered differently) is kept as stored.
      const checked = checkJson(String(value ?? ''), f.shape);
      const compact = checked.ok ? JSON.stringify(checked.value) : String(value ?? '');
      return stored !== undefined && prettyJson(stored) === prettyJson(compact) ? stored : compact;
    }
    default:
      return String(value ?? '');
  }
}

/**
 * The options to write for the submitted form. Switches come last so the values they depend on are stored first
 * (the server refuses turning a feature on before its settings exist); a blank secret is left out.
 */
export function optionsToSave(fields: readonly OptionField[], values: FormValues, options: Record<string, string>): Record<string, string> {
  const ordered = [...fields.filter((f) => f.kind !== 'switch'), ...fields.filter((f) => f.kind === 'switch')];
  const next: Record<string, string> = {};
  for (const f of ordered) {
    const value = storedForm(f, values[f.key], options[f.key]);
    if (f.kind === 'secret' && value === '') continue;
    next[f.key] = value;
  }
  return next;
}
