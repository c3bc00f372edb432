/** '!' escapes LIKE wildcards (use with `escape '!'`): unlike a backslash it needs no quoting rules that differ between dialects. */
export const likeEscape = (text: string): string => text.replace(/[!%_]/g, (c) => `!${c}`);
