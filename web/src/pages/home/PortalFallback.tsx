import { Flex, Result } from 'antd';
import { useStatus } from '../../app/status';
import { LinkButton } from '../../components/LinkButton';
import { t } from '../../lib/i18n';

/** When the server has no portal page, the root still leads somewhere useful. */
export function PortalFallback() {
  const { status } = useStatus();
  return (
    <Flex align="center" justify="center" style={{ minHeight: '100vh' }}>
      <Result
        icon={<img src={status.logo || '/logo.svg'} alt="" width={72} height={72} />}
        title={status.system_name || 'Switchyard'}
        subTitle={t('统一的 AI 接口网关')}
        extra={
          <LinkButton to="/token" type="primary">
          {t('进入控制台')}
        </LinkButton>
        }
      />
    </Flex>
  );
}
