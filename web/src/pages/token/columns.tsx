import { Button, Dropdown, Popconfirm, Space, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { formatQuota, TOKEN_STATUS, type QuotaDisplay, type TokenDto } from '@switchyard/shared';
import { t } from '../../lib/i18n';
import { notify } from '../../lib/notify';
import { useStatus } from '../../app/status';
import { chatLinkList, readChatLinks } from '../../lib/chatLinks';
import { formatTime } from './time';

export interface TokenRowActions {
  view(token: TokenDto): void;
  copy(token: TokenDto): void;
  openChat(token: TokenDto, template: string): void;
  remove(token: TokenDto): Promise<void>;
  toggle(token: TokenDto): Promise<void>;
  edit(token: TokenDto): void;
}

export function TokenStatusTag({ token }: { token: TokenDto }) {
  switch (token.status) {
    case TOKEN_STATUS.ENABLED:
      return token.model_limits_enabled ? (
        <Tag color="green">{t('已启用：限制模型')}</Tag>
      ) : (
        <Tag color="green">{t('已启用')}</Tag>
      );
    case TOKEN_STATUS.DISABLED:
      return <Tag color="red">{t('已禁用')}</Tag>;
    case TOKEN_STATUS.EXPIRED:
      return <Tag color="gold">{t('已过期')}</Tag>;
    case TOKEN_STATUS.EXHAUSTED:
      return <Tag color="default">{t('已耗尽')}</Tag>;
    default:
      return <Tag color="default">{t('未知状态')}</Tag>;
  }
}

function ChatButton({ onOpen }: { onOpen: (template: string) => void }) {
  const { status } = useStatus();
  const links = readChatLinks(status, t('聊天'));
  const targets = chatLinkList(links);
  if (targets.length === 0) {
    const text = links.kind === 'bad' ? t('聊天链接配置错误，请联系管理员') : t('请联系管理员配置聊天链接');
    return (
      <Button size="small" onClick={() => notify.error(text)}>
        {t('聊天')}
      </Button>
    );
  }
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        items: targets.map((c, i) => ({ key: String(i), label: c.name })),
        onClick: ({ key }) => onOpen(targets[Number(key)].template),
      }}
    >
      <Button size="small">
        {t('聊天')}
      </Button>
    </Dropdown>
  );
}

export function tokenColumns(display: QuotaDisplay, actions: TokenRowActions): ColumnsType<TokenDto> {
  return [
    { title: t('名称'), dataIndex: 'name', key: 'name' },
    { title: t('状态'), dataIndex: 'status', key: 'status', render: (_: unknown, row) => <TokenStatusTag token={row} /> },
    {
      title: t('已用额度'),
      dataIndex: 'used_quota',
      key: 'used_quota',
      render: (v: number) => formatQuota(v, display),
    },
    {
      title: t('剩余额度'),
      dataIndex: 'remain_quota',
      key: 'remain_quota',
      render: (v: number, row) =>
        row.unlimited_quota ? <Tag>{t('无限制')}</Tag> : <Tag color="blue">{formatQuota(v, display)}</Tag>,
    },
    { title: t('创建时间'), dataIndex: 'created_time', key: 'created_time', render: (v: number) => formatTime(v) },
    {
      title: t('过期时间'),
      dataIndex: 'expired_time',
      key: 'expired_time',
      render: (v: number) => (v === -1 ? t('永不过期') : formatTime(v)),
    },
    {
      title: t('操作'),
      key: 'actions',
      render: (_: unknown, row) => (
        <Space size={4} wrap>
          <Button size="small" onClick={() => actions.view(row)}>
            {t('查看')}
          </Button>
          <Button size="small" onClick={() => actions.copy(row)}>
            {t('复制')}
          </Button>
          <ChatButton onOpen={(tpl) => actions.openChat(row, tpl)} />
          <Popconfirm
            title={t('确定是否要删除此令牌？此修改将不可逆')}
            okText={t('确定')}
            cancelText={t('取消')}
            onConfirm={() => actions.remove(row)}
          >
            <Button size="small" danger>
              {t('删除')}
            </Button>
          </Popconfirm>
          <Button size="small" onClick={() => void actions.toggle(row)}>
            {row.status === TOKEN_STATUS.ENABLED ? t('禁用') : t('启用')}
          </Button>
          <Button size="small" onClick={() => actions.edit(row)}>
            {t('编辑')}
          </Button>
        </Space>
      ),
    },
  ];
}
