import { describe, expect, it } from 'vitest';
import { bedrockModelId } from './models.js';

describe('Bedrock model ids', () => {
  it.each([
    ['claude-3-5-sonnet-20241022', 'anthropic.claude-3-5-sonnet-20241022-v2:0'],
    ['claude-3-5-sonnet-20240620', 'anthropic.claude-3-5-sonnet-20240620-v1:0'],
    ['claude-3-haiku-20240307', 'anthropic.claude-3-haiku-20240307-v1:0'],
    ['claude-3-5-haiku-20241022', 'anthropic.claude-3-5-haiku-20241022-v1:0'],
    ['claude-3-opus-20240229', 'anthropic.claude-3-opus-20240229-v1:0'],
    ['claude-3-5-sonnet-latest', 'anthropic.claude-3-5-sonnet-20241022-v2:0'],
  ])('serves %s on demand as %s', (model, id) => {
    expect(bedrockModelId(model, 'us-west-2')).toBe(id);
    expect(bedrockModelId(model, 'eu-central-1')).toBe(id);
  });

  it.each([
    ['claude-3-7-sonnet-20250219', 'us.anthropic.claude-3-7-sonnet-20250219-v1:0'],
    ['claude-sonnet-4-20250514', 'us.anthropic.claude-sonnet-4-20250514-v1:0'],
    ['claude-opus-4-20250514', 'us.anthropic.claude-opus-4-20250514-v1:0'],
    ['claude-opus-4-1-20250805', 'us.anthropic.claude-opus-4-1-20250805-v1:0'],
    ['claude-sonnet-4-5-20250929', 'us.anthropic.claude-sonnet-4-5-20250929-v1:0'],
    ['claude-haiku-4-5-20251001', 'us.anthropic.claude-haiku-4-5-20251001-v1:0'],
    ['claude-opus-4-5-20251101', 'us.anthropic.claude-opus-4-5-20251101-v1:0'],
    ['claude-sonnet-4-5', 'us.anthropic.claude-sonnet-4-5-20250929-v1:0'],
  ])('serves %s from a US Region through the us. profile', (model, id) => {
    expect(bedrockModelId(model, 'us-east-1')).toBe(id);
  });

  it('takes the profile geography from the Region', () => {
    expect(bedrockModelId('claude-3-7-sonnet-20250219', 'eu-west-3')).toBe('eu.anthropic.claude-3-7-sonnet-20250219-v1:0');
    expect(bedrockModelId('claude-sonnet-4-20250514', 'ap-southeast-1')).toBe('apac.anthropic.claude-sonnet-4-20250514-v1:0');
    expect(bedrockModelId('claude-3-7-sonnet-20250219', 'ap-northeast-2')).toBe('apac.anthropic.claude-3-7-sonnet-20250219-v1:0');
    expect(bedrockModelId('claude-3-7-sonnet-20250219', 'us-gov-west-1')).toBe('us-gov.anthropic.claude-3-7-sonnet-20250219-v1:0');
  });

  it('prefers the Japan and Australia profiles where a model has them, else the APAC one', () => {
    expect(bedrockModelId('claude-sonnet-4-5-20250929', 'ap-northeast-1')).toBe('jp.anthropic.claude-sonnet-4-5-20250929-v1:0');
    expect(bedrockModelId('claude-haiku-4-5-20251001', 'ap-southeast-2')).toBe('au.anthropic.claude-haiku-4-5-20251001-v1:0');
    expect(bedrockModelId('claude-sonnet-4-20250514', 'ap-northeast-1')).toBe('apac.anthropic.claude-sonnet-4-20250514-v1:0');
  });

  it('falls back to the global profile where the Region has no geography of its own for the model', () => {
    expect(bedrockModelId('claude-sonnet-4-5-20250929', 'ap-south-1')).toBe('global.anthropic.claude-sonnet-4-5-20250929-v1:0');
    expect(bedrockModelId('claude-opus-4-5-20251101', 'sa-east-1')).toBe('global.anthropic.claude-opus-4-5-20251101-v1:0');
    expect(bedrockModelId('claude-opus-4-1-20250805', 'ca-central-1')).toBe('us.anthropic.claude-opus-4-1-20250805-v1:0');
  });

  it('uses ids already in Bedrock form, profile ids and ARNs as they are', () => {
    for (const id of [
      'anthropic.claude-3-haiku-20240307-v1:0',
      'eu.anthropic.claude-sonnet-4-20250514-v1:0',
      'arn:aws:bedrock:us-east-1:123456789012:application-inference-profile/abc123',
      'some-future-model',
    ]) {
      expect(bedrockModelId(id, 'us-east-1')).toBe(id);
    }
  });
});
