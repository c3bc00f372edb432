import { Space, Tag, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { formatQuota, type LogDto, type QuotaDisplay } from '@switchyard/shared';
import { formatUnixTime } from '../../lib/format';
import { t } from '../../lib/i18n';
import { stickyColor } from '../../lib/tagColor';
import {
  LOG_TYPE_TAGS,
  UNKNOWN_TYPE_TAG,
  channelChain,
  detailText,
  firstTokenColor,
  firstTokenMs,
  isConsume,
  parseOther,
  durationColor,
} from './logView';

export interface LogRowActions {
  /** Opens the user info dialog (admin). */
  showUser(log: LogDto): void;
  copy(text: string): void;
}

const clickable = { cursor: 'pointer' } as const;

function TypeTag({ type }: { type: number }) {
  const tag = LOG_TYPE_TAGS[type] ?? UNKNOWN_TYPE_TAG;
  return <Tag color={tag.color}>{t(tag.label)}</Tag>;
}

function Timing({ log }: { log: LogDto }) {
  const frt = firstTokenMs(log, parseOther(log.other));
  return (
    <Space size={4} wrap={false}>
      <Tag color={durationColor(log.use_time)} title={t('用时')}>{`${log.use_time} s`}</Tag>
      {frt !== null && (
        <Tag color={firstTokenColor(frt)} title={t('首字时间')}>
          {`${(frt / 1000).toFixed(1)} s`}
        </Tag>
      )}
      <Tag color={log.is_stream ? 'blue' : 'purple'}>{log.is_stream ? t('流') : t('非流')}</Tag>
    </Space>
  );
}

function ModelTag({ log, copy }: { log: LogDto; copy: (text: string) => void }) {
  const other = parseOther(log.other);
  const tag = (
    <Tag color={stickyColor(log.model_name)} style={clickable} onClick={() => copy(log.model_name)}>
      {log.model_name}
    </Tag>
  );
  if (!other.is_model_mapped || !other.upstream_model_name) return tag;
  return <Tooltip title={t('实际模型：{model}', { model: other.upstream_model_name })}>{tag}</Tooltip>;
}

/** The table of the log page (spec: Log page notes); admins also get the channel, user and retry columns. */
export function logColumns(admin: boolean, display: QuotaDisplay, actions: LogRowActions): ColumnsType<LogDto> {
  const columns: ColumnsType<LogDto> = [
    { title: t('时间'), dataIndex: 'created_at', key: 'created_at', render: (v: number) => formatUnixTime(v) },
  ];
  if (admin) {
    columns.push(
      {
        title: t('渠道'),
        dataIndex: 'channel',
        key: 'channel',
        render: (_: unknown, log) =>
          isConsume(log) && log.channel > 0 ? (
            <Tooltip title={log.channel_name || t('[未知]')}>
              <Tag color={stickyColor(log.channel)}>{log.channel}</Tag>
            </Tooltip>
          ) : null,
      },
      {
        title: t('用户'),
        dataIndex: 'username',
        key: 'username',
        render: (_: unknown, log) => (
          <Typography.Link onClick={() => actions.showUser(log)} title={t('用户信息')}>
            {log.username}
          </Typography.Link>
        ),
      },
    );
  }
  columns.push(
    {
      title: t('令牌'),
      dataIndex: 'token_name',
      key: 'token_name',
      render: (_: unknown, log) =>
        isConsume(log) && log.token_name ? (
          <Tag style={clickable} onClick={() => actions.copy(log.token_name)}>
            {log.token_name}
          </Tag>
        ) : null,
    },
    {
      title: t('分组'),
      dataIndex: 'group',
      key: 'group',
      render: (_: unknown, log) => (isConsume(log) && log.group ? <Tag>{log.group}</Tag> : null),
    },
    { title: t('类型'), dataIndex: 'type', key: 'type', render: (v: number) => <TypeTag type={v} /> },
    {
      title: t('模型'),
      dataIndex: 'model_name',
      key: 'model_name',
      render: (_: unknown, log) => (isConsume(log) && log.model_name ? <ModelTag log={log} copy={actions.copy} /> : null),
    },
    {
      title: t('用时/首字'),
      dataIndex: 'use_time',
      key: 'use_time',
      render: (_: unknown, log) => (isConsume(log) ? <Timing log={log} /> : null),
    },
    {
      title: t('提示'),
      dataIndex: 'prompt_tokens',
      key: 'prompt_tokens',
      render: (v: number, log) => (isConsume(log) ? v : null),
    },
    {
      title: t('补全'),
      dataIndex: 'completion_tokens',
      key: 'completion_tokens',
      render: (v: number, log) => (isConsume(log) && v > 0 ? v : null),
    },
    {
      title: t('花费'),
      dataIndex: 'quota',
      key: 'quota',
      render: (v: number, log) => (isConsume(log) ? <span title={String(v)}>{formatQuota(v, display, 6)}</span> : null),
    },
  );
  if (admin) {
    columns.push({
      title: t('重试'),
      key: 'retry',
      render: (_: unknown, log) => {
        if (!isConsume(log)) return null;
        const chain = channelChain(log, parseOther(log.other));
        return chain.length > 0 ? t('渠道：{chain}', { chain: chain.join(' → ') }) : null;
      },
    });
  }
  columns.push({
    title: t('详情'),
    dataIndex: 'content',
    key: 'content',
    render: (_: unknown, log) => {
      const text = detailText(log, parseOther(log.other));
      return (
        <Typography.Paragraph ellipsis={{ rows: 2, tooltip: text }} style={{ maxWidth: 260, marginBottom: 0 }}>
          {text}
        </Typography.Paragraph>
      );
    },
  });
  return columns;
}
