import { Button, Form, Input, Switch } from 'antd';
import type { FormInstance } from 'antd';
import { CHANNEL_TYPE } from '@switchyard/shared';
import { t } from '../../lib/i18n';
import type { ChannelFormValues } from './channelForm';
import { paramOverrideProblem, proxyProblem, refererProblem, titleProblem } from './channelSettings';

const PARAM_OVERRIDE_TEMPLATE = JSON.stringify({ temperature: 0.5 }, null, 2);

/** Checks a field as it is typed, with the rule's own message. */
const checked = (problem: (text: string) => string | null) => ({
  validator: (_: unknown, value: string | undefined) => {
    const found = problem(value ?? '');
    return found ? Promise.reject(new Error(found)) : Promise.resolve();
  },
});

/** The drawer's per-channel request settings: tag, parameter override, proxy, system prompt, OpenRouter's attribution. */
export function SettingsFields({ form }: { form: FormInstance<ChannelFormValues> }) {
  const type = Form.useWatch('type', form);
  return (
    <>
      <Form.Item name="tag" label={t('标签')}>
        <Input placeholder={t('渠道标签，同一标签的渠道可在标签聚合模式下一起管理')} allowClear />
      </Form.Item>
      <Form.Item
        label={t('参数覆盖')}
        htmlFor="channel-param_override"
        extra={
          <Button size="small" type="link" style={{ padding: 0 }} onClick={() => form.setFieldValue('param_override', PARAM_OVERRIDE_TEMPLATE)}>
            {t('填入模板')}
          </Button>
        }
      >
        <Form.Item name="param_override" noStyle rules={[checked((v) => (v.trim() === '' ? null : paramOverrideProblem(v)))]}>
          <Input.TextArea
            id="channel-param_override"
            autoSize={{ minRows: 2, maxRows: 10 }}
            placeholder={t('此项可选，JSON 对象，其键值会覆盖发往上游的请求体中的同名参数（不能设置 stream）')}
            spellCheck={false}
          />
        </Form.Item>
      </Form.Item>
      <Form.Item name="proxy" label={t('代理地址')} rules={[checked(proxyProblem)]}>
        <Input placeholder={t('此项可选，例如 http://127.0.0.1:7890 或 socks5://127.0.0.1:1080')} allowClear />
      </Form.Item>
      <Form.Item name="system_prompt" label={t('系统提示词')}>
        <Input.TextArea autoSize={{ minRows: 2, maxRows: 10 }} placeholder={t('此项可选，请求没有系统消息时作为系统消息加在最前面')} />
      </Form.Item>
      <Form.Item
        name="system_prompt_override"
        label={t('拼接到已有系统消息')}
        valuePropName="checked"
        extra={t('开启后，请求已有系统消息时把系统提示词加在它的前面；关闭则保留请求自己的系统消息')}
      >
        <Switch />
      </Form.Item>
      {type === CHANNEL_TYPE.OPENROUTER && (
        <>
          <Form.Item
            name="http_referer"
            label={t('应用地址（HTTP-Referer）')}
            extra={t('OpenRouter 按应用地址和应用名称统计调用来源；不填则使用系统设置中的服务器地址')}
            rules={[checked(refererProblem)]}
          >
            <Input placeholder="https://chat.example.com" allowClear />
          </Form.Item>
          <Form.Item name="x_title" label={t('应用名称（X-Title）')} extra={t('不填则使用系统名称；只能包含英文字母、数字、空格和英文标点')} rules={[checked(titleProblem)]}>
            <Input placeholder="Switchyard" allowClear />
          </Form.Item>
        </>
      )}
    </>
  );
}
