import { describe, expect, it } from 'vitest';
import { regionFor, regionHost } from './region.js';

describe('regionFor', () => {
  it('uses a plain region for every model', () => {
    expect(regionFor('us-east5', ['claude-sonnet-4-20250514'])).toBe('us-east5');
    expect(regionFor(' europe-west1 ', ['gemini-2.5-pro'])).toBe('europe-west1');
  });

  it('picks a model’s own region from a JSON map, else its default', () => {
    const other = JSON.stringify({ default: 'us-east5', 'gemini-2.5-pro': 'europe-west1' });
    expect(regionFor(other, ['gemini-2.5-pro'])).toBe('europe-west1');
    expect(regionFor(other, ['claude-sonnet-4-20250514'])).toBe('us-east5');
    // The upstream name is looked up first, then the name the client asked for.
    expect(regionFor(other, ['gemini-2.5-pro-mapped', 'gemini-2.5-pro'])).toBe('europe-west1');
  });

  it('falls back to the global endpoint when nothing names a region', () => {
    expect(regionFor('', ['gemini-2.5-pro'])).toBe('global');
    expect(regionFor('{"gemini-2.5-pro":"us-central1"}', ['gemini-2.5-flash'])).toBe('global');
    expect(regionFor('{not json', ['gemini-2.5-flash'])).toBe('global');
  });
});

describe('regionHost', () => {
  it('has no region prefix for global and one for the rest', () => {
    expect(regionHost('global')).toBe('aiplatform.googleapis.com');
    expect(regionHost('us-east5')).toBe('us-east5-aiplatform.googleapis.com');
  });

  it('refuses a region that would change the host', () => {
    expect(() => regionHost('evil.example/x?')).toThrow(expect.objectContaining({ code: 'invalid_channel_region' }));
  });
});
