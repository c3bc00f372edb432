import { CHANNEL_STATUS } from '@switchyard/shared';
import type { ChannelDto } from '../../api/channel';

/** One row of the tag mode: a tag and its channels, in the order the server listed them. */
export interface TagRow {
  tag: string;
  channels: ChannelDto[];
  enabled: number;
  /** The channels' priority or weight when they all share it, else null. */
  priority: number | null;
  weight: number | null;
  usedQuota: number;
}

const shared = (values: number[]) => (values.every((v) => v === values[0]) ? values[0] : null);

/** The server's tag-mode list (channels grouped by tag, tags in order) as one row per tag. */
export function tagRows(channels: ChannelDto[]): TagRow[] {
  const byTag = new Map<string, ChannelDto[]>();
  for (const c of channels) {
    const list = byTag.get(c.tag);
    if (list) list.push(c);
    else byTag.set(c.tag, [c]);
  }
  return [...byTag].map(([tag, list]) => ({
    tag,
    channels: list,
    enabled: list.filter((c) => c.status === CHANNEL_STATUS.ENABLED).length,
    priority: shared(list.map((c) => c.priority)),
    weight: shared(list.map((c) => c.weight)),
    usedQuota: list.reduce((sum, c) => sum + (c.used_quota ?? 0), 0),
  }));
}
