import { describe, expect, it } from 'vitest';
import { actionOf, fetchedStates, modelOf, parseSubmission, progressOf, refusalOf, statusOf, submittedTaskId, taskDto } from './wire.js';
import { TASK_DEFAULTS } from '../../../store/async-tasks.js';

/* Suno-API's shapes read and written by the gateway: pure functions, no upstream. */

const json = (v: unknown) => Buffer.from(JSON.stringify(v));

describe('Suno wire shapes', () => {
  it('reads the action in any case and names its model; refuses others', () => {
    expect(['music', 'LyRiCs'].map(actionOf)).toEqual(['MUSIC', 'LYRICS']);
    expect([modelOf('MUSIC'), modelOf('LYRICS')]).toEqual(['suno_music', 'suno_lyrics']);
    for (const bad of ['video', '', 'musics']) expect(() => actionOf(bad)).toThrow(expect.objectContaining({ status: 400, code: 'invalid_action' }));
  });

  it('checks a submission as Suno-API reads it and keeps every field the client sent', () => {
    const body = { prompt: 'p', mv: 'chirp-v3-5', title: 't', tags: 'pop', continue_at: 12.5, continue_clip_id: 'c', task_id: 'T', make_instrumental: true, extra: [1] };
    expect(parseSubmission(json(body), 'MUSIC')).toEqual({ body, continues: 'T' });
    expect(parseSubmission(json({ gpt_description_prompt: 'a song', continue_clip_id: null }), 'MUSIC')).toMatchObject({ continues: null });
    // LYRICS takes no continuation: task_id is passed on, not read.
    expect(parseSubmission(json({ prompt: 'x', continue_clip_id: 'c' }), 'LYRICS').continues).toBeNull();
    const refused: Array<[unknown, 'MUSIC' | 'LYRICS', string]> = [
      [{ title: 1 }, 'MUSIC', 'invalid_request'],
      [{ continue_at: '10' }, 'MUSIC', 'invalid_request'],
      [{ continue_at: -1 }, 'MUSIC', 'invalid_request'],
      [{ make_instrumental: 'yes' }, 'MUSIC', 'invalid_request'],
      [{ continue_clip_id: 'c' }, 'MUSIC', 'task_id_empty'],
      [{}, 'LYRICS', 'prompt_empty'],
    ];
    for (const [b, action, code] of refused) expect(() => parseSubmission(json(b), action)).toThrow(expect.objectContaining({ status: 400, code }));
    for (const raw of [undefined, Buffer.from(''), Buffer.from('{'), Buffer.from('"x"')]) {
      expect(() => parseSubmission(raw, 'MUSIC')).toThrow(expect.objectContaining({ status: 400, code: 'invalid_request' }));
    }
  });

  it('takes a task id only from a success answer carrying one', () => {
    expect(submittedTaskId({ code: 'success', message: '', data: ' abc ' })).toBe('abc');
    for (const answer of [{ code: 'success', data: '' }, { code: 'success', data: { id: 'x' } }, { code: 'error', data: 'x' }, null, 'x']) {
      expect(submittedTaskId(answer)).toBeNull();
    }
  });

  it("relays a refusal's own code and message, or its text", () => {
    expect(refusalOf({ code: 'invalid_request', message: 'prompt is empty', data: null }, '', 400)).toEqual({ code: 'invalid_request', message: 'prompt is empty' });
    expect(refusalOf(undefined, '<html>bad gateway</html>', 502)).toEqual({ code: 'upstream_error', message: '<html>bad gateway</html>' });
    expect(refusalOf(undefined, '', 503)).toEqual({ code: 'upstream_error', message: '上游返回 HTTP 503' });
  });

  it("maps statuses and progress, and reads a fetch's task objects", () => {
    expect(statusOf('in_progress')).toBe('IN_PROGRESS');
    for (const s of ['NOT_START', 'SUBMITTED', 'QUEUED', 'IN_PROGRESS', 'FAILURE', 'SUCCESS', 'UNKNOWN']) expect(statusOf(s)).toBe(s);
    expect(['submitted', 'queued', 'streaming', 'complete', 'error'].map(statusOf)).toEqual(['SUBMITTED', 'QUEUED', 'IN_PROGRESS', 'SUCCESS', 'FAILURE']);
    expect(statusOf('paused')).toBe('UNKNOWN');
    expect(statusOf(undefined)).toBe('UNKNOWN');
    expect([progressOf('45%'), progressOf('45'), progressOf(45.4), progressOf(150), progressOf('-3'), progressOf('half'), progressOf(null)]).toEqual([
      '45%',
      '45%',
      '45%',
      '100%',
      null,
      null,
      null,
    ]);
    const states = fetchedStates({
      code: 'success',
      message: '',
      data: [
        { task_id: 'a', action: 'MUSIC', status: 'SUCCESS', fail_reason: '', submit_time: 10, start_time: 11, finish_time: 12, data: [{ id: 'clip' }] },
        { task_id: 'b', status: 'FAILURE', fail_reason: 'no credits', progress: '100%' },
        { status: 'SUCCESS' },
        'junk',
      ],
    });
    expect(states).toEqual([
      { taskId: 'a', status: 'SUCCESS', failReason: '', startTime: 11, finishTime: 12, progress: null, data: [{ id: 'clip' }] },
      { taskId: 'b', status: 'FAILURE', failReason: 'no credits', startTime: 0, finishTime: 0, progress: '100%', data: undefined },
    ]);
    expect(fetchedStates({ code: 'error', data: [] })).toBeNull();
    expect(fetchedStates({ code: 'success', data: {} })).toBeNull();
  });

  it("answers a stored task in new-api's TaskDto shape, its data as JSON", () => {
    const row = { ...TASK_DEFAULTS, id: 1, task_id: 'T', action: 'MUSIC', status: 'SUCCESS', submit_time: 5, progress: '100%', data: '[{"id":"c"}]', quota: 9, user_id: 3 };
    expect(taskDto(row)).toEqual({ task_id: 'T', action: 'MUSIC', status: 'SUCCESS', fail_reason: '', submit_time: 5, start_time: 0, finish_time: 0, progress: '100%', data: [{ id: 'c' }] });
    expect(taskDto({ ...row, data: '' }).data).toBeNull();
  });
});
