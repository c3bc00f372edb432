import { useEffect, useState } from 'react';
import { Form, Input, InputNumber, Modal, Select } from 'antd';
import { channelApi, type TagEdit } from '../../api/channel';
import { t } from '../../lib/i18n';
import { notify } from '../../lib/notify';
import { useGroupNames } from '../../components/GroupSelect';
import { paramOverrideProblem } from './channelSettings';

interface TagEditValues {
  new_tag: string;
  priority: number | null;
  weight: number | null;
  models: string;
  groups: string[];
  model_mapping: string;
  param_override: string;
}

const isJsonObject = (text: string) => {
  try {
    const v: unknown = JSON.parse(text);
    return v !== null && typeof v === 'object' && !Array.isArray(v);
  } catch {
    return false;
  }
};

/** The edit sent for the form's values: blank fields change nothing. */
export function tagEditOf(tag: string, v: TagEditValues): TagEdit {
  const edit: TagEdit = { tag };
  if (v.new_tag.trim() !== '' && v.new_tag.trim() !== tag) edit.new_tag = v.new_tag.trim();
  if (v.priority !== null && v.priority !== undefined) edit.priority = v.priority;
  if (v.weight !== null && v.weight !== undefined) edit.weight = v.weight;
  if (v.models.trim() !== '') edit.models = v.models.split(',').map((m) => m.trim()).filter(Boolean).join(',');
  if (v.groups.length > 0) edit.groups = v.groups.join(',');
  if (v.model_mapping.trim() !== '') edit.model_mapping = v.model_mapping.trim();
  if (v.param_override.trim() !== '') edit.param_override = v.param_override.trim();
  return edit;
}

/** Edits every channel of a tag at once (PUT /api/channel/tag). */
export function TagEditModal({ tag, onClose, onSaved }: { tag: string | null; onClose(): void; onSaved(): void }) {
  const [form] = Form.useForm<TagEditValues>();
  const [saving, setSaving] = useState(false);
  const groups = useGroupNames();

  useEffect(() => {
    if (tag === null) return;
    form.setFieldsValue({ new_tag: tag, priority: null, weight: null, models: '', groups: [], model_mapping: '', param_override: '' });
    channelApi.tagModels(tag).then(
      (models) => form.setFieldValue('models', models),
      () => undefined,
    );
  }, [form, tag]);

  const save = async () => {
    if (tag === null) return;
    const values = form.getFieldsValue(true) as TagEditValues;
    if (values.model_mapping.trim() !== '' && !isJsonObject(values.model_mapping)) {
      notify.error(t('模型映射必须是合法的 JSON 格式！'));
      return;
    }
    const problem = values.param_override.trim() === '' ? null : paramOverrideProblem(values.param_override);
    if (problem) {
      notify.error(problem);
      return;
    }
    setSaving(true);
    try {
      await channelApi.editTag(tagEditOf(tag, values));
      notify.success(t('操作成功完成！'));
      onSaved();
      onClose();
    } catch {
      // The API client has shown the failure.
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal open={tag !== null} title={t('编辑标签：{tag}', { tag: tag ?? '' })} okText={t('提交')} confirmLoading={saving} onOk={() => void save()} onCancel={onClose} destroyOnHidden>
      <p>{t('所有填写的项会应用到该标签下的全部渠道，留空的项保持不变。')}</p>
      <Form form={form} layout="vertical" name="tag-edit">
        <Form.Item name="new_tag" label={t('标签名')}>
          <Input allowClear />
        </Form.Item>
        <Form.Item name="priority" label={t('优先级')}>
          <InputNumber min={-999} precision={0} style={{ width: 160 }} />
        </Form.Item>
        <Form.Item name="weight" label={t('权重')}>
          <InputNumber min={0} precision={0} style={{ width: 160 }} />
        </Form.Item>
        <Form.Item name="models" label={t('模型')}>
          <Input.TextArea autoSize={{ minRows: 2, maxRows: 6 }} placeholder={t('逗号分隔的模型列表')} spellCheck={false} />
        </Form.Item>
        <Form.Item name="groups" label={t('分组')}>
          <Select mode="multiple" allowClear options={(groups.data ?? ['default']).map((g) => ({ label: g, value: g }))} />
        </Form.Item>
        <Form.Item name="model_mapping" label={t('模型重定向')}>
          <Input.TextArea autoSize={{ minRows: 2, maxRows: 6 }} spellCheck={false} />
        </Form.Item>
        <Form.Item name="param_override" label={t('参数覆盖')}>
          <Input.TextArea autoSize={{ minRows: 2, maxRows: 6 }} spellCheck={false} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
