import { BlockList, isIPv4 } from 'node:net';
import { allowIpEntries } from '@switchyard/shared';
/** Parsed allow lists, by their text (tokens share few distinct lists; parsing once keeps the check O(1)-ish). */
const parsed = new Map();
function listFor(text) {
    let list = parsed.get(text);
    if (list !== undefined)
        return list;
    const entries = allowIpEntries(text);
    if (entries.length === 0)
        list = null;
    else {
        list = new BlockList();
        for (const entry of entries) {
            const [address, prefix] = entry.split('/');
            const family = isIPv4(address) ? 'ipv4' : 'ipv6';
            try {
                if (prefix === undefined)
                    list.addAddress(address, family);
                else
                    list.addSubnet(address, Number(prefix), family);
            }
            catch {
                // The console validates entries; a bad one here just matches nothing.
            }
        }
    }
    if (parsed.size > 10_000)
        parsed.clear();
    parsed.set(text, list);
    return list;
}
/** True when the token has no allow list or the client address is on it. */
export function ipAllowed(allowIps, ip) {
    const list = listFor(allowIps);
    if (!list)
        return true;
    const plain = ip.startsWith('::ffff:') ? ip.slice(7) : ip;
    return list.check(plain, isIPv4(plain) ? 'ipv4' : 'ipv6');
}
//# sourceMappingURL=ip-allow.js.map