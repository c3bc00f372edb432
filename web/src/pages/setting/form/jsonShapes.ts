/**
 * The shapes of the JSON options the console edits, checked before anything is sent (the server checks again):
 * ratios and prices are maps of numbers at least 0, the user-selectable groups a map of labels, the chat presets a
 * list of {name: URL template}.
 */
export type JsonShape = 'numberMap' | 'stringMap' | 'chatList';

export type JsonCheck = { ok: true; value: unknown } | { ok: false; reason: 'syntax' | 'shape' };

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const SHAPES: Record<JsonShape, (v: unknown) => boolean> = {
  numberMap: (v) => isPlainObject(v) && Object.values(v).every((n) => typeof n === 'number' && Number.isFinite(n) && n >= 0),
  stringMap: (v) => isPlainObject(v) && Object.values(v).every((s) => typeof s === 'string'),
  chatList: (v) =>
    Array.isArray(v) &&
    v.every((item) => isPlainObject(item) && Object.keys(item).length > 0 && Object.values(item).every((s) => typeof s === 'string')),
};

/** What each shape must look like, said to the operator when the JSON parses but does not fit. */
export const SHAPE_HINTS: Record<JsonShape, string> = {
  numberMap: '必须是 JSON 对象，值为不小于 0 的数字',
  stringMap: '必须是 JSON 对象，值为字符串',
  chatList: '必须是 JSON 数组，每项形如 {"名称": "链接"}',
};

export function checkJson(text: string, shape: JsonShape): JsonCheck {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'syntax' };
  }
  return SHAPES[shape](value) ? { ok: true, value } : { ok: false, reason: 'shape' };
}

/** Stored JSON shown indented for editing; text that does not parse is shown as it is. */
export function prettyJson(text: string | undefined): string {
  if (text === undefined) return '';
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}
