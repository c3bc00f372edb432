/** Vertex ids that differ from Anthropic's name beyond the "@" before the date. */
const VERTEX_CLAUDE_IDS = {
    'claude-3-5-sonnet-20241022': 'claude-3-5-sonnet-v2@20241022',
};
const DATED = /^(claude-.+)-(\d{8})$/;
/**
 * Anthropic's model name as Vertex's model id: the date snapshot follows an "@" (claude-sonnet-4-20250514 →
 * claude-sonnet-4@20250514). Names already in Vertex's form, and undated aliases, are kept.
 */
export function vertexClaudeModel(name) {
    if (name.includes('@'))
        return name;
    const known = VERTEX_CLAUDE_IDS[name];
    if (known)
        return known;
    const dated = DATED.exec(name);
    return dated ? `${dated[1]}@${dated[2]}` : name;
}
//# sourceMappingURL=model-name.js.map