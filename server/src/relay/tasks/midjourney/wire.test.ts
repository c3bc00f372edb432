import { describe, expect, it } from 'vitest';
import { DEFAULT_OPTIONS, type OptionReader } from '../../../options/index.js';
import { actionOfCustomId, intentOf, modelOfAction, MjRequestError, simpleChange, upstreamBody, upstreamPath } from './wire.js';

describe('Midjourney wire', () => {
  it.each([
    ['MJ::JOB::upsample::1::6e7e3b0e', 'UPSCALE'],
    ['MJ::JOB::upsample_v6_2x_subtle::1::6e7e3b0e::SOLO', 'UPSCALE'],
    ['MJ::JOB::variation::2::6e7e3b0e', 'VARIATION'],
    ['MJ::JOB::high_variation::1::6e7e3b0e::SOLO', 'HIGH_VARIATION'],
    ['MJ::JOB::low_variation::1::6e7e3b0e::SOLO', 'LOW_VARIATION'],
    ['MJ::JOB::reroll::0::6e7e3b0e::SOLO', 'REROLL'],
    ['MJ::JOB::pan_left::1::6e7e3b0e::SOLO', 'PAN'],
    ['MJ::Outpaint::50::1::6e7e3b0e::SOLO', 'ZOOM'],
    ['MJ::CustomZoom::6e7e3b0e', 'CUSTOM_ZOOM'],
    ['MJ::Inpaint::1::6e7e3b0e::SOLO', 'INPAINT'],
  ])('reads the action of customId %s as %s', (customId, action) => {
    expect(actionOfCustomId(customId)).toBe(action);
  });

  it('refuses customIds that are no priced action', () => {
    for (const customId of ['MJ::BOOKMARK::6e7e3b0e', 'MJ', 'nothing', 'MJ::JOB::', 'XX::JOB::upsample::1::a']) {
      expect(() => actionOfCustomId(customId)).toThrow(MjRequestError);
    }
    expect(() => actionOfCustomId('')).toThrow('custom_id_is_required');
  });

  it('reads simple-change contents', () => {
    expect(simpleChange('1320098173412546 U2')).toEqual({ action: 'UPSCALE', taskId: '1320098173412546' });
    expect(simpleChange('1320098173412546 v4')).toEqual({ action: 'VARIATION', taskId: '1320098173412546' });
    expect(simpleChange('1320098173412546 R')).toEqual({ action: 'REROLL', taskId: '1320098173412546' });
    for (const bad of ['1320098173412546 U5', '1320098173412546', '1 U1 U2', '1 X1']) expect(simpleChange(bad)).toBeNull();
  });

  it('names the priced model of each action', () => {
    expect(modelOfAction('IMAGINE')).toBe('mj_imagine');
    expect(modelOfAction('CUSTOM_ZOOM')).toBe('mj_custom_zoom');
    expect(modelOfAction('SWAP_FACE')).toBe('swap_face');
  });

  it('requires what each submission needs', () => {
    expect(() => intentOf('change', { taskId: '1', action: 'UPSCALE' })).toThrow('index_is_required');
    expect(() => intentOf('change', { taskId: '1', index: 1 })).toThrow('action_is_required');
    expect(() => intentOf('change', { action: 'UPSCALE', index: 1 })).toThrow('task_id_is_required');
    expect(() => intentOf('change', { taskId: '1', action: 'IMAGINE', index: 1 })).toThrow('unknown_action:IMAGINE');
    expect(intentOf('change', { taskId: '1', action: 'variation', index: 3 })).toEqual({ action: 'VARIATION', taskId: '1' });
    expect(intentOf('modal', { taskId: '1' })).toEqual({ action: 'MODAL', taskId: '1', modal: true });
    expect(() => intentOf('simple-change', {})).toThrow('content_is_required');
    expect(() => intentOf('simple-change', { content: '1 Z9' })).toThrow('content_parse_failed');
  });

  it('keeps the mode of a mode path unless it is an mj- mode', () => {
    expect(upstreamPath(undefined, '/submit/imagine')).toBe('/mj/submit/imagine');
    expect(upstreamPath('mj-fast', '/submit/imagine')).toBe('/mj/submit/imagine');
    expect(upstreamPath('relax', '/task/1/image-seed')).toBe('/relax/mj/task/1/image-seed');
  });

  it('filters the body by the options', () => {
    const options = (values: Record<string, boolean>): OptionReader => ({ get: ((key: string) => (key in values ? values[key] : DEFAULT_OPTIONS.get(key as never))) as OptionReader['get'] });
    const body = { prompt: 'a --fast b --relax c --turbo', accountFilter: { x: 1 }, notifyHook: 'h', state: 's' };
    expect(upstreamBody(body, options({}))).toEqual({ prompt: 'a --fast b --relax c --turbo', state: 's' });
    expect(upstreamBody(body, options({ MjAccountFilterEnabled: true, MjNotifyEnabled: true, MjModeClearEnabled: true }))).toEqual({
      prompt: 'a  b  c ',
      accountFilter: { x: 1 },
      notifyHook: 'h',
      state: 's',
    });
    expect(body.prompt).toBe('a --fast b --relax c --turbo');
  });
});
