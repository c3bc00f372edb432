import { isOptionKey } from '../../options/defaults.js';
import { parseOption, serializeOption } from '../../options/parse.js';
import { skip, type TableImport } from '../table-import.js';
import { text } from '../values.js';

/**
 * Every key we know, checked as the console would check it and stored in our encoding (numbers written as floats,
 * "500000.000000", come in as "500000"; JSON maps are re-serialised). Unknown keys and bad values are reported.
 */
export function optionsImport(): TableImport<'options'> {
  return {
    source: 'options',
    target: 'options',
    reads: ['key', 'value'],
    map(row) {
      const key = text(row.key);
      const raw = text(row.value);
      if (!isOptionKey(key)) return skip(`unknown option ${key}`);
      const parsed = parseOption(key, raw);
      if (!parsed.ok) return skip(`option ${key}: ${parsed.message}`);
      return { key, value: serializeOption(parsed.value) };
    },
  };
}
