import { useState } from 'react';
import { Button, Form, Input, Select, Space, type FormInstance } from 'antd';
import { CHANNEL_TYPE, defaultBaseUrl, defaultModels } from '@switchyard/shared';
import { channelApi, fetchUpstreamModels } from '../../api/channel';
import { t } from '../../lib/i18n';
import { notify } from '../../lib/notify';
import { addCustomModels, firstKey, type ChannelFormValues } from './channelForm';
import { useAllModels } from './useChannels';

interface Props {
  form: FormInstance<ChannelFormValues>;
  /** Set in edit mode: the upstream list is fetched by the server. */
  editingId: number | null;
}

/** The models multi-select with its fill, clear, fetch and custom-name helpers. */
export function ModelsField({ form, editingId }: Props) {
  const type = Form.useWatch('type', form) ?? CHANNEL_TYPE.OPENAI;
  const selected: string[] = Form.useWatch('models', form) ?? [];
  const allModels = useAllModels();
  const [custom, setCustom] = useState('');
  const [fetching, setFetching] = useState(false);

  const setModels = (models: string[]) => form.setFieldValue('models', models);
  const defaults = defaultModels(type);
  const options = [...new Set([...selected, ...defaults, ...(allModels.data ?? [])])].map((m) => ({ label: m, value: m }));

  const fillAll = async () => {
    const names = allModels.data ?? (await allModels.refetch()).data ?? [];
    setModels([...new Set([...selected, ...names])]);
  };

  const fetchUpstream = async () => {
    // A saved channel's list is asked by the server, which knows each type's listing (and its proxy); a new channel's
    // only of an OpenAI upstream, from the browser.
    if (editingId === null && type !== CHANNEL_TYPE.OPENAI) {
      notify.error(t('仅支持 OpenAI 接口格式'));
      return;
    }
    let names: string[];
    setFetching(true);
    try {
      if (editingId !== null) {
        names = await channelApi.fetchModels(editingId, true);
      } else {
        const key = firstKey(form.getFieldValue('key') ?? '');
        if (key === '') {
          notify.error(t('请填写密钥'));
          return;
        }
        const base = String(form.getFieldValue('base_url') ?? '').trim() || defaultBaseUrl(type);
        names = await fetchUpstreamModels(base, key);
      }
    } catch (err) {
      // In edit mode the server names the upstream's problem (its text starts with the failure itself).
      const failed = t('获取模型列表失败');
      const detail = editingId !== null && err instanceof Error ? err.message : '';
      notify.error(detail.startsWith(failed) ? detail : detail ? t('{label}：{value}', { label: failed, value: detail }) : failed);
      return;
    } finally {
      setFetching(false);
    }
    setModels([...new Set(names)]);
    notify.success(t('获取模型列表成功'));
  };

  const addCustom = () => {
    const { models, duplicates } = addCustomModels(selected, custom);
    if (duplicates) notify.error(t('某些模型已存在！'));
    setModels(models);
    setCustom('');
  };

  return (
    <>
      <Form.Item name="models" label={t('模型')} style={{ marginBottom: 8 }}>
        <Select
          mode="multiple"
          allowClear
          placeholder={t('请选择该渠道所支持的模型')}
          options={options}
          maxTagCount={50}
          loading={allModels.isLoading}
        />
      </Form.Item>
      <Space wrap style={{ marginBottom: 8 }}>
        <Button size="small" type="primary" onClick={() => setModels([...new Set([...selected, ...defaults])])}>
          {t('填入相关模型')}
        </Button>
        <Button size="small" onClick={() => void fillAll()}>
          {t('填入所有模型')}
        </Button>
        <Button size="small" loading={fetching} onClick={() => void fetchUpstream()}>
          {t('获取模型列表')}
        </Button>
        <Button size="small" danger onClick={() => setModels([])}>
          {t('清除所有模型')}
        </Button>
      </Space>
      <Space.Compact style={{ width: '100%', marginBottom: 24 }}>
        <Input
          aria-label={t('自定义模型名称')}
          placeholder={t('输入自定义模型名称，多个用英文逗号分隔')}
          value={custom}
          onChange={(e) => setCustom(e.target.value)}
          onPressEnter={(e) => {
            e.preventDefault();
            addCustom();
          }}
        />
        <Button onClick={addCustom}>{t('填入')}</Button>
      </Space.Compact>
    </>
  );
}
