import { useEffect, useState } from 'react';
import { Alert, Button, Drawer, Form, Input, InputNumber, Select, Space, Spin, Switch } from 'antd';
import { CHANNEL_TYPE, CHANNEL_TYPES, channelType, defaultModels } from '@switchyard/shared';
import { channelApi, type CreateMode } from '../../api/channel';
import { t } from '../../lib/i18n';
import { notify } from '../../lib/notify';
import {
  channelToValues,
  MODEL_MAPPING_TEMPLATE,
  newChannelValues,
  otherDefault,
  STATUS_CODE_MAPPING_TEMPLATE,
  toChannelInput,
  validateChannel,
  type ChannelFormValues,
} from './channelForm';
import { ModelsField } from './ModelsField';
import { SettingsFields } from './SettingsFields';
import { TypeFields } from './TypeFields';
import { KeyModeFields, keyModeHint } from './KeyModeFields';
import { useChannel } from './useChannels';
import { useGroupNames } from '../../components/GroupSelect';
import { useStatus } from '../../app/status';
import { gatewayAddress } from '../../lib/chatLinks';
import { attributionDefaults } from './channelSettings';

const TYPE_OPTIONS = CHANNEL_TYPES.map((info) => ({ value: info.value, label: info.name }));

interface ChannelDrawerProps {
  open: boolean;
  /** null creates a new channel. */
  editingId: number | null;
  onClose(): void;
  onSaved(): void;
}

export function ChannelDrawer({ open, editingId, onClose, onSaved }: ChannelDrawerProps) {
  const isEdit = editingId !== null;
  return (
    <Drawer
      open={open}
      title={isEdit ? t('更新渠道信息') : t('创建新的渠道')}
      size={640}
      destroyOnHidden
      onClose={onClose}
    >
      {open && <EditorBody key={editingId ?? 'new'} editingId={editingId} onClose={onClose} onSaved={onSaved} />}
    </Drawer>
  );
}

function EditorBody({ editingId, onClose, onSaved }: Omit<ChannelDrawerProps, 'open'>) {
  const channel = useChannel(editingId);
  useEffect(() => {
    if (channel.isError) notify.error(t('渠道未找到，请刷新页面后重试。'));
  }, [channel.isError]);

  if (editingId === null) return <ChannelForm editingId={null} initial={newChannelValues()} onClose={onClose} onSaved={onSaved} />;
  if (channel.isLoading) return <Spin />;
  if (!channel.data) return <Alert type="error" showIcon title={t('渠道未找到，请刷新页面后重试。')} />;
  return <ChannelForm editingId={editingId} initial={channelToValues(channel.data)} onClose={onClose} onSaved={onSaved} />;
}

interface FormProps extends Omit<ChannelDrawerProps, 'open'> {
  initial: ChannelFormValues;
}

