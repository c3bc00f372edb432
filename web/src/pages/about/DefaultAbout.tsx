import { Card, Typography } from 'antd';
import { t } from '../../lib/i18n';

/** Shown when the administrator has not set an About text. */
export function DefaultAbout() {
  return (
    <Card title={t('关于')}>
      <Typography.Paragraph>
        {t(
          'Switchyard 是一个 AI 接口网关：管理员接入 OpenAI、Claude、Gemini 等上游服务的渠道，用户以额度和令牌统一调用各家模型，并查看用量与价格。',
        )}
      </Typography.Paragraph>
      <Typography.Paragraph type="secondary">
        {t('管理员可以在「设置 → 其他设置」中设置关于内容，支持 HTML，或填入一个以 https:// 开头的链接以内嵌页面。')}
      </Typography.Paragraph>
    </Card>
  );
}
