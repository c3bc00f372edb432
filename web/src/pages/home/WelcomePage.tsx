import { Card, Col, Flex, Row, Typography, theme } from 'antd';
import { ApiOutlined, FileSearchOutlined, KeyOutlined, WalletOutlined } from '@ant-design/icons';
import { useStatus } from '../../app/status';
import { LinkButton } from '../../components/LinkButton';
import { t } from '../../lib/i18n';
import { HomeHeader } from './HomeHeader';

const FEATURES = [
  { icon: <ApiOutlined />, title: '多渠道统一转发', text: '兼容 OpenAI、Claude 与 Gemini 接口格式，按分组、优先级与权重选择渠道，失败自动重试。' },
  { icon: <WalletOutlined />, title: '额度与计费', text: '按模型倍率与分组倍率精确结算，流式响应按实际生成内容计费。' },
  { icon: <KeyOutlined />, title: '令牌管理', text: '为不同应用创建独立令牌，设置额度、有效期、可用模型与 IP 白名单。' },
  { icon: <FileSearchOutlined />, title: '用量日志', text: '每次调用的模型、令牌、用时与消耗一目了然，便于核对与分析。' },
];

/** The built-in root page, shown when there is neither a portal nor administrator home page content. */
export function WelcomePage() {
  const { status } = useStatus();
  const { token } = theme.useToken();
  const name = status.system_name || 'Switchyard';
  return (
    <Flex vertical style={{ minHeight: '100vh', background: token.colorBgLayout }}>
      <HomeHeader />
      <main style={{ flex: 1, width: '100%', maxWidth: 1040, margin: '0 auto', padding: '64px 24px 48px' }}>
        <Flex vertical align="center" style={{ textAlign: 'center' }}>
          <Typography.Title style={{ marginTop: 0 }}>{t('一个入口，连接所有大模型')}</Typography.Title>
          <Typography.Paragraph type="secondary" style={{ fontSize: 18, maxWidth: 640 }}>
            {t('{name} 是一个 AI 接口网关：统一接入 OpenAI、Claude、Gemini 等上游服务，用一个令牌调用各家模型，按额度计费，用量清晰可查。', { name })}
          </Typography.Paragraph>
          <LinkButton to="/token" type="primary" size="large">
            {t('进入控制台')}
          </LinkButton>
        </Flex>
        <Row gutter={[20, 20]} style={{ marginTop: 64 }}>
          {FEATURES.map((f) => (
            <Col key={f.title} xs={24} sm={12} lg={6}>
              <Card style={{ height: '100%' }}>
                <div style={{ fontSize: 24, color: token.colorPrimary, marginBottom: 8 }}>{f.icon}</div>
                <Typography.Title level={5} style={{ marginTop: 0 }}>
                  {t(f.title)}
                </Typography.Title>
                <Typography.Text type="secondary">{t(f.text)}</Typography.Text>
              </Card>
            </Col>
          ))}
        </Row>
      </main>
    </Flex>
  );
}
