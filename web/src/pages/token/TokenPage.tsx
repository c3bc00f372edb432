import { useMemo, useState } from 'react';
import { Alert, Button, Card, Form, Input, Modal, Space, Table, Typography, theme } from 'antd';
import { TOKEN_STATUS, type TokenDto } from '@switchyard/shared';
import { tokenApi } from '../../api/token';
import { useStatus, useQuotaDisplay } from '../../app/status';
import { t } from '../../lib/i18n';
import { notify } from '../../lib/notify';
import { fillChatLink, gatewayAddress } from '../../lib/chatLinks';
import { linkKind } from '../../lib/safeUrl';
import { tokenColumns, type TokenRowActions } from './columns';
import { TokenDrawer } from './TokenDrawer';
import { useCopyText } from '../../components/useCopyText';
import { useTokens, type TokenSearch } from './useTokens';

type DrawerState = { mode: 'create' } | { mode: 'edit'; id: number } | null;

export default function TokenPage() {
  return (
    <TokenPageBody />
  );
}

function TokenPageBody() {
  const { status } = useStatus();
  const display = useQuotaDisplay();
  const copy = useCopyText();
  const { token: themeToken } = theme.useToken();
  const [searchForm] = Form.useForm<TokenSearch>();
  const [search, setSearch] = useState<TokenSearch | null>(null);
  const { items, loading, pagination, setPage, patch, refresh } = useTokens(search);
  const [selected, setSelected] = useState<TokenDto[]>([]);
  const [viewing, setViewing] = useState<TokenDto | null>(null);
  const [drawer, setDrawer] = useState<DrawerState>(null);

  const runSearch = (values: Partial<TokenSearch>) => {
    const keyword = (values.keyword ?? '').trim();
    const token = (values.token ?? '').trim();
    setPage(1);
    setSearch(keyword === '' && token === '' ? null : { keyword, token });
  };

  const actions: TokenRowActions = useMemo(
    () => ({
      view: (row) => setViewing(row),
      copy: (row) => void copy(`sk-${row.key}`),
      openChat: (row, template) => {
        const url = fillChatLink(template, row.key, gatewayAddress(status.server_address, window.location.origin));
        if (linkKind(url) === 'unsafe') notify.error(t('聊天链接配置错误，请联系管理员'));
        else window.open(url, '_blank', 'noopener');
      },
      remove: async (row) => {
        await tokenApi.remove(row.id);
        notify.success(t('操作成功完成！'));
        await refresh();
      },
      toggle: async (row) => {
        const next = row.status === TOKEN_STATUS.ENABLED ? TOKEN_STATUS.DISABLED : TOKEN_STATUS.ENABLED;
        const updated = await tokenApi.setStatus(row.id, next);
        patch(row.id, { status: updated?.status ?? next });
        notify.success(t('操作成功完成！'));
      },
      edit: (row) => setDrawer({ mode: 'edit', id: row.id }),
    }),
    [copy, patch, refresh, status.server_address],
  );
  const columns = useMemo(() => tokenColumns(display, actions), [display, actions]);

  const copySelected = () => {
    if (selected.length === 0) {
      notify.error(t('请至少选择一个令牌！'));
      return;
    }
    void copy(selected.map((row) => `sk-${row.key}`).join('\n'));
  };

  return (
    <Card>
      <Alert
        type="warning"
        showIcon
        style={{ marginBottom: 16 }}
        title={t('令牌无法精确控制使用额度，只允许自用，请勿直接将令牌分发给用户。')}
      />
      <Form form={searchForm} name="token-search" layout="inline" onFinish={runSearch} style={{ marginBottom: 16, rowGap: 8 }}>
        <Form.Item name="keyword" label={t('令牌名称')}>
          <Input allowClear placeholder={t('搜索令牌的名称 ...')} />
        </Form.Item>
        <Form.Item name="token" label={t('令牌密钥')}>
          <Input allowClear placeholder={t('搜索令牌的密钥 ...')} />
        </Form.Item>
        <Form.Item>
          <Button type="primary" htmlType="submit">
            {t('查询')}
          </Button>
        </Form.Item>
      </Form>
      <Space style={{ marginBottom: 16 }}>
        <Button type="primary" onClick={() => setDrawer({ mode: 'create' })}>
          {t('添加令牌')}
        </Button>
        <Button onClick={copySelected}>{t('复制所选令牌')}</Button>
      </Space>
      <Table<TokenDto>
        rowKey="id"
        columns={columns}
        dataSource={items}
        loading={loading}
        pagination={pagination}
        scroll={{ x: 'max-content' }}
        rowSelection={{
          selectedRowKeys: selected.map((row) => row.id),
          onChange: (_keys, rows) => setSelected(rows),
        }}
        onRow={(row) => (row.status === TOKEN_STATUS.ENABLED ? {} : { style: { background: themeToken.colorFillSecondary } })}
      />
      <Modal
        open={viewing !== null}
        title={t('令牌密钥')}
        footer={null}
        onCancel={() => setViewing(null)}
      >
        {viewing && (
          <Typography.Paragraph code style={{ wordBreak: 'break-all' }}>
            {`sk-${viewing.key}`}
          </Typography.Paragraph>
        )}
      </Modal>
      <TokenDrawer
        open={drawer !== null}
        editingId={drawer?.mode === 'edit' ? drawer.id : null}
        onClose={() => setDrawer(null)}
        onSaved={() => void refresh()}
      />
    </Card>
  );
}
