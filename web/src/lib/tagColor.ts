/**
 * Sticky tag colours (spec §9: 15 of them): the same model name or channel id always gets the same colour, so a
 * long table can be scanned by colour. Dark enough for the white text antd puts on custom-coloured tags.
 */
export const STICKY_TAG_COLORS: readonly string[] = [
  '#d48806', // amber
  '#1677ff', // blue
  '#08979c', // cyan
  '#389e0d', // green
  '#595959', // grey
  '#2f54eb', // indigo
  '#0958d9', // light blue (deeper, for contrast)
  '#7cb305', // lime
  '#d46b08', // orange
  '#c41d7f', // pink
  '#722ed1', // purple
  '#cf1322', // red
  '#006d75', // teal
  '#531dab', // violet
  '#ad8b00', // yellow
];

/** A stable colour for a string (hash) or a number (modulo). */
export function stickyColor(key: string | number): string {
  if (typeof key === 'number') return STICKY_TAG_COLORS[Math.abs(Math.trunc(key)) % STICKY_TAG_COLORS.length];
  let h = 0;
  for (let i = 0; i < key.length; i++) h = (Math.imul(h, 31) + key.charCodeAt(i)) | 0;
  return STICKY_TAG_COLORS[Math.abs(h) % STICKY_TAG_COLORS.length];
}
