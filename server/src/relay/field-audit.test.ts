import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fieldAuditTable } from './field-audit.js';

describe('the field table in docs/field-mapping.md', () => {
  it('is the one the converters’ rules print (regenerate it with fieldAuditTable())', () => {
    const doc = readFileSync(new URL('../../../docs/field-mapping.md', import.meta.url), 'utf8');
    const table = fieldAuditTable();
    expect(doc.includes(table), `docs/field-mapping.md must contain:\n\n${table}`).toBe(true);
  });
});
