import { readdirSync, readFileSync } from 'node:fs';
/** Every case of one fixture folder, as [file name, parsed case] pairs for it.each. */
export function loadCases(folder) {
    const dir = new URL(`./fixtures/${folder}/`, import.meta.url);
    return readdirSync(dir)
        .filter((f) => f.endsWith('.json'))
        .map((f) => [f, JSON.parse(readFileSync(new URL(f, dir), 'utf8'))]);
}
//# sourceMappingURL=fixtures.js.map