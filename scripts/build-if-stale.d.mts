export const STAMP: string;
export function newestSource(): number;
export function staleReason(): string | null;
export function stamp(at: number): void;
