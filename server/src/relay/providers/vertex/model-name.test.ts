import { describe, expect, it } from 'vitest';
import { vertexClaudeModel } from './model-name.js';

describe('vertexClaudeModel', () => {
  it.each([
    ['claude-3-5-sonnet-20241022', 'claude-3-5-sonnet-v2@20241022'],
    ['claude-3-5-sonnet-20240620', 'claude-3-5-sonnet@20240620'],
    ['claude-3-5-haiku-20241022', 'claude-3-5-haiku@20241022'],
    ['claude-3-7-sonnet-20250219', 'claude-3-7-sonnet@20250219'],
    ['claude-3-opus-20240229', 'claude-3-opus@20240229'],
    ['claude-3-haiku-20240307', 'claude-3-haiku@20240307'],
    ['claude-sonnet-4-20250514', 'claude-sonnet-4@20250514'],
    ['claude-opus-4-20250514', 'claude-opus-4@20250514'],
    ['claude-opus-4-1-20250805', 'claude-opus-4-1@20250805'],
    ['claude-sonnet-4-5-20250929', 'claude-sonnet-4-5@20250929'],
    ['claude-haiku-4-5-20251001', 'claude-haiku-4-5@20251001'],
  ])('%s → %s', (name, vertex) => {
    expect(vertexClaudeModel(name)).toBe(vertex);
  });

  it('keeps Vertex ids and undated names', () => {
    expect(vertexClaudeModel('claude-3-5-sonnet-v2@20241022')).toBe('claude-3-5-sonnet-v2@20241022');
    expect(vertexClaudeModel('claude-sonnet-4-5')).toBe('claude-sonnet-4-5');
  });
});
