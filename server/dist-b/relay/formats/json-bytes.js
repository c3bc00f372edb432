const isSpace = (c) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
/**
 * The JSON object that is the value of the last `"key":` in a JSON document, parsed on its own (braces matched
 * outside strings) so a large answer is not parsed whole just to read its usage. Undefined when there is no such
 * key, its value is not an object, or the slice does not parse; callers then fall back to a full parse.
 */
const needles = new Map();
export function lastObjectAfterKey(body, key) {
    let needle = needles.get(key);
    if (!needle) {
        needle = Buffer.from(`"${key}"`);
        needles.set(key, needle);
    }
    const at = body.lastIndexOf(needle);
    if (at < 0)
        return undefined;
    let i = at + needle.length;
    while (isSpace(body[i]))
        i++;
    if (body[i] !== 0x3a)
        return undefined; // ':'
    i++;
    while (isSpace(body[i]))
        i++;
    if (body[i] !== 0x7b)
        return undefined; // '{'
    const start = i;
    let depth = 0;
    let inString = false;
    for (; i < body.length; i++) {
        const c = body[i];
        if (inString) {
            if (c === 0x5c)
                i++; // backslash: skip the escaped byte
            else if (c === 0x22)
                inString = false;
        }
        else if (c === 0x22)
            inString = true;
        else if (c === 0x7b)
            depth++;
        else if (c === 0x7d && --depth === 0) {
            try {
                return JSON.parse(body.subarray(start, i + 1).toString('utf8'));
            }
            catch {
                return undefined;
            }
        }
    }
    return undefined;
}
//# sourceMappingURL=json-bytes.js.map