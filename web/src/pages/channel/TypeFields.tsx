import { Alert, Button, Form, Input, type FormInstance } from 'antd';
import { CHANNEL_TYPE, defaultBaseUrl } from '@switchyard/shared';
import { t } from '../../lib/i18n';
import { VERTEX_REGION_TEMPLATE, type ChannelFormValues } from './channelForm';

/** Base URL and the type-specific `other` / organization fields (spec §5). */
export function TypeFields({ form }: { form: FormInstance<ChannelFormValues> }) {
  const type = Form.useWatch('type', form) ?? CHANNEL_TYPE.OPENAI;

  if (type === CHANNEL_TYPE.AZURE) {
    return (
      <>
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 16 }}
          title={t('注意，模型部署名称必须和模型名称保持一致，因为会把请求体中的 model 参数替换为部署名称（模型名称中的点会被剔除）。')}
        />
        <Form.Item name="base_url" label="AZURE_OPENAI_ENDPOINT">
          <Input placeholder={t('请输入 AZURE_OPENAI_ENDPOINT，例如：https://docs-test-001.openai.azure.com')} />
        </Form.Item>
        <Form.Item name="other" label={t('默认 API 版本')}>
          <Input placeholder={t('请输入默认 API 版本，例如：2024-06-01-preview')} />
        </Form.Item>
      </>
    );
  }

  const defaultBase = defaultBaseUrl(type);
  const baseUrl = (
    <Form.Item
      name="base_url"
      label={type === CHANNEL_TYPE.CUSTOM ? t('完整的 Base URL，支持变量 {model}') : t('Base URL')}
      extra={t('不填则使用默认地址；末尾的 / 会被去掉')}
    >
      <Input
        placeholder={
          defaultBase
            ? defaultBase
            : type === CHANNEL_TYPE.CUSTOM
              ? t('请输入完整的URL，例如：https://api.openai.com/v1/chat/completions')
              : t('请输入 Base URL')
        }
      />
    </Form.Item>
  );

  return (
    <>
      {baseUrl}
      {type === CHANNEL_TYPE.OPENAI && (
        <Form.Item name="openai_organization" label={t('组织')} extra={t('组织，可选，不填则为默认组织')}>
          <Input placeholder={t('请输入组织 org-xxx')} />
        </Form.Item>
      )}
      {type === CHANNEL_TYPE.XUNFEI && (
        <Form.Item name="other" label={t('模型版本')}>
          <Input placeholder={t('请输入星火大模型版本，注意是接口地址中的版本号，例如：v2.1')} />
        </Form.Item>
      )}
      {type === CHANNEL_TYPE.ALI && (
        <Form.Item name="other" label={t('插件参数')} extra={t('作为 X-DashScope-Plugin 请求头发送，不需要插件时留空')}>
          <Input placeholder={t('请输入插件参数，即 X-DashScope-Plugin 请求头的取值')} />
        </Form.Item>
      )}
      {type === CHANNEL_TYPE.TENCENT && (
        <Form.Item name="other" label={t('地域')} extra={t('作为 X-TC-Region 请求头发送，不填则为 ap-guangzhou')}>
          <Input placeholder="ap-guangzhou" />
        </Form.Item>
      )}
      {type === CHANNEL_TYPE.CLOUDFLARE && (
        <Form.Item name="other" label="Account ID">
          <Input placeholder={t('请输入 Account ID，例如：d6b5da8hk1awo8nap34ube6gh')} />
        </Form.Item>
      )}
      {type === CHANNEL_TYPE.VERTEX_AI && (
        <Form.Item
          label={t('部署地区')}
          htmlFor="channel-vertex-region"
          extra={
            <Button
              size="small"
              type="link"
              style={{ padding: 0 }}
              onClick={() => form.setFieldValue('other', VERTEX_REGION_TEMPLATE)}
            >
              {t('填入模板')}
            </Button>
          }
        >
          <Form.Item name="other" noStyle>
            <Input.TextArea
              id="channel-vertex-region"
              autoSize={{ minRows: 2, maxRows: 6 }}
              placeholder={t('请输入部署地区，例如：us-central1；支持使用模型映射格式 {"default": "us-central1", "claude-3-5-sonnet-20240620": "europe-west1"}')}
            />
          </Form.Item>
        </Form.Item>
      )}
    </>
  );
}