function ChannelForm({ editingId, initial, onClose, onSaved }: FormProps) {
  const isEdit = editingId !== null;
  const [form] = Form.useForm<ChannelFormValues>();
  const [submitting, setSubmitting] = useState(false);
  const [keyMode, setKeyMode] = useState<CreateMode>({ mode: 'batch', multi_key_mode: 'random' });
  const groups = useGroupNames();
  const { status } = useStatus();
  const type = Form.useWatch('type', form) ?? initial.type;

  const groupOptions = [...new Set(['default', ...(groups.data ?? []), ...initial.groups])].map((g) => ({ label: g, value: g }));

  /**
   * A new type brings its defaults: its models when none are chosen, its `other` default, and for OpenRouter the
   * app attribution it is sent (this console's address and the system's name) when none is set.
   */
  const onTypeChange = (next: number) => {
    const models: string[] = form.getFieldValue('models') ?? [];
    if (models.length === 0) form.setFieldValue('models', [...defaultModels(next)]);
    const other = String(form.getFieldValue('other') ?? '').trim();
    if (other === '' && otherDefault(next) !== '') form.setFieldValue('other', otherDefault(next));
    const unset = (name: 'http_referer' | 'x_title') => String(form.getFieldValue(name) ?? '').trim() === '';
    if (next === CHANNEL_TYPE.OPENROUTER && unset('http_referer') && unset('x_title')) {
      form.setFieldsValue(attributionDefaults(gatewayAddress(status.server_address, window.location.origin), status.system_name || 'Switchyard'));
    }
  };

  const submit = async () => {
    const values = { ...initial, ...form.getFieldsValue(true) } as ChannelFormValues;
    const problem = validateChannel(values, isEdit);
    if (problem) {
      notify.error(problem);
      return;
    }
    const input = toChannelInput(values);
    setSubmitting(true);
    try {
      if (isEdit) {
        // A blank key leaves the stored one unchanged.
        const { key, ...rest } = input;
        await channelApi.update(editingId, key === '' ? rest : input);
        notify.success(t('渠道更新成功！'));
      } else {
        await channelApi.create({ ...input, ...keyMode });
        notify.success(t('渠道创建成功！'));
      }
      onSaved();
      onClose();
    } catch {
      // The API client has shown the failure.
    } finally {
      setSubmitting(false);
    }
  };

  const keyHint = channelType(type)?.keyHint;
  const keyExtra = keyHint ? t(keyHint) : isEdit ? undefined : keyModeHint(keyMode.mode);

  return (
    <Form<ChannelFormValues>
      form={form}
      name="channel-form"
      layout="vertical"
      initialValues={initial}
      onValuesChange={(changed: Partial<ChannelFormValues>) => {
        if (changed.type !== undefined) onTypeChange(changed.type);
      }}
      onFinish={() => void submit()}
    >
      <Form.Item name="type" label={t('类型')}>
        <Select
          showSearch={{ optionFilterProp: 'label' }}
          options={TYPE_OPTIONS.map((o) => ({ ...o, label: t(o.label) }))}
          placeholder={t('请选择渠道类型')}
        />
      </Form.Item>
      <Form.Item name="name" label={t('名称')}>
        <Input placeholder={t('请为渠道命名')} allowClear />
      </Form.Item>
      <TypeFields form={form} />
      {!isEdit && <KeyModeFields value={keyMode} onChange={setKeyMode} />}
      <Form.Item name="key" label={t('密钥')} extra={keyExtra}>
        <Input.TextArea
          autoSize={{ minRows: isEdit ? 1 : 3, maxRows: 10 }}
          placeholder={
            type === CHANNEL_TYPE.VERTEX_AI
              ? t('请输入服务账号 JSON 密钥')
              : isEdit
                ? t('请输入密钥，留空则不修改')
                : t('请输入密钥，一行一个')
          }
          spellCheck={false}
        />
      </Form.Item>
      <Form.Item name="groups" label={t('分组')}>
        <Select mode="multiple" allowClear placeholder={t('请选择可以使用该渠道的分组')} options={groupOptions} />
      </Form.Item>
      <ModelsField form={form} editingId={editingId} />
      <JsonField
        form={form}
        name="model_mapping"
        label={t('模型重定向')}
        template={MODEL_MAPPING_TEMPLATE}
        placeholder={t('此项可选，用于修改请求体中的模型名称，为一个 JSON 字符串，键为请求中模型名称，值为要替换的模型名称')}
      />
      <JsonField
        form={form}
        name="status_code_mapping"
        label={t('状态码复写')}
        template={STATUS_CODE_MAPPING_TEMPLATE}
        placeholder={t('此项可选，用于复写返回的状态码，仅影响本地判断，不修改返回到上游的状态码，例如将 400 错误复写为 500')}
      />
      <SettingsFields form={form} />
      <Form.Item name="test_model" label={t('默认测试模型')}>
        <Input placeholder={t('不填则为模型列表第一个')} allowClear />
      </Form.Item>
      <Form.Item name="auto_ban" label={t('是否自动禁用')} valuePropName="checked" extra={t('仅当自动禁用开启时有效，关闭后不会自动禁用该渠道')}>
        <Switch />
      </Form.Item>
      <Space size={16} wrap>
        <Form.Item name="priority" label={t('优先级')}>
          <InputNumber min={-999} precision={0} style={{ width: 160 }} />
        </Form.Item>
        <Form.Item name="weight" label={t('权重')}>
          <InputNumber min={0} precision={0} style={{ width: 160 }} />
        </Form.Item>
      </Space>
      <Space style={{ display: 'flex' }}>
        <Button type="primary" htmlType="submit" loading={submitting}>
          {t('提交')}
        </Button>
        <Button onClick={onClose}>{t('取消')}</Button>
      </Space>
    </Form>
  );
}

/** A JSON textarea with a template button; validity is checked on submit. */
function JsonField({
  form,
  name,
  label,
  template,
  placeholder,
}: {
  form: ReturnType<typeof Form.useForm<ChannelFormValues>>[0];
  name: 'model_mapping' | 'status_code_mapping';
  label: string;
  template: string;
  placeholder: string;
}) {
  const id = `channel-${name}`;
  return (
    <Form.Item
      label={label}
      htmlFor={id}
      extra={
        <Button size="small" type="link" style={{ padding: 0 }} onClick={() => form.setFieldValue(name, template)}>
          {t('填入模板')}
        </Button>
      }
    >
      <Form.Item name={name} noStyle>
        <Input.TextArea id={id} autoSize={{ minRows: 2, maxRows: 10 }} placeholder={placeholder} spellCheck={false} />
      </Form.Item>
    </Form.Item>
  );
}
