import { useEffect, useState } from 'react';
import { Alert, Button, Drawer, Form, Input, InputNumber, Select, Space, Spin, Switch } from 'antd';
import { formatQuota, TOKEN_COUNT_PRESETS, TOKEN_QUOTA_PRESETS } from '@switchyard/shared';
import { tokenApi } from '../../api/token';
import { useAuth } from '../../app/auth';
import { useQuotaDisplay } from '../../app/status';
import { t } from '../../lib/i18n';
import { notify } from '../../lib/notify';
import {
  EXPIRY_PRESETS,
  newTokenValues,
  parseExpiry,
  presetExpiry,
  randomSuffix,
  tokenToValues,
  toInput,
  type TokenFormValues,
} from './tokenForm';
import { useToken, useUserGroups, useUserModels } from './useTokens';

interface TokenDrawerProps {
  open: boolean;
  /** null creates a new token. */
  editingId: number | null;
  onClose(): void;
  onSaved(): void;
}

export function TokenDrawer({ open, editingId, onClose, onSaved }: TokenDrawerProps) {
  const isEdit = editingId !== null;
  return (
    <Drawer
      open={open}
      title={isEdit ? t('更新令牌信息') : t('创建新的令牌')}
      size={600}
      destroyOnHidden
      onClose={onClose}
    >
      {open && <TokenForm editingId={editingId} onClose={onClose} onSaved={onSaved} />}
    </Drawer>
  );
}

