/*
 * The values drawing tasks (Midjourney) and async tasks (Suno) carry in their `action`, `status` and `code` columns
 * (spec §4). The relays write them, the console labels them.
 */

/** Drawing task actions. */
export const MJ_ACTION = {
  IMAGINE: 'IMAGINE',
  UPSCALE: 'UPSCALE',
  VARIATION: 'VARIATION',
  HIGH_VARIATION: 'HIGH_VARIATION',
  LOW_VARIATION: 'LOW_VARIATION',
  PAN: 'PAN',
  DESCRIBE: 'DESCRIBE',
  BLEND: 'BLEND',
  UPLOAD: 'UPLOAD',
  SHORTEN: 'SHORTEN',
  REROLL: 'REROLL',
  INPAINT: 'INPAINT',
  ZOOM: 'ZOOM',
  CUSTOM_ZOOM: 'CUSTOM_ZOOM',
  MODAL: 'MODAL',
  SWAP_FACE: 'SWAP_FACE',
} as const;

/** The Midjourney proxy's answer to a submit: 1 submitted, 21 waiting, 22 duplicate submit, 0 not submitted. */
export const MJ_SUBMIT_CODE = { NOT_SUBMITTED: 0, SUBMITTED: 1, WAITING: 21, DUPLICATE: 22 } as const;

/** Drawing task states; MODAL waits for the user's input in a window. */
export const MJ_STATUS = {
  SUCCESS: 'SUCCESS',
  NOT_START: 'NOT_START',
  SUBMITTED: 'SUBMITTED',
  IN_PROGRESS: 'IN_PROGRESS',
  FAILURE: 'FAILURE',
  MODAL: 'MODAL',
} as const;

/** Async task states: the drawing ones without MODAL, plus QUEUED, UNKNOWN and '' (still being submitted). */
export const TASK_STATUS = {
  SUCCESS: 'SUCCESS',
  NOT_START: 'NOT_START',
  SUBMITTED: 'SUBMITTED',
  QUEUED: 'QUEUED',
  IN_PROGRESS: 'IN_PROGRESS',
  FAILURE: 'FAILURE',
  UNKNOWN: 'UNKNOWN',
  SUBMITTING: '',
} as const;

export const TASK_ACTION = { MUSIC: 'MUSIC', LYRICS: 'LYRICS' } as const;

export const TASK_PLATFORM = { SUNO: 'suno' } as const;

