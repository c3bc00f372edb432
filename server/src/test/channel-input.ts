import type { ChannelInput } from '../store/channels.js';

/** A channel row for the store, enabled in the default group, with whatever a test sets on top. */
export const channelInput = (fields: Partial<ChannelInput>): ChannelInput => ({
  type: 1,
  key: 'k',
  openai_organization: '',
  test_model: '',
  status: 1,
  name: 'c',
  weight: 0,
  base_url: '',
  other: '',
  models: 'gpt-4o',
  group: 'default',
  model_mapping: '',
  status_code_mapping: '',
  priority: 0,
  auto_ban: 1,
  tag: '',
  setting: '',
  param_override: '',
  max_input_tokens: 0,
  ...fields,
});
