export const MAIN: string;
/** Packages the bundle leaves outside, loaded from node_modules when first used. */
export const ON_DEMAND: string[];
export function bundleServer(): Promise<unknown>;
