import { REDEMPTION_STATUS } from './roles.js';

/** Codes are 128 random bits written as 32 lowercase hex digits. */
export const REDEMPTION_KEY_LENGTH = 32;
export const REDEMPTION_NAME_MAX_LENGTH = 20;
/** Most codes one create call makes. */
export const REDEMPTION_MAX_COUNT = 100;

/** What the add drawer starts with (spec §5, §9). */
export const DEFAULT_NEW_REDEMPTION = { name: '', quota: 100_000, count: 1 } as const;

/** A redemption code as the console sees it. */
export interface RedemptionDto {
  id: number;
  /** The administrator who created it. */
  user_id: number;
  key: string;
  name: string;
  /** REDEMPTION_STATUS: 1 unused, 2 disabled, 3 used. */
  status: number;
  quota: number;
  created_time: number;
  /** 0 until redeemed. */
  redeemed_time: number;
  /** 0 means none. */
  used_user_id: number;
}

/** A code is redeemed when a user types it in; only case and surrounding blanks are forgiven. */
export function normalizeRedemptionKey(input: string): string {
  return input.trim().toLowerCase();
}

export const isRedemptionKey = (key: string): boolean => /^[0-9a-f]{32}$/.test(key);

/** Only unused codes can be edited (spec §4). */
export const canEditRedemption = (status: number): boolean => status === REDEMPTION_STATUS.UNUSED;

/** Unused codes can be disabled and disabled ones enabled; a used code stays used. */
export const canToggleRedemption = (status: number): boolean =>
  status === REDEMPTION_STATUS.UNUSED || status === REDEMPTION_STATUS.DISABLED;
