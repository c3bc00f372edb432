export const ROLE = { GUEST: 0, USER: 1, ADMIN: 10, ROOT: 100 } as const;
export type Role = (typeof ROLE)[keyof typeof ROLE];

export const isAdmin = (role: number | undefined): boolean => (role ?? 0) >= ROLE.ADMIN;
export const isRoot = (role: number | undefined): boolean => (role ?? 0) >= ROLE.ROOT;

export const USER_STATUS = { ENABLED: 1, DISABLED: 2 } as const;
export const TOKEN_STATUS = { ENABLED: 1, DISABLED: 2, EXPIRED: 3, EXHAUSTED: 4 } as const;
export const CHANNEL_STATUS = { ENABLED: 1, MANUALLY_DISABLED: 2, AUTO_DISABLED: 3 } as const;
export const REDEMPTION_STATUS = { UNUSED: 1, DISABLED: 2, USED: 3 } as const;
export const LOG_TYPE = { UNKNOWN: 0, TOPUP: 1, CONSUME: 2, MANAGE: 3, SYSTEM: 4 } as const;

export const ROLE_NAMES: Record<number, string> = { 1: '普通用户', 10: '管理员', 100: '超级管理员' };
export const roleName = (role: number): string => ROLE_NAMES[role] ?? '未知身份';
