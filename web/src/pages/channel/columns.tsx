import { Button, Dropdown, InputNumber, Popconfirm, Space, Tag, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { CopyOutlined, DownOutlined } from '@ant-design/icons';
import { CHANNEL_STATUS, channelStatusName } from '@switchyard/shared';
import type { ChannelDto } from '../../api/channel';
import { formatUnixTime } from '../../lib/format';
import { t } from '../../lib/i18n';
import { parseOtherInfo, responseTimeColor, responseTimeText, splitList } from './health';

export interface ChannelRowActions {
  copyName(row: ChannelDto): void;
  test(row: ChannelDto, model?: string): Promise<void>;
  updateBalance(row: ChannelDto): Promise<void>;
  setNumber(row: ChannelDto, field: 'priority' | 'weight', value: number): Promise<void>;
  toggle(row: ChannelDto): Promise<void>;
  edit(row: ChannelDto): void;
  copy(row: ChannelDto): Promise<void>;
  remove(row: ChannelDto): Promise<void>;
  /** Opens 多密钥管理 for a multi-key channel. */
  manageKeys?(row: ChannelDto): void;
}

export interface ChannelRowState {
  /** Ids of channels whose test is running. */
  testing: ReadonlySet<number>;
  /** Ids of channels whose balance is being fetched. */
  balancing: ReadonlySet<number>;
  typeName(type: number): string;
}

export function ChannelStatusTag({ channel }: { channel: ChannelDto }) {
  switch (channel.status) {
    case CHANNEL_STATUS.ENABLED:
      return <Tag color="green">{t(channelStatusName(channel.status))}</Tag>;
    case CHANNEL_STATUS.MANUALLY_DISABLED:
      return <Tag color="red">{t(channelStatusName(channel.status))}</Tag>;
    case CHANNEL_STATUS.AUTO_DISABLED: {
      const info = parseOtherInfo(channel.other_info);
      const title = (
        <div>
          <div>{`${t('原因：')}${info.status_reason || t('未知')}`}</div>
          <div>{`${t('时间：')}${info.status_time ? formatUnixTime(info.status_time) : t('未知')}`}</div>
        </div>
      );
      return (
        <Tooltip title={title}>
          <Tag color="yellow">{t(channelStatusName(channel.status))}</Tag>
        </Tooltip>
      );
    }
    default:
      return <Tag color="default">{t(channelStatusName(channel.status))}</Tag>;
  }
}

/** A multi-key channel's pool at a glance: enabled keys of all, and how it picks one. */
function MultiKeyTag({ info }: { info: NonNullable<ChannelDto['channel_info']> }) {
  const off = Object.values(info.multi_key_status_list ?? {}).filter((s) => s !== CHANNEL_STATUS.ENABLED).length;
  const mode = info.multi_key_mode === 'polling' ? t('轮询') : t('随机');
  return (
    <Tooltip title={`${t('多密钥')}（${mode}）`}>
      <Tag color="blue">{`${t('多密钥')} ${info.multi_key_size - off}/${info.multi_key_size}`}</Tag>
    </Tooltip>
  );
}

function ResponseTime({ channel, busy, onTest }: { channel: ChannelDto; busy: boolean; onTest(): void }) {
  const ms = channel.response_time;
  const text = ms === 0 ? t('未测试') : responseTimeText(ms);
  const tested = channel.test_time ? `${t('上次测试时间：')}${formatUnixTime(channel.test_time)}` : '';
  return (
    <Tooltip title={[t('点击测试'), tested].filter(Boolean).join(' · ')}>
      <Button
        size="small"
        type="text"
        loading={busy}
        // Not "未测试": a row's only button named like 测试 stays the test button itself.
        aria-label={ms === 0 ? t('响应时间') : `${t('响应时间')} ${text}`}
        onClick={onTest}
        style={{ padding: 0, height: 'auto' }}
      >
        <Tag color={ms === 0 ? 'default' : responseTimeColor(ms)} style={{ marginInlineEnd: 0 }}>
          {text}
        </Tag>
      </Button>
    </Tooltip>
  );
}

function Balance({ channel, busy, onUpdate }: { channel: ChannelDto; busy: boolean; onUpdate(): void }) {
  const updated = channel.balance_updated_time
    ? `${t('更新时间：')}${formatUnixTime(channel.balance_updated_time)}`
    : '';
  const amount = `$${(channel.balance ?? 0).toFixed(2)}`;
  return (
    <Tooltip title={[t('点击更新余额'), updated].filter(Boolean).join(' · ')}>
      <Button
        size="small"
        type="text"
        loading={busy}
        aria-label={`${t('余额')} ${amount}`}
        onClick={onUpdate}
        style={{ padding: 0, height: 'auto' }}
      >
        <Tag color="blue" style={{ marginInlineEnd: 0 }}>
          {amount}
        </Tag>
      </Button>
    </Tooltip>
  );
}

/** An inline number saved on blur or enter; a blank value is ignored (spec §5). */
function InlineNumber({
  value,
  min,
  label,
  onSave,
}: {
  value: number;
  min: number;
  label: string;
  onSave(value: number): void;
}) {
  const commit = (raw: string) => {
    if (raw.trim() === '') return;
    const n = Number(raw);
    if (!Number.isFinite(n)) return;
    const next = Math.max(min, Math.trunc(n));
    if (next !== value) onSave(next);
  };
  return (
    <InputNumber
      // Re-mount when the saved value changes so the field shows it.
      key={value}
      size="small"
      style={{ width: 80 }}
      min={min}
      precision={0}
      defaultValue={value}
      aria-label={label}
      onBlur={(e) => commit(e.target.value)}
      onPressEnter={(e) => commit((e.target as HTMLInputElement).value)}
    />
  );
}

function TestButton({ channel, busy, onTest }: { channel: ChannelDto; busy: boolean; onTest(model?: string): void }) {
  const models = splitList(channel.models);
  return (
    <Space.Compact size="small">
      <Button size="small" loading={busy} onClick={() => onTest()}>
        {t('测试')}
      </Button>
      <Dropdown
        trigger={['click']}
        disabled={busy || models.length === 0}
        menu={{
          items: models.map((m) => ({ key: m, label: m })),
          onClick: ({ key }) => onTest(key),
          style: { maxHeight: 320, overflowY: 'auto' },
        }}
      >
        <Button size="small" icon={<DownOutlined />} aria-label={t('选择模型')} />
      </Dropdown>
    </Space.Compact>
  );
}

export function channelColumns(actions: ChannelRowActions, state: ChannelRowState): ColumnsType<ChannelDto> {
  return [
    { title: 'ID', dataIndex: 'id', key: 'id' },
    {
      title: t('名称'),
      dataIndex: 'name',
      key: 'name',
      render: (_: unknown, row) => (
        <Space size={4}>
          <Typography.Text>{row.name}</Typography.Text>
          <Tooltip title={t('复制名称')}>
            <Button
              size="small"
              type="text"
              icon={<CopyOutlined />}
              aria-label={t('复制名称')}
              onClick={() => actions.copyName(row)}
            />
          </Tooltip>
        </Space>
      ),
    },
    {
      title: t('分组'),
      dataIndex: 'group',
      key: 'group',
      render: (g: string) => (
        <Space size={4} wrap>
          {splitList(g).map((name) => (
            <Tag key={name}>{name}</Tag>
          ))}
        </Space>
      ),
    },
    { title: t('类型'), dataIndex: 'type', key: 'type', render: (type: number) => t(state.typeName(type)) },
    {
      title: t('状态'),
      dataIndex: 'status',
      key: 'status',
      render: (_: unknown, row) => (
        <Space size={4}>
          <ChannelStatusTag channel={row} />
          {row.channel_info?.is_multi_key && <MultiKeyTag info={row.channel_info} />}
        </Space>
      ),
    },
    {
      title: t('响应时间'),
      dataIndex: 'response_time',
      key: 'response_time',
      render: (_: unknown, row) => (
        <ResponseTime channel={row} busy={state.testing.has(row.id)} onTest={() => void actions.test(row)} />
      ),
    },
    {
      title: t('余额'),
      dataIndex: 'balance',
      key: 'balance',
      render: (_: unknown, row) => (
        <Balance channel={row} busy={state.balancing.has(row.id)} onUpdate={() => void actions.updateBalance(row)} />
      ),
    },
    {
      title: t('优先级'),
      dataIndex: 'priority',
      key: 'priority',
      render: (_: unknown, row) => (
        <InlineNumber
          value={row.priority}
          min={-999}
          label={t('优先级')}
          onSave={(v) => void actions.setNumber(row, 'priority', v)}
        />
      ),
    },
    {
      title: t('权重'),
      dataIndex: 'weight',
      key: 'weight',
      render: (_: unknown, row) => (
        <InlineNumber value={row.weight} min={0} label={t('权重')} onSave={(v) => void actions.setNumber(row, 'weight', v)} />
      ),
    },
    {
      title: t('操作'),
      key: 'actions',
      render: (_: unknown, row) => (
        <Space size={4} wrap>
          <TestButton channel={row} busy={state.testing.has(row.id)} onTest={(model) => void actions.test(row, model)} />
          <Button size="small" onClick={() => void actions.toggle(row)}>
            {row.status === CHANNEL_STATUS.ENABLED ? t('禁用') : t('启用')}
          </Button>
          <Button size="small" onClick={() => actions.edit(row)}>
            {t('编辑')}
          </Button>
          {row.channel_info?.is_multi_key && actions.manageKeys && (
            <Button size="small" onClick={() => actions.manageKeys?.(row)}>
              {t('多密钥管理')}
            </Button>
          )}
          <Button size="small" onClick={() => void actions.copy(row)}>
            {t('复制')}
          </Button>
          <Popconfirm
            title={t('确定是否要删除此渠道？')}
            description={t('此修改将不可逆')}
            okText={t('确定')}
            cancelText={t('取消')}
            onConfirm={() => actions.remove(row)}
          >
            <Button size="small" danger>
              {t('删除')}
            </Button>
          </Popconfirm>
        </Space>
      ),
    },
  ];
}
