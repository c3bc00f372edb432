import { Card } from 'antd';
import { MarkdownContent } from '../../components/MarkdownContent';
import { PageLoading } from '../../app/PageLoading';
import { useAboutContent } from './useAboutContent';
import { DefaultAbout } from './DefaultAbout';
import { t } from '../../lib/i18n';
import { webUrl } from '../../lib/safeUrl';

export default function AboutPage() {
  const { data: content, isPending } = useAboutContent();
  if (isPending) return <PageLoading />;
  if (!content) return <DefaultAbout />;
  const page = content.startsWith('https://') ? webUrl(content) : null;
  if (page) {
    return (
      <iframe
        src={page}
        title={t('关于')}
        style={{ width: '100%', height: 'calc(100vh - 180px)', border: 'none' }}
      />
    );
  }
  return (
    <Card>
      <MarkdownContent source={content} />
    </Card>
  );
}
