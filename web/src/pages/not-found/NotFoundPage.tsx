import { Result } from 'antd';
import { LinkButton } from '../../components/LinkButton';
import { t } from '../../lib/i18n';

export default function NotFoundPage() {
  return (
    <Result
      status="404"
      title="404"
      subTitle={t('页面不存在，请检查你的浏览器地址是否正确')}
      extra={
        <LinkButton to="/" type="primary">
          {t('返回首页')}
        </LinkButton>
      }
    />
  );
}