function TokenForm({ editingId, onClose, onSaved }: Omit<TokenDrawerProps, 'open'>) {
  const isEdit = editingId !== null;
  const { user } = useAuth();
  const display = useQuotaDisplay();
  const [form] = Form.useForm<TokenFormValues>();
  const [submitting, setSubmitting] = useState(false);
  const userGroup = user?.group ?? '';
  const token = useToken(editingId);
  const models = useUserModels();
  const groups = useUserGroups();

  const unlimited = Form.useWatch('unlimited_quota', form) ?? false;
  const limitsOn = Form.useWatch('model_limits_enabled', form) ?? false;
  const quota = Form.useWatch('remain_quota', form) ?? 0;

  useEffect(() => {
    if (token.data) form.setFieldsValue(tokenToValues(token.data, userGroup));
  }, [token.data, form, userGroup]);

  const groupEntries = Object.entries(groups.data ?? {});

  const submit = async (values: TokenFormValues) => {
    const expiredTime = parseExpiry(values.expired);
    if (expiredTime === null) {
      notify.error(t('过期时间格式错误！'));
      return;
    }
    const group = groupEntries.length > 0 ? values.group : '';
    setSubmitting(true);
    try {
      if (isEdit) {
        await tokenApi.update(editingId, toInput({ ...values, group }, expiredTime, values.name));
        notify.success(t('令牌更新成功！'));
      } else {
        const count = Math.max(1, Math.trunc(Number(values.count) || 1));
        let created = 0;
        for (let i = 0; i < count; i++) {
          const name = i === 0 ? values.name : `${values.name}-${randomSuffix()}`;
          try {
            const res = await tokenApi.create(toInput({ ...values, group }, expiredTime, name));
            if (res.success) created++;
          } catch {
            // Already shown by the API client; keep counting the others.
          }
        }
        if (created === 0) return;
        notify.success(t('{n}个令牌创建成功，请在列表页面点击复制获取令牌！', { n: created }));
      }
      onSaved();
      onClose();
    } catch {
      // The API client has shown the failure.
    } finally {
      setSubmitting(false);
    }
  };

  if (isEdit && token.isLoading) return <Spin />;

  return (
    <Form<TokenFormValues>
      form={form}
      name="token-form"
      layout="vertical"
      initialValues={newTokenValues(userGroup)}
      onFinish={(v) => void submit(v)}
    >
      <Form.Item
        name="name"
        label={t('名称')}
        rules={isEdit ? [] : [{ required: true, whitespace: true, message: t('请输入名称') }]}
      >
        <Input placeholder={t('请输入名称')} allowClear />
      </Form.Item>

      <Form.Item label={t('过期时间')} required={false} style={{ marginBottom: 8 }}>
        <Form.Item name="expired" noStyle>
          <Input placeholder={t('永不过期')} aria-label={t('过期时间')} allowClear />
        </Form.Item>
      </Form.Item>
      <Space wrap style={{ marginBottom: 24 }}>
        {EXPIRY_PRESETS.map((p) => (
          <Button key={p.label} size="small" onClick={() => form.setFieldValue('expired', presetExpiry(p.add))}>
            {t(p.label)}
          </Button>
        ))}
      </Space>

      <Alert
        type="info"
        showIcon
        style={{ marginBottom: 16 }}
        title={t('注意，令牌的额度仅用于限制令牌本身的最大额度使用量，实际的使用受到账户的剩余额度限制。')}
      />
      <Form.Item
        name="remain_quota"
        label={t('额度')}
        extra={unlimited ? undefined : formatQuota(Number(quota) || 0, display)}
        style={{ marginBottom: 8 }}
      >
        <InputNumber min={0} precision={0} disabled={unlimited} style={{ width: '100%' }} />
      </Form.Item>
      <Space wrap style={{ marginBottom: 16 }}>
        {TOKEN_QUOTA_PRESETS.map((p) => (
          <Button
            key={p.label}
            size="small"
            disabled={unlimited}
            onClick={() => form.setFieldValue('remain_quota', p.quota)}
          >
            {p.label}
          </Button>
        ))}
      </Space>
      <Form.Item name="unlimited_quota" hidden valuePropName="checked">
        <Switch />
      </Form.Item>
      <div style={{ marginBottom: 24 }}>
        <Button aria-pressed={unlimited} onClick={() => form.setFieldValue('unlimited_quota', !unlimited)}>
          {unlimited ? t('取消无限额度') : t('设为无限额度')}
        </Button>
      </div>

      {!isEdit && (
        <>
          <Form.Item name="count" label={t('新建数量')} style={{ marginBottom: 8 }}>
            <InputNumber min={1} precision={0} style={{ width: '100%' }} />
          </Form.Item>
          <Space wrap style={{ marginBottom: 24 }}>
            {TOKEN_COUNT_PRESETS.map((n) => (
              <Button key={n} size="small" onClick={() => form.setFieldValue('count', n)}>
                {t('{n}个', { n })}
              </Button>
            ))}
          </Space>
        </>
      )}

      <Form.Item name="allow_ips" label={t('IP白名单（请勿过度信任此功能）')}>
        <Input.TextArea placeholder={t('允许的IP，一行一个')} autoSize={{ minRows: 2, maxRows: 6 }} />
      </Form.Item>

      <Form.Item
        name="model_limits_enabled"
        label={t('启用模型限制（非必要，不建议启用）')}
        valuePropName="checked"
        layout="horizontal"
        style={{ marginBottom: 8 }}
      >
        <Switch />
      </Form.Item>
      <Form.Item name="model_limits" label={t('模型限制')}>
        <Select
          mode="multiple"
          allowClear
          disabled={!limitsOn}
          loading={models.isLoading}
          placeholder={t('请选择该令牌支持的模型，留空支持所有模型')}
          options={(models.data ?? []).map((m) => ({ label: m, value: m }))}
        />
      </Form.Item>

      {groupEntries.length > 0 ? (
        <Form.Item name="group" label={t('令牌分组')}>
          <Select
            loading={groups.isLoading}
            options={groupEntries.map(([name, info]) => ({
              value: name,
              label: t('{group}（倍率：{ratio}）', { group: info.desc || name, ratio: info.ratio }),
            }))}
          />
        </Form.Item>
      ) : (
        <Form.Item label={t('令牌分组')} htmlFor="token-group-none">
          <Input id="token-group-none" disabled value={groups.isLoading ? '' : t('管理员未设置用户可选分组')} />
        </Form.Item>
      )}

      <Space>
        <Button type="primary" htmlType="submit" loading={submitting}>
          {t('提交')}
        </Button>
        <Button onClick={onClose}>{t('取消')}</Button>
      </Space>
    </Form>
  );
}
